#!/usr/bin/env bash
# Renders the demo scenes (Assets/scenes) into out/ on the GPU and the CPU,
# compares the two, and tiles the GPU renders into out/contact-sheet.png.
# Run through `make demo`, which builds the release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.build/release/glass-gpu
mkdir -p out

if "$bin" info >out/gpu-info.txt 2>&1; then
  gpu=gpu
  echo "GPU backend: $(grep 'GL renderer' out/gpu-info.txt | sed 's/.*: *//') on the $(grep '^platform' out/gpu-info.txt | sed 's/.*: *//') platform"
else
  gpu=auto
  echo "No EGL display with OpenGL ES 3 here; the 'gpu' renders fall back to the CPU (see out/gpu-info.txt)."
fi

scenes=(landmarks badges capsules material concentric signin hello blend union
  layout-signin layout-badges layout-badge-column layout-custom-views glass-looks)
# Each GPU render is held to the README's parity bar (Accuracy and parity): no
# channel more than 1/255 from the CPU's, so no pixel over 1/255.
status=0
sheet=()
for name in "${scenes[@]}"; do
  for backend in "$gpu" cpu; do
    label=$([ "$backend" = cpu ] && echo cpu || echo gpu)
    timing=$("$bin" render "Assets/scenes/$name.json" -o "out/$name-$label.png" --backend "$backend" --timings 2>&1 >/dev/null | tail -n 1)
    echo "  $name ($label): out/$name-$label.png  $timing"
  done
  echo -n "  $name gpu vs cpu: "
  "$bin" compare "out/$name-gpu.png" "out/$name-cpu.png" --diff "out/$name-diff.png" --max-diff 1 --max-share 0 || status=1
  sheet+=("out/$name-gpu.png")
done
# Apple's layout examples (Examples/AppleExamples): the badge column's second
# state, expanded, beside its first.
for backend in "$gpu" cpu; do
  label=$([ "$backend" = cpu ] && echo cpu || echo gpu)
  "$bin" render Assets/scenes/layout-badge-column.json --state expanded -o "out/layout-badge-column-expanded-$label.png" \
    --backend "$backend"
done
echo -n "  layout-badge-column (expanded) gpu vs cpu: "
"$bin" compare out/layout-badge-column-expanded-gpu.png out/layout-badge-column-expanded-cpu.png \
  --diff out/layout-badge-column-expanded-diff.png --max-diff 1 --max-share 0 || status=1
sheet+=(out/layout-badge-column-expanded-gpu.png)
.build/release/glass-gpu-bench contact-sheet out/contact-sheet.png "${sheet[@]}" --columns 3
echo "  contact sheet: out/contact-sheet.png"

# The pencil and eraser morph: every frame at 60 fps, and a filmstrip of every
# fourth frame.
rm -rf out/morph
"$bin" animate Assets/scenes/morph.json -o out/morph --backend "$gpu" --quiet || status=1
strip=()
for f in out/morph/frame-*.png; do
  n=$(basename "$f" .png)
  n=${n#frame-}
  if (( 10#$n % 4 == 0 )); then strip+=("$f"); fi
done
.build/release/glass-gpu-bench contact-sheet out/morph-filmstrip.png "${strip[@]}" --columns 7 --cell-width 240 --cell-height 120 --gap 4
echo "  morph: $(ls out/morph | wc -l) frames in out/morph, filmstrip out/morph-filmstrip.png"

# Landmarks' badge column (Apple's layout example): the badges grow out of the
# toggle button, every frame at 60 fps, and a filmstrip of every fourth.
rm -rf out/layout-badge-column
"$bin" animate Assets/scenes/layout-badge-column.json -o out/layout-badge-column --backend "$gpu" --quiet || status=1
strip=()
for f in out/layout-badge-column/frame-*.png; do
  n=$(basename "$f" .png)
  n=${n#frame-}
  if (( 10#$n % 4 == 0 )); then strip+=("$f"); fi
done
.build/release/glass-gpu-bench contact-sheet out/layout-badge-column-filmstrip.png "${strip[@]}" --columns 8 \
  --cell-width 100 --cell-height 220 --gap 4
echo "  layout-badge-column: $(ls out/layout-badge-column | wc -l) frames in out/layout-badge-column," \
  "filmstrip out/layout-badge-column-filmstrip.png"
exit $status
