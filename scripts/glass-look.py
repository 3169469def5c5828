#!/usr/bin/env python3
"""Renders the four cases of the glass reference (docs/glass-look/*.json: a
regular capsule over a landscape and over stripes, a clear capsule over flowers,
an orange-tinted rounded rectangle; 800 x 500 pt at scale 2) with the default
optics on the CPU, and puts each beside the reference picture's two columns:
glass-gpu before issue 11 (its left column) and the port of flutter_liquid_glass
(its right column). Run through `make glass-look`; needs python3-pil (tooling
only, never a runtime dependency).

    scripts/glass-look.py [REFERENCE.png] [OUT.png] [--width W]

REFERENCE defaults to ../shared/reference/glass-side-by-side.png; OUT to
out/glass-look/compare.png; W (the width of one picture) to 800.
"""
import os
import subprocess
import sys

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError:
    sys.exit("glass-look: this script needs Pillow: apt-get install -y python3-pil (or pip install pillow)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = ["1-landscape", "2-stripes", "3-flowers", "4-tint"]
# Where each case's 800 x 500 panels start in the reference picture (rows), and
# its two columns.
REFERENCE_TOPS = [88, 643, 1200, 1756]
BEFORE_X, PEER_X = 0, 808
PANEL = (800, 500)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    width = PANEL[0]
    if "--width" in argv:
        width = int(argv[argv.index("--width") + 1])
        args = [a for a in args if a != str(width)]
    reference = args[0] if args else os.path.join(ROOT, "..", "shared", "reference", "glass-side-by-side.png")
    out = args[1] if len(args) > 1 else os.path.join(ROOT, "out", "glass-look", "compare.png")
    if not os.path.exists(reference):
        sys.exit(f"glass-look: no reference picture at {reference}; give its path as the first argument")
    binary = os.path.join(ROOT, ".build", "release", "glass-gpu")
    if not os.path.exists(binary):
        sys.exit(f"glass-look: no {binary}; run `make release` first")
    folder = os.path.join(ROOT, "out", "glass-look")
    os.makedirs(folder, exist_ok=True)
    renders = []
    for case in CASES:
        png = os.path.join(folder, case + ".png")
        subprocess.run(
            [binary, "render", os.path.join(ROOT, "docs", "glass-look", case + ".json"), "-o", png, "--backend", "cpu"],
            check=True)
        renders.append(png)
        print(f"  {case}: {png}")

    ref = Image.open(reference).convert("RGB")
    scale = width / PANEL[0]
    w, h = width, round(PANEL[1] * scale)
    label = max(14, round(26 * scale))
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", round(label * 0.75))
    except OSError:
        font = ImageFont.load_default()
    gap = 8
    sheet = Image.new("RGB", (3 * w + 2 * gap, len(CASES) * (h + label + gap)), (30, 31, 36))
    draw = ImageDraw.Draw(sheet)
    columns = [
        ("before (glass-gpu, old defaults)", (255, 210, 120)),
        ("after (glass-gpu, new defaults)", (140, 240, 140)),
        ("reference (flutter_liquid_glass port)", (140, 210, 255)),
    ]
    for row, (case, top, png) in enumerate(zip(CASES, REFERENCE_TOPS, renders)):
        before = ref.crop((BEFORE_X, top, BEFORE_X + PANEL[0], top + PANEL[1]))
        peer = ref.crop((PEER_X, top, PEER_X + PANEL[0], top + PANEL[1]))
        after = Image.open(png).convert("RGB")
        y = row * (h + label + gap)
        for column, picture in enumerate([before, after, peer]):
            x = column * (w + gap)
            sheet.paste(picture.resize((w, h), Image.LANCZOS), (x, y + label))
            draw.text((x + 4, y + 2), f"{case[2:]}: {columns[column][0]}", fill=columns[column][1], font=font)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    if out.lower().endswith((".jpg", ".jpeg")):
        sheet.save(out, quality=88, optimize=True)
    else:
        sheet.save(out, optimize=True)
    print(f"  before | after | reference: {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
