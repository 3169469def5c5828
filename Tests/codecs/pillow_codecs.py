#!/usr/bin/env python3
"""Pillow, a codec stack that shares no code with glass-gpu's Swift side, as the
oracle of the JPEG and WebP tests (test tooling only; exits 2 without Pillow).

    pillow_codecs.py inputs FOLDER
        Writes JPEG and WebP inputs into FOLDER (procedural pixels, several
        encodings, the eight EXIF orientations in both byte orders, a CMYK JPEG,
        an animated WebP) and, beside each still RGB(A) file, NAME.rgba: Pillow's
        own decode turned upright by ImageOps.exif_transpose, as 8-bit RGBA rows.
        Prints a JSON list of {"file", "width", "height", "orientation"}.

    pillow_codecs.py encode RAW WIDTH HEIGHT FOLDER QUALITY...
        Encodes the 8-bit RGBA rows in RAW (opaque) at each QUALITY, as
        FOLDER/q{QUALITY}.jpg (4:2:0, as glass-gpu writes) and FOLDER/q{QUALITY}.webp
        (lossy), with Pillow's defaults otherwise.
"""
import json
import os
import struct
import sys

try:
    from PIL import Image, ImageOps
except ImportError as error:
    print(f"Pillow is not installed ({error}); apt-get install -y python3-pil", file=sys.stderr)
    sys.exit(2)


def picture(width, height, alpha=False):
    """Smooth gradients with a few hard edges: what a photo and a UI both hold."""
    image = Image.new("RGBA" if alpha else "RGB", (width, height))
    pixels = []
    for y in range(height):
        for x in range(width):
            r = (x * 255) // max(1, width - 1)
            g = (y * 255) // max(1, height - 1)
            b = 200 if (x // 8 + y // 8) % 2 else 40
            if alpha:
                pixels.append((r, g, b, 255 - (x * 200) // max(1, width - 1)))
            else:
                pixels.append((r, g, b))
    image.putdata(pixels)
    return image


def quadrants(width, height):
    """Four flat colours, one a quadrant, and a white mark near the top-left
    corner: every orientation of it looks different, and JPEG keeps flat areas."""
    image = Image.new("RGB", (width, height))
    colours = [(220, 30, 30), (30, 200, 40), (40, 60, 230), (240, 200, 20)]
    pixels = []
    for y in range(height):
        for x in range(width):
            quadrant = (1 if x >= width // 2 else 0) + (2 if y >= height // 2 else 0)
            colour = colours[quadrant]
            if 2 <= x < 10 and 2 <= y < 6:
                colour = (255, 255, 255)
            pixels.append(colour)
    image.putdata(pixels)
    return image


def tiff_orientation(value, big_endian):
    """An EXIF block ("Exif\\0\\0" and TIFF data) whose IFD0 holds only the
    orientation tag (0x0112, SHORT, 1 value)."""
    e = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(e + "I", 0)
    return b"Exif\x00\x00" + tiff


def write_raw(path, image):
    upright = ImageOps.exif_transpose(image).convert("RGBA")
    with open(path + ".rgba", "wb") as f:
        f.write(upright.tobytes())
    return upright.size


def inputs(folder):
    entries = []

    def add(name, image, orientation=1, **options):
        path = os.path.join(folder, name)
        image.save(path, **options)
        reread = Image.open(path)
        reread.load()
        width, height = write_raw(path, reread)
        entries.append({"file": name, "width": width, "height": height, "orientation": orientation})

    photo = picture(61, 37)
    add("baseline-420.jpg", photo, quality=90, subsampling=2)
    add("baseline-444.jpg", photo, quality=95, subsampling=0)
    add("progressive.jpg", photo, quality=85, progressive=True)
    add("grey.jpg", photo.convert("L"), quality=90)
    add("lossy.webp", photo, quality=80)
    add("lossy-alpha.webp", picture(61, 37, alpha=True), quality=80)
    add("lossless-alpha.webp", picture(61, 37, alpha=True), lossless=True)
    marked = quadrants(48, 32)
    for value in range(1, 9):
        for big_endian in (False, True):
            order = "mm" if big_endian else "ii"
            exif = tiff_orientation(value, big_endian)
            add(f"orientation-{value}-{order}.jpg", marked, value, quality=95, subsampling=0, exif=exif)
            # Pillow writes the EXIF chunk as the WebP container specifies it: TIFF data alone.
            add(f"orientation-{value}-{order}.webp", marked, value, lossless=True, exif=exif)
    Image.new("CMYK", (16, 16), (0, 128, 0, 0)).save(os.path.join(folder, "cmyk.jpg"), quality=90)
    frames = [Image.new("RGB", (16, 16), colour) for colour in ((255, 0, 0), (0, 0, 255))]
    frames[0].save(os.path.join(folder, "animated.webp"), save_all=True, append_images=frames[1:], duration=100)
    print(json.dumps(entries))


def encode(raw, width, height, folder, qualities):
    with open(raw, "rb") as f:
        image = Image.frombytes("RGBA", (width, height), f.read()).convert("RGB")
    for quality in qualities:
        image.save(os.path.join(folder, f"q{quality}.jpg"), quality=quality, subsampling=2)
        image.save(os.path.join(folder, f"q{quality}.webp"), quality=quality)


def main():
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2])
    elif sys.argv[1] == "encode":
        encode(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], [int(q) for q in sys.argv[6:]])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)


main()
