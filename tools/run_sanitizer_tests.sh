#!/usr/bin/env bash
# The sanitizer builds CI runs (tools/run_tests.sh), with clang:
#   asan  every ctest test in an AddressSanitizer + UndefinedBehaviorSanitizer
#         (+ LeakSanitizer) build of the whole tree, build-asan/
#   tsan  a ThreadSanitizer build of the search, evaluator and server
#         tests (search_test, nn_test, inference_test: the server
#         in-process, RunInferenceServer included, so all of `renju serve`
#         but its command line), build-tsan/. Not the `renju` binary: the
#         real-process tests run in the ASan tree, and building every
#         library again under TSan for them cost about a tenth of CI's CPU.
#
#   tools/run_sanitizer_tests.sh              # both (the TSan build runs
#                                             # beside the ASan tests)
#   tools/run_sanitizer_tests.sh tsan         # one of them
#   tools/run_sanitizer_tests.sh tsan-build   # only the TSan build
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
if (($#)) && [[ "$1" =~ ^(asan|tsan|tsan-build|all)$ ]]; then
  stage="$1"
  shift
fi

elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# The TSan build beside the ASan tests, and the stage running now, stopped
# when this script ends, also by a TERM or INT (the traps turn those into
# an exit). Both run in process groups of their own (setsid), so that
# whatever they started (compilers, test processes) stops with them.
tsan_build=""
source "$ROOT/tools/stages.sh"  # run_stage, stop_stage
stop_background() {
  [[ -z "$tsan_build" ]] || kill -- -"$tsan_build" 2>/dev/null || true
  stop_stage
}
trap stop_background EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# configure <build dir> <sanitizers>
configure() {
  # -O1 keeps the sanitized search and network fast enough for the suite's
  # time bounds; -g1 gives reports file:line without full debug info's
  # compile cost. Test bodies are -O0 (tests/CMakeLists.txt), and so is the
  # code the tests run cold (CMakeLists.txt). lld links a
  # sanitized LibTorch binary in a sixth of the CPU time GNU ld takes.
  cmake -S "$ROOT" -B "$1" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
    -DRENJU_SANITIZE="$2" -DRENJU_BUILD_BENCH=OFF >/dev/null
}

# build <build dir> <sanitizers> [targets...]
build() {
  local dir="$1" sanitize="$2" start=$SECONDS
  shift 2
  configure "$dir" "$sanitize"
  run_stage cmake --build "$dir" -j "$jobs" ${@:+--target "$@"}
  echo "sanitizers: $sanitize build took $(elapsed $((SECONDS - start)))"
}

# run_tests <build dir> <sanitizers> <ctest regex>
run_tests() {
  local dir="$1" sanitize="$2" tests="$3" start=$SECONDS
  run_stage ctest --test-dir "$dir" --output-on-failure -j "$jobs" \
    ${tests:+-R "$tests"} "${ctest_args[@]}"
  echo "sanitizers: $sanitize tests took $(elapsed $((SECONDS - start)))"
}

ctest_args=("$@")
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$ROOT/tests/tsan.supp"

asan_dir="$ROOT/build-asan"
tsan_dir="$ROOT/build-tsan"
tsan_tests="^(search_test|nn_test|inference_test)$"
tsan_targets=(search_test nn_test inference_test)

case "$stage" in
  asan)
    build "$asan_dir" address,undefined
    run_tests "$asan_dir" address,undefined ""
    ;;
  tsan)
    build "$tsan_dir" thread "${tsan_targets[@]}"
    run_tests "$tsan_dir" thread "$tsan_tests"
    ;;
  tsan-build)
    build "$tsan_dir" thread "${tsan_targets[@]}"
    ;;
  all)
    build "$asan_dir" address,undefined
    # The ASan tests leave a core idle whenever they wait on a process, a
    # deadline or a poll; the TSan build fills those gaps at the lowest
    # priority (nice 19, as tools/run_tests.sh --under-load does), so the
    # tests keep the cores whenever they want them. Its output goes to
    # build-tsan/build.log, shown if it fails.
    mkdir -p "$tsan_dir"
    setsid nice -n 19 "${BASH_SOURCE[0]}" tsan-build >"$tsan_dir/build.log" 2>&1 &
    tsan_build=$!
    # A failing ASan test ends the script, and the EXIT trap the build.
    run_tests "$asan_dir" address,undefined ""
    start=$SECONDS
    if ! wait "$tsan_build"; then
      tail -n 50 "$tsan_dir/build.log"
      echo "sanitizers: the thread build failed ($tsan_dir/build.log)" >&2
      exit 1
    fi
    tsan_build=""
    tail -n 1 "$tsan_dir/build.log"
    echo "sanitizers: waited $(elapsed $((SECONDS - start))) for it after" \
         "the address,undefined tests"
    run_tests "$tsan_dir" thread "$tsan_tests"
    ;;
esac
