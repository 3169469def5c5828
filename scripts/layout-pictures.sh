#!/usr/bin/env bash
# Renders the pictures of docs/layout.md (the layout rules, from the small scenes
# in docs/layout/) and the README's pictures of Apple's layout examples
# (Assets/scenes/layout-*.json) into docs/images, on the CPU backend.
# Run through `make layout-pictures`, which builds the release binaries first
# (BIN overrides their folder).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${BIN:-.build/release}
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
render() { "$bin/glass-gpu" render "$@" --backend cpu --compression 12; }
sheet() { "$bin/glass-gpu-bench" contact-sheet "$@"; }

# The rules: stack distribution, alignment, padding order, safe areas.
for name in stacks alignment padding; do
  render "docs/layout/$name.json" -o "$out/layout-$name.png"
done
render docs/layout/safe-area.json -o "$tmp/safe.png"
render docs/layout/ignores-safe-area.json -o "$tmp/ignores.png"
sheet "$out/layout-safe-area.png" "$tmp/safe.png" "$tmp/ignores.png" --columns 2 --cell-width 400 --cell-height 640 --gap 8

# Apple's four examples at 1x; the badge column as an animated PNG, there and back.
render Assets/scenes/layout-signin.json -o "$out/layout-signin.png" --scale 1
render Assets/scenes/layout-badges.json -o "$out/layout-badges.png" --scale 1
render Assets/scenes/layout-custom-views.json -o "$out/layout-custom-views.png" --scale 1
"$bin/glass-gpu" animate Assets/scenes/layout-badge-column.json --format apng --scale 1 --fps 20 --round-trip \
  --hold 0.6 --compression 12 --backend cpu --quiet -o "$out/layout-badge-column.png"
echo "layout pictures: $(ls "$out"/layout-*.png | tr '\n' ' ')"
