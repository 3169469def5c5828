#!/usr/bin/env bash
# The one instrumented build that `make sanitize` (scripts/sanitize.sh) and `make
# fuzz` (Fuzz/fuzz.sh) share, in .build-asan: everything but the benchmarks (the library, the CLI,
# the test suites and the libFuzzer targets of Fuzz/Sources, which Package.swift
# adds when GLASS_FUZZ_TARGETS=1), optimised (-c release, -enable-testing for the
# suites' @testable imports), with
# - AddressSanitizer on the Swift and C code;
# - UBSan on the C code (cpng.c, cegl.c, the output guard), the first report
#   stopping the process (-fno-sanitize-recover);
# - libFuzzer's coverage (edges, comparisons, 8-bit counters and their PC table,
#   what -sanitize=fuzzer gives) on every module, so the fuzz targets see the
#   library's branches; only the fuzz targets are linked with libFuzzer, and the
#   suites' runner, which has its own `main`, gets the sanitizer runtime's
#   coverage callbacks, which do nothing.
# One build instead of two saves CI a whole optimised build of the library
# (about five minutes of the 2-core machine).
#
#   scripts/instrumented-build.sh               (build; the log in .build-asan/build.log)
#   scripts/instrumented-build.sh --fuzz-targets (the libFuzzer targets and what they
#                                                 use only: no suites, no CLI; make fuzz)
#   scripts/instrumented-build.sh --flags       (print the flags, for `swift test` and the runs)
#
# The fuzz targets alone leave out the test module, whose compile is the second
# longest step of the build (about 3 minutes of one core on the 2-core machine,
# after the library's 4): CI fuzzes but does not run the suites under ASan
# (.ci/run says why).
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${SANITIZE_SCRATCH:-.build-asan}
export GLASS_FUZZ_TARGETS=1
# lld: gold warns about every ASan helper symbol it cannot export, and fails on
# the libFuzzer links.
flags=(--scratch-path "$SCRATCH" -c release -Xswiftc -enable-testing --sanitize address -Xswiftc -use-ld=lld
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
  -Xcc -fsanitize=fuzzer-no-link -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
if [ "${1:-}" = --flags ]; then
  echo "${flags[@]}"
  exit 0
fi

scripts/ensure-deps.sh
echo "instrumented build: ASan (Swift and C), UBSan (C), libFuzzer's coverage, in $SCRATCH"
mkdir -p "$SCRATCH"
build() {
  if [ "${1:-}" = --fuzz-targets ]; then
    for target in fuzz-png fuzz-encode fuzz-json fuzz-manifest fuzz-scene; do
      swift build --product "$target" "${flags[@]}" || return 1
    done
  else
    swift build --build-tests "${flags[@]}"
  fi
}
for attempt in 1 2 3; do
  # Others may be editing the sources: a file changed during the build is retried.
  if build "${1:-}" > "$SCRATCH/build.log" 2>&1; then exit 0; fi
  if [ "$attempt" = 3 ] || ! grep -q "was modified during the build" "$SCRATCH/build.log"; then
    cat "$SCRATCH/build.log" >&2
    echo "instrumented build: the build failed" >&2
    exit 1
  fi
  sleep 5
done
