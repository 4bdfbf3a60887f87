"""Schemathesis hooks for the Folio gateway (loaded through SCHEMATHESIS_HOOKS).

- Most requests name an existing tenant, so generated input reaches the
  services instead of stopping at the tenant check (412); a few keep the
  generated value, so the tenant check itself is fuzzed too.
- Each request claims its own client address from 198.18.0.0/15 (the
  benchmarking range; the gateway trusts X-Forwarded-For from loopback outside
  production), so the per-IP limits do not turn the run into 429s.
- Store hosts (`sur.localhost`, ...) resolve to loopback, as RFC 6761 says
  every `.localhost` name does (browsers do it; glibc does not).
"""
import itertools
import socket

import schemathesis

_getaddrinfo = socket.getaddrinfo


def _loopback_for_localhost(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback_for_localhost

_counter = itertools.count()


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    n = next(_counter)
    headers = case.headers if case.headers is not None else {}
    for name in list(headers):
        if name.lower() == "x-svc-tenant-id" and n % 8 != 0:
            headers[name] = "1"
    headers["X-Forwarded-For"] = f"198.{18 + ((n >> 16) & 1)}.{(n >> 8) & 255}.{n & 255}"
    case.headers = headers


# The publisher API's upload takes the file itself as the body: schemathesis
# has no serializer for these media types, so generated values go as bytes.
@schemathesis.serializer("application/epub+zip", "application/pdf", "audio/mpeg", "audio/mp4", "audio/ogg", "application/zip")
def _file_body(ctx, value):
    return value if isinstance(value, bytes) else str(value).encode()
