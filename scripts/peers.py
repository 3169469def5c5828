#!/usr/bin/env python3
"""Time libvips and OpenCV on the background extension's job, beside
`glass-gpu-bench extend`, which runs this script after its own rows.

The job, as the extend benchmark times ours: an RGBA 8-bit image in memory is
extended by INSET px on the leading and trailing sides with mirrored copies of its
edges, and those two strips (not the image) are blurred at SIGMA px; the result is
the whole canvas in memory. Each peer is warmed up, then timed; the median and the
minimum are printed, one row per peer and sigma.

The peers blur 8-bit sRGB values; ours blurs premultiplied linear light (more
work), so the comparison does not slow the peers. All use every core. A peer
whose warm-up run takes over half a second is timed 5 times, and its row says so.

Optional: glass-gpu never needs this script or its modules. A module that does not
import gives a row that says so and how to install it, and the script exits 0:

    pip install "pyvips[binary]" opencv-python-headless numpy

"pyvips[binary]" brings a current libvips (8.18 when written); plain `pyvips` uses
the system's, and libvips before 8.15 (Debian 12 has 8.14) has no Highway SIMD:
its gaussblur is 15 to 20 times slower here, so the row names the version.

Run alone (the extend benchmark writes the image and passes its own options):

    python3 scripts/peers.py --image /tmp/glass-gpu-bench-landscape-1920x1080.png --sigma 8 24 64
"""

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

INSTALL = 'pip install "pyvips[binary]" opencv-python-headless numpy'
SLOW_MS = 500  # a peer whose warm-up run takes longer is timed SLOW_RUNS times
SLOW_RUNS = 5


def parse_arguments():
    default_image = os.path.join(tempfile.gettempdir(), "glass-gpu-bench-landscape-1920x1080.png")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--image",
        default=default_image,
        help="the PNG (glass-gpu-bench extend writes its landscape to %(default)s)",
    )
    parser.add_argument("--inset", type=int, default=320, help="leading and trailing inset, px (default %(default)s)")
    parser.add_argument("--sigma", type=float, nargs="+", default=[24.0], help="sigmas, px (default 24)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs first (default %(default)s)")
    parser.add_argument("--runs", type=int, default=15, help="timed runs (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of rows")
    arguments = parser.parse_args()
    if arguments.inset < 0 or arguments.runs < 1 or arguments.warmup < 0:
        parser.error("--inset and --warmup take 0 or more, --runs 1 or more")
    if any(not (0 < s <= 2000) for s in arguments.sigma):
        parser.error("--sigma takes values above 0, up to 2000")
    return arguments


def strips(width, inset, sigma):
    """The two blurred strips of a canvas `width` px wide: for each, the columns
    written [x0, x1) and the columns read [r0, r1) (the strip and 3 sigma beyond,
    within the canvas)."""
    margin = math.ceil(3 * sigma) + 1
    out = []
    for x0, x1 in ((0, inset), (width - inset, width)):
        if x1 > x0:
            out.append((x0, x1, max(0, x0 - margin), min(width, x1 + margin)))
    return out


def timed(body, warmup, runs):
    """Median and minimum milliseconds of `body()` over `runs` runs after `warmup`
    (after one, and over at most SLOW_RUNS, when a warm-up run takes over SLOW_MS),
    and the number of runs."""
    for _ in range(warmup):
        start = time.perf_counter()
        body()
        if (time.perf_counter() - start) * 1000 > SLOW_MS and runs > SLOW_RUNS:
            runs = SLOW_RUNS
            break
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples), runs


def vips_peers(path, inset):
    """The libvips rows' bodies, or a reason it is missing."""
    try:
        import pyvips
    except Exception as error:  # ImportError, or OSError when libvips itself is missing
        return None, f"pyvips not found ({type(error).__name__}: {str(error).splitlines()[0][:80]})"
    pyvips.cache_set_max(0)  # no operation cache: every run computes
    image = pyvips.Image.new_from_file(path)
    if image.bands == 3:
        image = image.bandjoin(255)
    image = image.cast("uchar").copy_memory()
    width, height = image.width + 2 * inset, image.height
    version = "libvips %d.%d.%d" % (pyvips.version(0), pyvips.version(1), pyvips.version(2))
    if (pyvips.version(0), pyvips.version(1)) < (8, 15):
        version += " (no Highway SIMD)"

    def run(sigma, min_ampl):
        def body():
            canvas = image.embed(inset, 0, width, height, extend="mirror")
            out = canvas
            for x0, x1, r0, r1 in strips(width, inset, sigma):
                blurred = canvas.crop(r0, 0, r1 - r0, height).gaussblur(sigma, min_ampl=min_ampl)
                out = out.insert(blurred.crop(x0 - r0, 0, x1 - x0, height), x0, 0)
            out.write_to_memory()

        return body

    return [
        (f"{version}, cache off: mirror embed + gaussblur of the strips", "libvips", run, 0.2),
        (f"{version}, same, min_ampl 0.01 (kernel to 3 sigma, not 1.8)", "libvips-3sigma", run, 0.01),
    ], None


def opencv_peers(path, inset):
    """The OpenCV rows' bodies, or a reason it is missing."""
    try:
        import cv2
        import numpy  # noqa: F401  (cv2 needs it; named so its absence is reported)
    except Exception as error:
        return None, f"OpenCV not found ({type(error).__name__}: {str(error).splitlines()[0][:80]})"
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image is None:
        raise SystemExit(f"peers.py: OpenCV cannot read {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    if image.dtype != numpy.uint8:
        image = (image >> 8).astype(numpy.uint8)
    version = f"OpenCV {cv2.__version__}"
    width = image.shape[1] + 2 * inset

    def quarter(sigma, _):
        def body():
            canvas = cv2.copyMakeBorder(image, 0, 0, inset, inset, cv2.BORDER_REFLECT)
            for x0, x1, r0, r1 in strips(width, inset, sigma):
                region = canvas[:, r0:r1]
                h, w = region.shape[:2]
                small = cv2.resize(region, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
                small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
                up = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
                canvas[:, x0:x1] = up[:, x0 - r0 : x1 - r0]

        return body

    def full(sigma, _):
        def body():
            canvas = cv2.copyMakeBorder(image, 0, 0, inset, inset, cv2.BORDER_REFLECT)
            for x0, x1, r0, r1 in strips(width, inset, sigma):
                blurred = cv2.GaussianBlur(canvas[:, r0:r1], (0, 0), sigma)
                canvas[:, x0:x1] = blurred[:, x0 - r0 : x1 - r0]

        return body

    return [
        (f"{version}: reflect border + 1/4 size, GaussianBlur sigma/4, back up", "opencv-quarter", quarter, None),
        (f"{version}: reflect border + full-size GaussianBlur of the strips", "opencv-full", full, None),
    ], None


def main():
    arguments = parse_arguments()
    if not os.path.isfile(arguments.image):
        print(
            f"peers.py: no image at {arguments.image}; run `glass-gpu-bench extend` (it writes it) or pass --image",
            file=sys.stderr,
        )
        return 2
    rows = []
    missing = []
    for make in (vips_peers, opencv_peers):
        peers, reason = make(arguments.image, arguments.inset)
        if peers is None:
            missing.append(reason)
        else:
            rows.extend(peers)
    label_width = max([len(label) for label, *_ in rows] + [40])
    if not arguments.json:
        print(
            f"peers: the same image, {arguments.inset} px each side, median of {arguments.runs} runs after "
            f"{arguments.warmup} warm-up, 8-bit sRGB blurs (python {sys.version.split()[0]})"
        )
        if rows:
            print(f"{'peer':<{label_width}}   sigma     median        min")
    for reason in missing:
        if arguments.json:
            print(json.dumps({"peer": reason.split()[0], "available": False, "reason": reason, "install": INSTALL}))
        else:
            print(f"{reason}; install: {INSTALL}")
    for sigma in arguments.sigma:
        for label, key, make_body, option in rows:
            median, minimum, runs = timed(make_body(sigma, option), arguments.warmup, arguments.runs)
            if arguments.json:
                record = {"peer": key, "label": label, "sigma": sigma, "median_ms": round(median, 3)}
                record.update(min_ms=round(minimum, 3), runs=runs)
                print(json.dumps(record))
            else:
                note = "" if runs == arguments.runs else f"  ({runs} runs: slow)"
                print(f"{label:<{label_width}} {sigma:7.1f} {median:7.2f} ms {minimum:7.2f} ms{note}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
