#!/usr/bin/env bash
# The GPU path on a real GPU, from the bundle of scripts/device-bundle.sh, on a
# machine with a GPU's EGL vendor library (NVIDIA's, say) and no Swift: which EGL
# platform and driver `glass-gpu info` picks, `glass-gpu parity` of every demo
# scene, the GPU test suites (those make test-softpipe runs, and GlassCellTests),
# and the benchmarks' GPU rows. Writes what it prints under $OUT (default out/device).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/device}
mkdir -p "$OUT"
tar xJf .gpu/bundle.tar.xz || exit 1
# The fonts go where the tests look for them; the tests find the checkout by its
# build path, /work/main.
mkdir -p /usr/share/fonts && cp -rn .gpu/fonts/. /usr/share/fonts/
[ "$(pwd)" = /work/main ] || { mkdir -p /work && ln -sfn "$(pwd)" /work/main; }
export LD_LIBRARY_PATH=$PWD/.gpu/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib FONTCONFIG_FILE=$PWD/.gpu/fonts.conf
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -e $vendor ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
command -v nvidia-smi > /dev/null && nvidia-smi -L
bin=.build-test/release
$bin/glass-gpu info 2>&1 | tee "$OUT/info.txt"
for scene in Assets/scenes/*.json; do timeout 60 $bin/glass-gpu parity "$scene" 2>&1; done | tee "$OUT/parity.txt"
start=$SECONDS
GLASS_GPU_REQUIRE_GPU=1 timeout 300 $bin/glass-gpuPackageTests.xctest --testing-library swift-testing \
  --filter '(?i)gpu|parity|UnwrittenTexel|PrimitiveConformance|ExtensionAccuracy|EffectTests' > "$OUT/tests.txt" 2>&1
echo "GPU tests: exit $? in $((SECONDS - start)) s"
grep -aE '✘|Test run' "$OUT/tests.txt" | sed 's/\x1b\[[0-9;]*m//g' | tail -40
{
  timeout 90 $bin/glass-gpu-bench extend --backend gpu --no-peers --runs 10
  timeout 90 $bin/glass-gpu-bench scene --runs 10 Assets/scenes/landmarks.json Assets/scenes/signin.json
  timeout 90 $bin/glass-gpu-bench fluid
} 2>&1 | tee "$OUT/bench.txt"
