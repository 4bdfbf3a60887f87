#!/usr/bin/env python3
"""Writes hostile and broken EPUBs with Python's zipfile (a zip writer independent
of reader's) for test/hostile-files.test.ts.

usage: hostile-epubs.py <directory>

Every file is a well-formed EPUB 3 except for the one thing its name says. The
bombs are made of spaces, which deflate about a thousand times; the "lying"
ones declare a few kilobytes in both the local header and the central directory
while their data inflates to far more.
"""
import os
import random
import struct
import sys
import zipfile

MB = 1024 * 1024

CONTAINER = b"""<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""

OPF = b"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:test:hostile</dc:identifier><dc:title>Hostile</dc:title><dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="chapter-1.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="chapter-2.xhtml" media-type="application/xhtml+xml"/>
    <item id="img" href="images/plate.png" media-type="image/png"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
</package>"""

NAV = b"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
<body><nav epub:type="toc"><ol><li><a href="chapter-1.xhtml">One</a></li><li><a href="chapter-2.xhtml">Two</a></li></ol></nav></body></html>"""


def chapter(title: str, body: bytes = b"<p>The river was quiet that morning.</p>") -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>'
        + title.encode()
        + b"</title></head><body><h1>"
        + title.encode()
        + b"</h1>"
        + body
        + b"</body></html>"
    )


# A PNG signature and IHDR are enough for a reader to fetch; nobody decodes it here.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\0" * 64


def base_entries():
    return {
        "META-INF/container.xml": CONTAINER,
        "OEBPS/content.opf": OPF,
        "OEBPS/nav.xhtml": NAV,
        "OEBPS/chapter-1.xhtml": chapter("One"),
        "OEBPS/chapter-2.xhtml": chapter("Two"),
        "OEBPS/images/plate.png": PNG,
    }


class Streamed:
    """An entry written in 1 MB chunks (never held whole): `head`, `size` bytes of `fill`, `tail`."""

    def __init__(self, size: int, head: bytes = b"", tail: bytes = b"", fill: bytes = b" "):
        self.size, self.head, self.tail, self.fill = size, head, tail, fill


def write(path: str, entries: dict, lie: dict | None = None, extra=None) -> None:
    """Writes the EPUB; `lie` maps entry names to the uncompressed size they should declare."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), b"application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if isinstance(data, Streamed):
                with archive.open(info, "w", force_zip64=False) as out:
                    out.write(data.head)
                    chunk = data.fill * MB
                    left = data.size
                    while left > 0:
                        out.write(chunk[: min(left, len(chunk))])
                        left -= len(chunk)
                    out.write(data.tail)
            else:
                archive.writestr(info, data)
        if extra:
            extra(archive)
    if lie:
        patch_sizes(path, lie)


def patch_sizes(path: str, lie: dict) -> None:
    """Overwrites the uncompressed size of entries in their local header and central directory record."""
    with zipfile.ZipFile(path) as archive:
        infos = {info.filename: info for info in archive.infolist()}
    with open(path, "r+b") as file:
        data = bytearray(file.read())
        for name, size in lie.items():
            info = infos[name]
            data[info.header_offset + 22 : info.header_offset + 26] = struct.pack("<I", size)
            # Central directory records: find the one naming this entry.
            at = 0
            while True:
                at = data.find(b"PK\x01\x02", at)
                if at < 0:
                    raise SystemExit(f"no central directory record for {name}")
                name_length = struct.unpack_from("<H", data, at + 28)[0]
                if bytes(data[at + 46 : at + 46 + name_length]) == name.encode():
                    data[at + 24 : at + 28] = struct.pack("<I", size)
                    break
                at += 46
        file.seek(0)
        file.write(data)


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)  # noqa: E731

    write(p("good.epub"), base_entries())

    # The first case: one chapter of 200 MB of XHTML in a ~200 KB archive.
    spine_bomb = base_entries()
    spine_bomb["OEBPS/chapter-2.xhtml"] = Streamed(200 * MB, head=chapter("Two")[:-14] + b"<p>", tail=b"</p></body></html>")
    write(p("spine-bomb.epub"), spine_bomb)

    # The second: the bomb is an image outside the spine (100 MB declared honestly).
    image_bomb = base_entries()
    image_bomb["OEBPS/images/plate.png"] = Streamed(100 * MB, head=PNG, fill=b"\0")
    write(p("image-bomb.epub"), image_bomb)

    # Under the per-file cap, but 10 MB from ~10 KB: refused by the ratio.
    ratio_bomb = base_entries()
    ratio_bomb["OEBPS/images/plate.png"] = Streamed(10 * MB, head=PNG, fill=b"\0")
    write(p("ratio-bomb.epub"), ratio_bomb)

    # Sizes that lie: 200 MB declared as 4 KB, in the spine and outside it.
    lying_spine = base_entries()
    lying_spine["OEBPS/chapter-2.xhtml"] = Streamed(200 * MB, head=chapter("Two")[:-14] + b"<p>", tail=b"</p></body></html>")
    write(p("lying-spine.epub"), lying_spine, lie={"OEBPS/chapter-2.xhtml": 4096})
    lying_image = base_entries()
    lying_image["OEBPS/images/plate.png"] = Streamed(200 * MB, head=PNG, fill=b"\0")
    write(p("lying-image.epub"), lying_image, lie={"OEBPS/images/plate.png": 4096})

    # A chapter of 9 MB of text that compresses like text: under the ratio, over the XML cap.
    vocabulary = [bytes(word, "ascii") for word in "river morning fog quiet rope harbour lantern shore boat tide net gull salt oar".split()]
    pick = random.Random(7)
    text = b" ".join(vocabulary[pick.randrange(len(vocabulary))] + str(pick.randrange(1000)).encode() for _ in range(1_100_000))
    big_xml = base_entries()
    big_xml["OEBPS/chapter-2.xhtml"] = chapter("Two", b"<p>" + text + b"</p>")
    write(p("big-xml.epub"), big_xml)

    # Entity expansion ("billion laughs"): ten levels of ten.
    levels = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10)]
    laughs = base_entries()
    laughs["OEBPS/chapter-1.xhtml"] = (
        '<?xml version="1.0"?>\n<!DOCTYPE html [' + "".join(levels) + ']>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body><p>&l9;</p></body></html>'
    ).encode()
    write(p("entities.epub"), laughs)

    # More entries than allowed (10,001 small files).
    def many(archive):
        for i in range(10_001):
            archive.writestr(f"OEBPS/filler/{i}.txt", b"x")

    write(p("many-entries.epub"), base_entries(), extra=many)

    # Names outside the archive, and a symbolic link.
    for label, name in [("slip-parent", "../../outside.xhtml"), ("slip-absolute", "/tmp/outside.xhtml")]:

        def slip(archive, name=name):
            info = zipfile.ZipInfo("placeholder")
            info.filename = name  # zipfile would clean the name otherwise
            archive.writestr(info, b"<p>escaped</p>")

        write(p(f"{label}.epub"), base_entries(), extra=slip)

    def symlink(archive):
        info = zipfile.ZipInfo("OEBPS/link.xhtml")
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        archive.writestr(info, b"/etc/passwd")

    write(p("symlink.epub"), base_entries(), extra=symlink)

    # The same name twice (two readers could disagree about which one is the chapter).
    def duplicate(archive):
        archive.writestr("OEBPS/chapter-1.xhtml", chapter("Other"))

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write(p("duplicate.epub"), base_entries(), extra=duplicate)

    # Cut in the middle: no central directory.
    with open(p("good.epub"), "rb") as file:
        good = file.read()
    with open(p("truncated.epub"), "wb") as file:
        file.write(good[: len(good) // 2])


if __name__ == "__main__":
    main()
