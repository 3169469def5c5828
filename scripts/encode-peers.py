#!/usr/bin/env python3
"""Times other encoders on the frame `glass-gpu-bench encode` times, in the same
run: fpng, QOI, Pillow's PNG writer and OpenCV's, each where installed from PyPI
(pip install fpng qoi pillow opencv-python-headless numpy), on one thread.
Prints one JSON line per peer: its name, median milliseconds and bytes, or why
it was left out.

    encode-peers.py FRAME.rgba WIDTH HEIGHT RUNS
"""
import io
import json
import statistics
import sys
import time


def timed(encode, runs):
    encode()
    samples, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(encode())
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), size


def main():
    path, width, height, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    raw = open(path, "rb").read()
    try:
        import numpy
    except ImportError:
        print(json.dumps({"name": "peers", "missing": "pip install numpy"}))
        return
    pixels = numpy.frombuffer(raw, dtype=numpy.uint8).reshape(height, width, 4)

    def peer(name, package, make):
        try:
            encode = make()
        except ImportError:
            print(json.dumps({"name": name, "missing": f"pip install {package}"}))
            return
        ms, size = timed(encode, runs)
        print(json.dumps({"name": name, "ms": ms, "bytes": size}), flush=True)

    def fpng_encoder():
        import fpng
        return lambda: fpng.from_ndarray(pixels)

    def qoi_encoder():
        import qoi
        return lambda: qoi.encode(pixels)

    def pillow_encoder():
        from PIL import Image
        image = Image.frombuffer("RGBA", (width, height), raw, "raw", "RGBA", 0, 1)

        def encode():
            out = io.BytesIO()
            image.save(out, format="PNG", compress_level=1)
            return out.getvalue()

        return encode

    def opencv_encoder():
        import cv2
        cv2.setNumThreads(1)
        bgra = cv2.cvtColor(pixels, cv2.COLOR_RGBA2BGRA)
        return lambda: cv2.imencode(".png", bgra, [cv2.IMWRITE_PNG_COMPRESSION, 1])[1].tobytes()

    peer("fpng (PyPI fpng)", "fpng", fpng_encoder)
    peer("QOI (PyPI qoi)", "qoi", qoi_encoder)
    peer("Pillow PNG, level 1", "pillow", pillow_encoder)
    peer("OpenCV PNG, level 1", "opencv-python-headless", opencv_encoder)


main()
