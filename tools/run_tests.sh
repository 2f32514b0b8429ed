#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. the Debian packages that are missing (tools/setup.sh, packages only);
#   2. every ctest test in an AddressSanitizer + UndefinedBehaviorSanitizer
#      build, and the evaluator, search and server tests in a
#      ThreadSanitizer build (tools/run_sanitizer_tests.sh);
#   3. 5 s of every libFuzzer target from its committed corpus
#      (tools/run_fuzz.sh; the long runs are a separate command, see README),
#      built beside stage 2 at the lowest priority.
#
#   tools/run_tests.sh --release [ctest args]
# instead builds build/ (Release, as the main job uses it) and runs every
# ctest test there: the quick check while developing.
#
#   tools/run_tests.sh --under-load [--release] [ctest args]
# (or RENJU_TESTS_UNDER_LOAD=1) runs the same with one busy process per core
# beside it at the lowest priority (nice 19), as on a shared machine: no test
# may depend on having the cores to itself. RENJU_TESTS_LOAD_NICE=0 makes
# them normal-priority hogs, like a laptop busy with something else.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
start=$SECONDS

release=0
under_load="${RENJU_TESTS_UNDER_LOAD:-0}"
load_nice="${RENJU_TESTS_LOAD_NICE:-19}"
while (($#)); do
  case "$1" in
    --release) release=1 ;;
    --under-load) under_load=1 ;;
    *) break ;;
  esac
  shift
done

# What runs beside the tests, and the stage running now, stopped when this
# script ends, also by a TERM or INT (the traps below turn those into an
# exit). The builds and stages run in process groups of their own (setsid),
# so that whatever they started stops with them.
load_pids=()
fuzz_build=""
source "$ROOT/tools/stages.sh"  # run_stage, stop_stage
stop_background() {
  ((${#load_pids[@]} == 0)) || kill "${load_pids[@]}" 2>/dev/null || true
  [[ -z "$fuzz_build" ]] || kill -- -"$fuzz_build" 2>/dev/null || true
  stop_stage
}
trap stop_background EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

if [[ "$under_load" == 1 ]]; then
  for ((i = 0; i < $(nproc); ++i)); do
    nice -n "$load_nice" bash -c 'while :; do :; done' &
    load_pids+=($!)
  done
  echo "run_tests: under load: ${#load_pids[@]} busy processes at nice $load_nice"
fi

if [[ "$release" == 1 ]]; then
  source "$ROOT/tools/setup.sh"
  run_stage ctest --test-dir "$RENJU_BUILD" --output-on-failure -j "$(nproc)" "$@"
  echo "run_tests: release tests passed in $((SECONDS - start)) s"
  exit 0
fi

RENJU_SETUP_NO_BUILD=1 source "$ROOT/tools/setup.sh"
# The fuzz targets build beside the sanitizer stage at nice 19, in the
# moments its builds and tests leave a core idle (as the TSan build does
# beside the ASan tests, see run_sanitizer_tests.sh); the output goes to
# build-fuzz/build.log.
mkdir -p "$ROOT/build-fuzz"
setsid nice -n 19 "$ROOT/tools/run_fuzz.sh" --build-only \
  >"$ROOT/build-fuzz/build.log" 2>&1 &
fuzz_build=$!
run_stage "$ROOT/tools/run_sanitizer_tests.sh" all "$@"
if ! wait "$fuzz_build"; then
  tail -n 50 "$ROOT/build-fuzz/build.log"
  echo "run_tests: the fuzz build failed (build-fuzz/build.log)" >&2
  exit 1
fi
fuzz_build=""
tail -n 1 "$ROOT/build-fuzz/build.log"
run_stage "$ROOT/tools/run_fuzz.sh" --seconds 5 --seed 1
echo "run_tests: everything passed in $((SECONDS - start)) s"
