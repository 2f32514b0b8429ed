#!/usr/bin/env bash
# The sanitizer builds CI runs (tools/run_tests.sh), with clang:
#   asan  every ctest test in an AddressSanitizer + UndefinedBehaviorSanitizer
#         (+ LeakSanitizer) build of the whole tree, build-asan/
#   tsan  a ThreadSanitizer build of the `renju` binary and the search,
#         evaluator and server tests (search_test, nn_test, inference_test
#         (the server in-process), serve_test, which starts `renju serve`
#         processes), build-tsan/
#
#   tools/run_sanitizer_tests.sh              # both
#   tools/run_sanitizer_tests.sh tsan         # one of them
#   tools/run_sanitizer_tests.sh asan -R rules_test   # extra ctest arguments
#
# clang rather than gcc: on the LibTorch and gRPC translation units it
# compiles sanitized code about 1.7x faster, which is what keeps CI under its
# time limit. Debian's LibTorch, gRPC, Protobuf and Abseil are not
# instrumented; tests/tsan.supp says how TSan is told so. Needs the packages
# tools/setup.sh installs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CXX_COMPILER="${RENJU_SANITIZE_CXX:-clang++}"
jobs="$(nproc)"

stage="all"
if (($#)) && [[ "$1" == asan || "$1" == tsan || "$1" == all ]]; then
  stage="$1"
  shift
fi

elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# <build dir> <sanitizers> <ctest regex> <targets...>
build_and_test() {
  local dir="$1" sanitize="$2" tests="$3"
  shift 3
  local start=$SECONDS
  # -O1 keeps the sanitized search and network fast enough for the suite's
  # time bounds; -g1 gives reports file:line without full debug info's
  # compile cost. Test bodies are -O0 (tests/CMakeLists.txt). lld links a
  # sanitized LibTorch binary in a sixth of the CPU time GNU ld takes.
  cmake -S "$ROOT" -B "$dir" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
    -DRENJU_SANITIZE="$sanitize" -DRENJU_BUILD_BENCH=OFF >/dev/null
  cmake --build "$dir" -j "$jobs" ${@:+--target "$@"}
  echo "sanitizers: $sanitize build took $(elapsed $((SECONDS - start)))"
  start=$SECONDS
  (cd "$dir" && ctest --output-on-failure -j "$jobs" ${tests:+-R "$tests"} \
    "${ctest_args[@]}")
  echo "sanitizers: $sanitize tests took $(elapsed $((SECONDS - start)))"
}

ctest_args=("$@")
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$ROOT/tests/tsan.supp"

if [[ "$stage" == all || "$stage" == asan ]]; then
  build_and_test "$ROOT/build-asan" address,undefined ""
fi
if [[ "$stage" == all || "$stage" == tsan ]]; then
  build_and_test "$ROOT/build-tsan" thread \
    "^(search_test|nn_test|inference_test|serve_test)(\.[0-9]+)?$" \
    renju search_test nn_test inference_test serve_test
fi
