#!/usr/bin/env python3
"""Inflates the image data of each PNG named with Python's zlib module (zlib's own
inflate, which checks the stream's Adler-32), a decoder apart from libpng's use of
it: prints one line per file, "ok" with the inflated length or the error, and
exits 1 when any stream is refused or inflates to the wrong length.

    inflate_check.py a.png b.png ...
"""
import struct
import sys
import zlib


def check(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, width, height, depth = 8, b"", 0, 0, 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth = struct.unpack(">IIB", body[:9])
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    expected = height * (1 + width * 4 * depth // 8)
    if len(raw) != expected:
        raise ValueError(f"inflates to {len(raw)} bytes, not {expected}")
    return len(raw)


failed = 0
for path in sys.argv[1:]:
    try:
        print(f"{path}: ok {check(path)}")
    except Exception as error:  # every refusal is reported, not only zlib's
        failed += 1
        print(f"{path}: {error}")
sys.exit(1 if failed else 0)
