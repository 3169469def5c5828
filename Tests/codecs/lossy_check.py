#!/usr/bin/env python3
"""Decodes glass-gpu's JPEG and WebP output with Pillow, a decoder that shares no
code with the Swift side's, and measures each against the lossless PNG of the
same render: PSNR over R, G and B from Pillow's own difference histogram, the
colour profile's description, and what Pillow reads the files as. Prints one
JSON object; exits 2 when Pillow is missing.

    lossy_check.py reference.png output.jpg output.webp
"""
import io
import json
import math
import sys

try:
    from PIL import Image, ImageChops, ImageCms
except ImportError as error:
    print(f"Pillow is not installed ({error}); apt-get install -y python3-pil", file=sys.stderr)
    sys.exit(2)


def psnr(reference, other):
    """Peak signal-to-noise ratio in dB of two RGB images (255 peak)."""
    difference = ImageChops.difference(reference, other)
    histogram = difference.histogram()  # 256 bins per band, R then G then B
    squared = 0
    for band in range(3):
        for value, count in enumerate(histogram[256 * band : 256 * (band + 1)]):
            squared += count * value * value
    mean = squared / (3 * reference.width * reference.height)
    return float("inf") if mean == 0 else 10 * math.log10(255 * 255 / mean)


def main():
    png, jpeg, webp = sys.argv[1:4]
    reference = Image.open(png)
    reference.load()
    result = {"png_mode": reference.mode, "png_size": list(reference.size)}
    reference = reference.convert("RGB")
    for name, path in (("jpeg", jpeg), ("webp", webp)):
        image = Image.open(path)
        image.load()
        result[name + "_format"] = image.format
        result[name + "_size"] = list(image.size)
        profile = image.info.get("icc_profile")
        if profile:
            parsed = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            result[name + "_profile"] = ImageCms.getProfileDescription(parsed).strip()
        result[name + "_psnr"] = psnr(reference, image.convert("RGB"))
    print(json.dumps(result))


main()
