#!/usr/bin/env bash
# Packs what scripts/device-check.sh needs onto a machine with a GPU but no Swift:
# the optimised glass-gpu, glass-gpu-bench and test bundle (make test's build),
# the shared libraries they load (Swift's runtime, libpng, HarfBuzz, FreeType,
# glvnd's libEGL/libGLESv2; not glibc's), and the fonts, into .gpu/bundle.tar.xz
# (about 43 MB). The GPU's own EGL vendor library comes from that machine.
#
#   make test && scripts/device-bundle.sh     (then copy the checkout, .gpu included)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build-test/release
for f in glass-gpu glass-gpu-bench glass-gpuPackageTests.xctest; do
  [ -x "$bin/$f" ] || { echo "device-bundle: $bin/$f is missing; run make test first" >&2; exit 1; }
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$bin" "$stage/.gpu/lib" "$stage/.gpu/fonts" .gpu
cp "$bin/glass-gpu" "$bin/glass-gpu-bench" "$bin/glass-gpuPackageTests.xctest" "$stage/$bin/"
strip "$stage/$bin"/*
# Every library the three load, except the C library's own (they must match the system's).
for f in "$bin/glass-gpu" "$bin/glass-gpu-bench" "$bin/glass-gpuPackageTests.xctest"; do ldd "$f"; done \
  | awk '{print $3}' | grep / | sort -u \
  | grep -v -E '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux-x86-64|libpthread|libdl|librt|libutil|libresolv)\.so' \
  | xargs -I{} cp -L {} "$stage/.gpu/lib/"
cp -r /usr/share/fonts/. "$stage/.gpu/fonts/"
cat > "$stage/.gpu/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts</dir>
  <cachedir>/tmp/fontconfig-cache</cachedir>
</fontconfig>
CONF
tar -C "$stage" -cf - .build-test .gpu | xz -T0 -6 > .gpu/bundle.tar.xz
echo "device-bundle: .gpu/bundle.tar.xz, $(du -h .gpu/bundle.tar.xz | cut -f1)"
