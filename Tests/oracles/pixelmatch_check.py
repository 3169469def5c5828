#!/usr/bin/env python3
"""Test oracle for the anti-aliasing mode (AntiAliasedPixels): pixelmatch's own
detector, through its Python port on PyPI (`pixelmatch`, 0.4.0, a transcription
of mapbox/pixelmatch by Wu Haotian; test tooling only, never used by glass-gpu).

    pixelmatch_check.py A1.rgba B1.rgba [A2.rgba B2.rgba ...]

Each file is a little-endian uint32 width, uint32 height, then 8-bit RGBA rows.
Prints one JSON object: {"pairs": [{"unexplained": [[x, y], ...],
"pixelmatch": N}, ...]}, where "unexplained" lists the pixels that differ in
any channel and that pixelmatch's `antialiased` calls anti-aliased in neither
image, and "pixelmatch" is the count `pixelmatch(a, b, w, h, threshold=0)`
returns (the same pixels, for opaque images: threshold 0 makes every visibly
differing pixel a candidate).
"""
import json
import struct
import sys

from pixelmatch import pixelmatch
from pixelmatch.utils import antialiased


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    width, height = struct.unpack("<II", data[:8])
    pixels = list(data[8:])
    if len(pixels) != 4 * width * height:
        raise SystemExit(f"{path}: {len(pixels)} samples for {width}x{height}")
    return width, height, pixels


def main(paths):
    if len(paths) % 2:
        raise SystemExit("give pairs of .rgba files")
    pairs = []
    for a_path, b_path in zip(paths[0::2], paths[1::2]):
        width, height, a = read(a_path)
        other = read(b_path)
        if other[:2] != (width, height):
            raise SystemExit(f"{a_path} and {b_path} differ in size")
        b = other[2]
        unexplained = []
        for y in range(height):
            for x in range(width):
                i = 4 * (y * width + x)
                if a[i:i + 4] == b[i:i + 4]:
                    continue
                if antialiased(a, x, y, width, height, b) or antialiased(b, x, y, width, height, a):
                    continue
                unexplained.append([x, y])
        count = pixelmatch(a, b, width, height, threshold=0)
        pairs.append({"unexplained": unexplained, "pixelmatch": count})
    print(json.dumps({"pairs": pairs}))


if __name__ == "__main__":
    main(sys.argv[1:])
