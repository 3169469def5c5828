#!/usr/bin/env bash
# Renders the demo scenes into out/ with both backends and compares them.
# Run through `make demo`, which builds the release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.build/release/glass-gpu
photo=Assets/landscape.png
mkdir -p out

if "$bin" info >out/gpu-info.txt 2>&1; then
  gpu=gpu
  echo "GPU backend: $(grep 'GL renderer' out/gpu-info.txt | sed 's/.*: *//') on the $(grep '^platform' out/gpu-info.txt | sed 's/.*: *//') platform"
else
  gpu=auto
  echo "No EGL display with OpenGL ES 3 here; the 'gpu' renders fall back to the CPU (see out/gpu-info.txt)."
fi

# name | options
scenes=(
  "sidebar-inspector|--leading 320 --trailing 240 --sigma 24"
  "all-edges-sharp|--leading 160 --trailing 160 --top 120 --bottom 120 --sigma 0"
  "wide-soft|--leading 640 --trailing 96 --top 48 --sigma 64"
)

status=0
for scene in "${scenes[@]}"; do
  name=${scene%%|*}
  read -r -a options <<<"${scene#*|}"
  for backend in "$gpu" cpu; do
    label=$([ "$backend" = cpu ] && echo cpu || echo gpu)
    timing=$("$bin" extend "$photo" -o "out/$name-$label.png" --backend "$backend" --timings "${options[@]}" 2>&1 >/dev/null | tail -n 1)
    echo "  $name ($label): out/$name-$label.png  $timing"
  done
  echo -n "  $name gpu vs cpu: "
  "$bin" compare "out/$name-gpu.png" "out/$name-cpu.png" --diff "out/$name-diff.png" --max-diff 2 --max-share 0.1 || status=1
done
exit $status
