#!/usr/bin/env bash
# Sanitizer builds of the suites that need no LibTorch (Debian's LibTorch and
# Abseil are not built with sanitizers, so only code that stays clear of
# them gives clean reports): AddressSanitizer + UndefinedBehaviorSanitizer
# on the rules, search and LibTorch-free inference tests, ThreadSanitizer on
# the search tests (multi-threaded search with virtual loss). Run by
# tools/run_tests.sh after the main suite; needs the packages setup.sh installs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"

run_sanitized() {  # <build dir> <sanitizers> <targets...>
  local dir="$1" sanitize="$2"
  shift 2
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRENJU_SANITIZE="$sanitize" -DRENJU_BUILD_BENCH=OFF >/dev/null
  cmake --build "$dir" -j "$jobs" --target "$@"
  local pattern
  pattern="$(IFS='|'; echo "$*")"
  (cd "$dir" && ctest --output-on-failure -R "^(${pattern})$")
}

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
run_sanitized "$ROOT/build-asan" address,undefined \
  rules_test search_test inference_core_test
run_sanitized "$ROOT/build-tsan" thread search_test
