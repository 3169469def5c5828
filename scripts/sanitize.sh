#!/usr/bin/env bash
# `make sanitize`: builds everything (the CLI too: the end-to-end tests run it)
# with AddressSanitizer on the Swift and C code and UBSan on the C code, in the
# instrumented build it shares with `make fuzz` (scripts/instrumented-build.sh,
# .build-asan), then runs every test suite under it. GPU
# suites run on Mesa llvmpipe, as in `make test`. Like `make test`, it is an
# optimised build (-c release, -enable-testing for the tests' @testable
# imports): ASan checks the code as it ships, where the optimiser shortens
# lifetimes (a test that read a value after its last use failed only there).
# The sources hold no debug-only code (no assert, no #if DEBUG), and a debug
# build ran these suites 17 times slower under ASan (405 s against 24 s).
#
# What is and is not checked, and why:
# - ASan: every out-of-bounds access, use after free and double free in our code
#   (Swift and C) stops the process with a report. Mesa, LLVM and libpng are not
#   instrumented, but ASan's allocator still catches our misuse of their memory.
# - UBSan (C code: cpng.c, cegl.c, the output guard): the first report stops the
#   process (-fno-sanitize-recover), with a stack.
# - Leaks are not checked here (detect_leaks=0). At exit LeakSanitizer reports
#   objects that are alive but that it cannot see: Swift stores class references
#   in enums with tag bits in the pointer, and Mesa's driver is unloaded before
#   the check, so its allocations have no stack. Every CLI process the end-to-end
#   tests start would fail on such reports. Leaks are checked where it means
#   something: the fuzzers (make fuzz) check after every input that what the input
#   allocated was freed, which covers the C decoders and their error paths.
# - ASan does not take SIGSEGV, SIGBUS or SIGFPE (handle_segv=0 ...): the output
#   guard's tests send those signals on purpose and check that glass-gpu removes
#   its temporary file and dies by the signal, which ASan's handler would replace
#   with a report and exit status 1.
# - The Swift crash handler is off (SWIFT_BACKTRACE=enable=no): ASan trips inside it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/instrumented-build.sh
read -r -a flags <<< "$(scripts/instrumented-build.sh --flags)"
export GLASS_FUZZ_TARGETS=1

swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
export ASAN_SYMBOLIZER_PATH="$swift_bin/llvm-symbolizer"
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The determinism test renders every demo scene 5 times (make test); here twice,
# with 1 and 2 worker threads, which still compares their bytes: the repeats find
# no memory error the first two runs do not.
export GLASS_GPU_DEMO_RUNS=${GLASS_GPU_DEMO_RUNS:-2}
echo "sanitize: running the tests under ASan and UBSan (ASAN_OPTIONS=$ASAN_OPTIONS, GLASS_GPU_DEMO_RUNS=$GLASS_GPU_DEMO_RUNS)"
swift test --skip-build "${flags[@]}"
