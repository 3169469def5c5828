#!/usr/bin/env bash
# Makes sure the Debian packages glass-gpu builds and runs with are installed.
# As root with apt-get, installs the missing ones (apt-get update once first);
# otherwise prints the command to install them and fails.
set -euo pipefail

# Build: pkgconf (pkg-config: SwiftPM finds HarfBuzz through it); EGL, GLES 3, libpng,
# libdeflate, libjpeg-turbo (TurboJPEG), libwebp, HarfBuzz, FreeType and fontconfig headers.
# Run: glvnd's EGL/GLES, Mesa's EGL vendor and its DRI drivers (llvmpipe), libpng,
# libdeflate, libjpeg-turbo and libwebp (JPEG and WebP output), HarfBuzz, FreeType,
# fontconfig and the default font, Inter. Tests:
# hb-shape (HarfBuzz's own shaping, the oracle of the text tests) and fonts for
# Arabic and Hebrew (DejaVu) and Devanagari (Lohit).
packages=(pkgconf libegl-dev libgles-dev libpng-dev libdeflate-dev libturbojpeg0-dev libwebp-dev libharfbuzz-dev
  libfreetype-dev libfontconfig-dev libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libpng16-16 libdeflate0
  libturbojpeg0 libwebp7 libharfbuzz0b libfreetype6 libfontconfig1
  fonts-inter libharfbuzz-bin fonts-dejavu-core fonts-lohit-deva)
# With --test (make test): headless Chromium, its driver and Selenium, which drive
# the goldens HTML report in a real browser; Pillow, a second codec stack for the
# JPEG and WebP tests (inputs decoded, outputs written at the quality asked); and
# jsonschema, a second reader of docs/scene.schema.json (test tooling only; in CI
# a test without one of them fails instead of skipping).
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium chromium-driver python3-selenium python3-pil python3-jsonschema python3-pip)
fi

# With --test, after the Debian packages: pixelmatch's Python port from PyPI (no
# Debian package), the oracle of the anti-aliasing mode (AntiAliasingModeTests;
# test tooling only, never used by glass-gpu), into Debian's python3.
ensure_pixelmatch() {
  [ "${1:-}" = "--test" ] || return 0
  /usr/bin/python3 -c 'import pixelmatch' 2>/dev/null && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "Installing pixelmatch 0.4.0 (PyPI) for the tests"
    /usr/bin/python3 -m pip install -q --break-system-packages 'pixelmatch==0.4.0'
  else
    echo "The tests need pixelmatch: sudo /usr/bin/python3 -m pip install --break-system-packages pixelmatch==0.4.0" >&2
    exit 1
  fi
}

if ! command -v swift >/dev/null 2>&1; then
  echo "glass-gpu needs a Swift 6 toolchain on PATH (https://www.swift.org/install/linux/)." >&2
  exit 1
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "Not a Debian-like system: install EGL, GLES 3 and libpng development files and Mesa by hand." >&2
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  ensure_pixelmatch "${1:-}"
  exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  ensure_pixelmatch "${1:-}"
else
  echo "glass-gpu needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
