#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Sources) with AddressSanitizer, UBSan on the C
# code and libFuzzer's coverage, in the instrumented build `make sanitize` shares
# (scripts/instrumented-build.sh, .build-asan), replays every committed crash input
# (Fuzz/regressions/TARGET/*), then fuzzes each target for FUZZ_SECONDS and
# prints, per target: executions, executions per second, corpus size, and what
# was found (a crash, a leak, a timeout, an input slower than 10 s, running out
# of memory, a disagreement between decoders), with the input's path and the command that reproduces it.
# Exits 1 if anything was found.
#
#   Fuzz/fuzz.sh [TARGET...]          (default: every target)
#   FUZZ_SECONDS=1800 Fuzz/fuzz.sh    (per target; default 60)
#   FUZZ_SECONDS=0 Fuzz/fuzz.sh       (build and replay only)
#   FUZZ_JOBS=1 Fuzz/fuzz.sh          (one target at a time; default one per core)
#
# The working corpus grows in out/fuzz/TARGET/corpus (kept between runs); the
# seeds are Fuzz/corpus/TARGET; crash inputs land in out/fuzz/TARGET/crashes.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
SCRATCH=${SANITIZE_SCRATCH:-.build-asan}
OUT=${FUZZ_OUT:-out/fuzz}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-png fuzz-encode fuzz-json fuzz-manifest fuzz-scene)

# The Swift toolchain ships libFuzzer and the sanitizer runtimes (no Debian
# package is needed), and llvm-symbolizer for the reports.
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
export ASAN_SYMBOLIZER_PATH="$swift_bin/llvm-symbolizer"
# ASan trips inside Swift's own crash handler: libFuzzer and ASan report instead.
export SWIFT_BACKTRACE=enable=no
# UBSan in the C code stops at the first report, with a stack.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
# One-time allocations of system libraries that are not ours (Fuzz/lsan.supp says which).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0}

echo "fuzz: building ${targets[*]} in the instrumented build ($SCRATCH)"
scripts/instrumented-build.sh --fuzz-targets
bin="$SCRATCH/release"

status=0
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: > "$summary"

# What a libFuzzer log says was found, or nothing.
finding() {
  local log=$1
  if grep -q "disagreement" "$log"; then echo "disagreement"
  elif grep -q "ERROR: LeakSanitizer" "$log"; then echo "leak"
  elif grep -q "ERROR: libFuzzer: timeout" "$log"; then echo "timeout"
  elif grep -q "ERROR: libFuzzer: out-of-memory\|ERROR: libFuzzer: malloc" "$log"; then echo "out of memory"
  elif grep -q "ERROR: AddressSanitizer" "$log"; then echo "memory error (ASan)"
  elif grep -q "runtime error:" "$log"; then echo "undefined behaviour (UBSan)"
  elif grep -q "Fatal error\|ERROR: libFuzzer: deadly signal" "$log"; then echo "crash"
  elif grep -q "Test unit written to .*slow-unit-" "$log"; then
    # libFuzzer keeps going after an input slower than -report_slow_units.
    echo "slow input ($(grep -o "Slowest unit: [0-9]* s" "$log" | tail -1 | sed 's/Slowest unit: //'))"
  fi
}

# One target: replay its committed inputs, then fuzz it. Runs in the background
# beside the others, so what it says goes to $dir/summary.txt and $dir/report.txt,
# printed in order once every target is done; it returns 1 on any finding.
fuzz_one() {
  local target=$1 status=0
  name=${target#fuzz-}
  dir="$OUT/$target"
  mkdir -p "$dir/corpus" "$dir/crashes"
  dict=()
  [ -f "Fuzz/dict/$name.dict" ] && dict=(-dict="Fuzz/dict/$name.dict")
  flags=(-timeout=30 -report_slow_units=10 -rss_limit_mb=3072 -artifact_prefix="$dir/crashes/" -print_final_stats=1 "${dict[@]}")

  # Every committed crash input must now pass.
  regressions=(Fuzz/regressions/"$name"/*)
  if [ -e "${regressions[0]}" ]; then
    replayed=0
    "$bin/$target" "${flags[@]}" "${regressions[@]}" > "$dir/replay.log" 2>&1 || replayed=$?
    # A committed slow input must now be fast too (libFuzzer prints each input's time).
    slow=$(grep -o "Executed .* in [0-9]* ms" "$dir/replay.log" | awk '$NF == "ms" && $(NF-1) > 10000' | head -1 || true)
    if [ "$replayed" = 0 ] && [ -z "$slow" ]; then
      echo "$target: replayed ${#regressions[@]} committed crash inputs: all pass" >> "$dir/summary.txt"
    elif [ "$replayed" = 0 ]; then
      echo "$target: a committed slow input is slow again: $slow" >> "$dir/summary.txt"
      status=1
    else
      failed=$(grep -o "Running: .*" "$dir/replay.log" | tail -1 | sed 's/Running: //' || true)
      echo "$target: a committed crash input fails again: $failed ($(finding "$dir/replay.log"))" >> "$dir/summary.txt"
      grep -v "^INFO\|^Running\|^Executed" "$dir/replay.log" | head -40
      echo "  reproduce: SWIFT_BACKTRACE=enable=no $bin/$target $failed" >> "$dir/summary.txt"
      status=1
    fi
  fi

  [ "$FUZZ_SECONDS" -gt 0 ] || return $status
  echo "fuzz: $target for $FUZZ_SECONDS s (log: $dir/fuzz.log)"
  before=$(find "$dir/crashes" -type f | wc -l)
  set +e
  "$bin/$target" "${flags[@]}" -max_total_time="$FUZZ_SECONDS" "$dir/corpus" "Fuzz/corpus/$name" \
    > "$dir/fuzz.log" 2>&1
  code=$?
  set -e
  runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$dir/fuzz.log" | grep -o "[0-9]*$" || true)
  rate=$(grep -o "stat::average_exec_per_sec: *[0-9]*" "$dir/fuzz.log" | grep -o "[0-9]*$" || true)
  if [ -z "$runs" ]; then
    # A crash ends the run before the final stats: take the last status line.
    runs=$(grep -o "^#[0-9]*" "$dir/fuzz.log" | tail -1 | tr -d '#' || true)
    rate=$(grep -o "exec/s: [0-9]*" "$dir/fuzz.log" | tail -1 | grep -o "[0-9]*" || true)
  fi
  # libFuzzer's corpus (seeds and what it added); what it added is saved in $dir/corpus.
  corpus=$(grep -o "corp: [0-9]*/[0-9]*[a-zA-Z]*" "$dir/fuzz.log" | tail -1 | sed 's/corp: //' || true)
  corpus=${corpus:-?/?}
  found=$(finding "$dir/fuzz.log")
  line="$target: ${runs:-0} executions, ${rate:-0} exec/s, corpus ${corpus%%/*} inputs (${corpus#*/})"
  if [ "$code" = 0 ] && [ -z "$found" ]; then
    echo "$line, no crash, leak or disagreement" >> "$dir/summary.txt"
  else
    input=$(grep -o "Test unit written to .*" "$dir/fuzz.log" | tail -1 | sed 's/Test unit written to //')
    echo "$line, FOUND: ${found:-exit status $code}" >> "$dir/summary.txt"
    grep -v "^#\|^INFO\|^\"\|^###\|NEW_FUNC\|^MS: \|^Base64\|^0x" "$dir/fuzz.log" | head -60
    echo "  input: ${input:-see $dir/fuzz.log}" >> "$dir/summary.txt"
    echo "  reproduce: SWIFT_BACKTRACE=enable=no $bin/$target ${input:-INPUT}" >> "$dir/summary.txt"
    echo "  once fixed, commit the input as Fuzz/regressions/$name/NAME so that make fuzz replays it" >> "$dir/summary.txt"
    status=1
  fi
  after=$(find "$dir/crashes" -type f | wc -l)
  [ "$after" -le "$before" ] || [ -n "$found" ] || status=1
  return $status
}

# libFuzzer runs one process per target, on one core: the targets run FUZZ_JOBS at
# a time (default: one per core), each for FUZZ_SECONDS.
parallel=${FUZZ_JOBS:-$(nproc)}
for target in "${targets[@]}"; do
  dir="$OUT/$target"
  mkdir -p "$dir"
  : > "$dir/summary.txt"
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  rm -f "$dir/status"
  (if fuzz_one "$target" > "$dir/report.txt" 2>&1; then echo 0; else echo 1; fi > "$dir/status") &
done
wait
for target in "${targets[@]}"; do
  dir="$OUT/$target"
  [ "$(cat "$dir/status" 2>/dev/null)" = 0 ] || status=1
  cat "$dir/report.txt"
  cat "$dir/summary.txt" >> "$summary"
done

echo "fuzz: summary ($summary)"
cat "$summary"
exit $status
