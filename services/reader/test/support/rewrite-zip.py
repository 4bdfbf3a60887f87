# Rewrites an EPUB made by another tool (pandoc) into the shapes other tools
# produce, with Python's zipfile (independent of the reader's own zip code):
#   python3 rewrite-zip.py <source> <target>  < {"rename": {old: new}, "edit": {name: [[from, to], ...]}, "put": {name: text},
#                                                "obfuscate": {"names": [...], "algorithm": "idpf" | "adobe", "identifier": "..."},
#                                                "encode": {name: "utf-16" | "iso-8859-1"}}
# Renames apply to the entry names, edits (plain text replacements) to the
# renamed entries; `mimetype` stays first and stored, as the OCF container asks.
# Obfuscation follows the OCF specification (IDPF: the first 1040 bytes XORed
# with the SHA-1 of the identifier; Adobe: the first 1024 with its UUID bytes).
import hashlib
import json
import sys
import zipfile


def obfuscate(data, algorithm, identifier):
    if algorithm == "idpf":
        key, length = hashlib.sha1("".join(identifier.split()).encode("utf-8")).digest(), 1040
    else:
        key, length = bytes.fromhex(identifier.replace("urn:uuid:", "").replace("-", "")), 1024
    head = bytes(b ^ key[i % len(key)] for i, b in enumerate(data[:length]))
    return head + data[length:]


source, target = sys.argv[1], sys.argv[2]
spec = json.load(sys.stdin)
rename, edit, put = spec.get("rename", {}), spec.get("edit", {}), spec.get("put", {})
obfuscation = spec.get("obfuscate", {"names": []})
encode = spec.get("encode", {})
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
    names = zin.namelist()
    order = ["mimetype"] + [n for n in names if n != "mimetype"]
    for name in order:
        data = zin.read(name)
        new_name = rename.get(name, name)
        for old, new in edit.get(new_name, []):
            text = data.decode("utf-8")
            if old not in text:
                sys.exit(f"{new_name} has no {old!r}")
            data = text.replace(old, new).encode("utf-8")
        if new_name in put:
            data = put.pop(new_name).encode("utf-8")
        if new_name in encode:
            # The XML declaration names the new encoding; UTF-16 starts with its byte-order mark.
            text = data.decode("utf-8").replace('encoding="UTF-8"', f'encoding="{encode[new_name].upper()}"', 1)
            data = text.encode(encode[new_name])
        if new_name in obfuscation["names"]:
            data = obfuscate(data, obfuscation["algorithm"], obfuscation["identifier"])
        method = zipfile.ZIP_STORED if new_name == "mimetype" else zipfile.ZIP_DEFLATED
        zout.writestr(zipfile.ZipInfo(new_name), data, compress_type=method)
    for new_name, text in put.items():
        zout.writestr(zipfile.ZipInfo(new_name), text.encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED)
