#!/usr/bin/env python3
"""Writes the PNG fixtures of PNGCodecTests, chunk by chunk, with no imaging library.

Run from anywhere: `python3 make_fixtures.py` writes into the folder holding this
script. The output is deterministic, so re-running it leaves git clean.

The pixel pattern (PNGCodecTests recomputes it; keep the two in step)
---------------------------------------------------------------------
For pixel (x, y) -- x across from 0 at the left, y down from 0 at the top -- and
sample index c, the c-th sample of the pixel in the file's own sample order
(grey: 0; grey+alpha: grey 0, alpha 1; RGB: 0 1 2; RGBA: 0 1 2 3):

    s(x, y, c)       = 37*x + 91*y + 53*c + 11
    v(x, y, c, bits) = (s(x, y, c) * 4099) mod 2**bits

A sample stored with `bits` bits per sample holds v(x, y, c, bits).

Palette images store the index v(x, y, 0, bits) and carry a full palette of
2**bits entries; entry k is

    R = (41*k + 7) mod 256,  G = (83*k + 101) mod 256,  B = (29*k + 200) mod 256

A palette tRNS chunk holds 2**bits - 3 entries (so the last three palette entries
are opaque by omission); entry k is alpha (67*k + 3) mod 256.

Grey and RGB tRNS chunks give the colour of the pixel (width // 2, height // 2),
so that pixel and every pixel of the same colour decode with alpha 0.

Every image row uses filter type (row + pass) mod 5, where `row` counts the rows
of the (sub)image from 0 and `pass` is the Adam7 pass 0...6 (0 when not
interlaced), and the zlib stream is split over IDAT chunks of at most 64 bytes,
so all five filters and multi-IDAT streams are exercised.
"""

import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GREY: 1, RGB: 3, PALETTE: 1, GREY_ALPHA: 2, RGBA: 4}

# Adam7: (x start, y start, x step, y step) of each pass.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def v(x, y, c, bits):
    return ((37 * x + 91 * y + 53 * c + 11) * 4099) % (1 << bits)


def palette_entry(k):
    return ((41 * k + 7) % 256, (83 * k + 101) % 256, (29 * k + 200) % 256)


def palette_alpha(k):
    return (67 * k + 3) % 256


def samples(x, y, color_type, bits):
    """The samples of pixel (x, y) as stored in the file."""
    return [v(x, y, c, bits) for c in range(CHANNELS[color_type])]


def chunk(kind, data, crc=None):
    body = kind + data
    if crc is None:
        crc = zlib.crc32(body) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + body + struct.pack(">I", crc)


def pack_row(pixels, color_type, bits):
    """Packs one row of pixels (each a list of samples) into bytes, big-endian,
    sub-byte samples packed from the most significant bit."""
    out = bytearray()
    if bits < 8:
        acc, used = 0, 0
        for p in pixels:
            for s in p:
                acc = (acc << bits) | s
                used += bits
                if used == 8:
                    out.append(acc)
                    acc, used = 0, 0
        if used:
            out.append(acc << (8 - used))
    else:
        for p in pixels:
            for s in p:
                out += struct.pack(">H", s) if bits == 16 else bytes([s])
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp, first_type):
    """Filters packed rows; row i uses filter type (first_type + i) mod 5."""
    out = bytearray()
    prior = bytes(len(rows[0])) if rows else b""
    for i, raw in enumerate(rows):
        kind = (first_type + i) % 5
        out.append(kind)
        for j, byte in enumerate(raw):
            a = raw[j - bpp] if j >= bpp else 0
            b = prior[j]
            c = prior[j - bpp] if j >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((byte - predictor) & 0xFF)
        prior = raw
    return bytes(out)


def image_data(width, height, color_type, bits, interlaced):
    """The uncompressed, filtered image data."""
    bpp = max(1, CHANNELS[color_type] * bits // 8)
    if not interlaced:
        passes = [(0, 0, 1, 1)]
    else:
        passes = ADAM7
    out = bytearray()
    for number, (x0, y0, dx, dy) in enumerate(passes):
        xs = list(range(x0, width, dx))
        ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue  # an empty pass has no rows, not even filter bytes
        rows = [pack_row([samples(x, y, color_type, bits) for x in xs], color_type, bits) for y in ys]
        out += filter_rows(rows, bpp, number if interlaced else 0)
    return bytes(out)


def png(width, height, color_type, bits, interlaced=False, trns=False, extra=b""):
    """A complete PNG file; `extra` is inserted as chunks before the first IDAT."""
    ihdr = struct.pack(">IIBBBBB", width, height, bits, color_type, 0, 0, 1 if interlaced else 0)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    if color_type == PALETTE:
        entries = 1 << bits
        out += chunk(b"PLTE", bytes(b for k in range(entries) for b in palette_entry(k)))
        if trns:
            out += chunk(b"tRNS", bytes(palette_alpha(k) for k in range(entries - 3)))
    elif trns:
        key = samples(width // 2, height // 2, color_type, bits)
        out += chunk(b"tRNS", b"".join(struct.pack(">H", s) for s in key))
    stream = zlib.compress(image_data(width, height, color_type, bits, interlaced), 9)
    for i in range(0, len(stream), 64):
        out += chunk(b"IDAT", stream[i:i + 64])
    return out + chunk(b"IEND", b"")


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def chunks(data):
    """(offset, length, type) of each chunk of a PNG file."""
    pos, found = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        found.append((pos, length, kind))
        pos += 12 + length
    return found


# name -> (colour type, bit depth, tRNS)
KINDS = {
    "grey1": (GREY, 1, False),
    "grey2": (GREY, 2, False),
    "grey4": (GREY, 4, False),
    "grey8": (GREY, 8, False),
    "grey16": (GREY, 16, False),
    "greyalpha8": (GREY_ALPHA, 8, False),
    "greyalpha16": (GREY_ALPHA, 16, False),
    "rgb8": (RGB, 8, False),
    "rgb16": (RGB, 16, False),
    "rgba8": (RGBA, 8, False),
    "rgba16": (RGBA, 16, False),
    "palette1": (PALETTE, 1, False),
    "palette2": (PALETTE, 2, False),
    "palette4": (PALETTE, 4, False),
    "palette8": (PALETTE, 8, False),
    "palette4_trns": (PALETTE, 4, True),
    "grey2_trns": (GREY, 2, True),
    "grey8_trns": (GREY, 8, True),
    "grey16_trns": (GREY, 16, True),
    "rgb8_trns": (RGB, 8, True),
    "rgb16_trns": (RGB, 16, True),
}
# Kinds also written Adam7-interlaced, as NAME_adam7.png.
INTERLACED = ["rgba8", "grey4", "palette8", "rgb16", "grey1", "greyalpha16", "rgb8_trns", "palette4_trns"]
# Extra sizes: NAME_WxH.png (and NAME_adam7_WxH.png for interlaced kinds). A 1x1
# image has only Adam7 pass 1; 3x2 leaves passes 2, 3 and 5 empty.
SIZES = {"1x1": (1, 1), "3x2": (3, 2)}
EXTRA_SIZED = ["grey1", "grey16", "greyalpha8", "rgb8", "rgb16", "rgba8", "rgba16", "palette1", "palette8",
               "grey8_trns", "rgb16_trns", "palette4_trns"]
EXTRA_SIZED_INTERLACED = ["rgba8", "rgb16", "palette4_trns"]


def main():
    for old in os.listdir(HERE):
        if old.endswith(".png"):
            os.remove(os.path.join(HERE, old))

    for name, (color_type, bits, trns) in KINDS.items():
        write(name + ".png", png(13, 7, color_type, bits, trns=trns))
    for name in INTERLACED:
        color_type, bits, trns = KINDS[name]
        write(name + "_adam7.png", png(13, 7, color_type, bits, interlaced=True, trns=trns))
    for suffix, (w, h) in SIZES.items():
        for name in EXTRA_SIZED:
            color_type, bits, trns = KINDS[name]
            write(f"{name}_{suffix}.png", png(w, h, color_type, bits, trns=trns))
        for name in EXTRA_SIZED_INTERLACED:
            color_type, bits, trns = KINDS[name]
            write(f"{name}_adam7_{suffix}.png", png(w, h, color_type, bits, interlaced=True, trns=trns))

    # An iCCP chunk whose profile has the right length but no 'acsp' signature:
    # libpng reports it as a benign error, a warning when benign errors are allowed,
    # and ignores the profile. Pixels as rgb8.png. The profile is stored, not
    # compressed: libpng 1.6 reads the first 81 bytes of the chunk as the keyword
    # buffer and calls an iCCP chunk shorter than 92 bytes "too short" before it
    # looks at the profile at all.
    profile = bytearray(b"not an ICC profile, only bytes. " * 5)  # 160 bytes
    profile[0:4] = struct.pack(">I", len(profile))
    iccp = chunk(b"iCCP", b"bogus\x00\x00" + zlib.compress(bytes(profile), 0))
    write("bad_icc.png", png(13, 7, RGB, 8, extra=iccp))

    # Bad files.
    write("empty.png", b"")
    write("not_a_png.png", b"This is a text file that pretends to be a PNG image.\n")
    good = png(13, 7, RGBA, 8)
    first_idat = next(c for c in chunks(good) if c[2] == b"IDAT")
    pos, length, _ = first_idat
    # Cut in the middle of the first IDAT's data.
    write("truncated.png", good[:pos + 8 + length // 2])
    # Every byte of the first IDAT's data inverted, CRC recomputed: the zlib header
    # is wrong, so inflate fails on the first row.
    data = bytes(b ^ 0xFF for b in good[pos + 8:pos + 8 + length])
    write("corrupt_zlib.png", good[:pos] + chunk(b"IDAT", data) + good[pos + 12 + length:])
    # The first IDAT's CRC inverted.
    crc = struct.unpack(">I", good[pos + 8 + length:pos + 12 + length])[0] ^ 0xFFFFFFFF
    write("bad_crc.png", good[:pos + 8 + length] + struct.pack(">I", crc) + good[pos + 12 + length:])
    # A valid header for 100000 x 100000 grey pixels (10^10 pixels) and a tiny IDAT.
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, GREY, 0, 0, 0)
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(64), 9))
    write("huge_header.png", huge + chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
