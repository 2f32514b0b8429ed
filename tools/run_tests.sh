#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. the Debian packages that are missing (tools/setup.sh, packages only);
#   2. every ctest test in an AddressSanitizer + UndefinedBehaviorSanitizer
#      build, and the evaluator, search and server tests in a
#      ThreadSanitizer build (tools/run_sanitizer_tests.sh);
#   3. 5 s of every libFuzzer target from its committed corpus
#      (tools/run_fuzz.sh; the long runs are a separate command, see README).
#
#   tools/run_tests.sh --release [ctest args]
# instead builds build/ (Release, as the main job uses it) and runs every
# ctest test there: the quick check while developing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
start=$SECONDS

if [[ "${1:-}" == --release ]]; then
  shift
  source "$ROOT/tools/setup.sh"
  (cd "$RENJU_BUILD" && ctest --output-on-failure -j "$(nproc)" "$@")
  exit 0
fi

RENJU_SETUP_NO_BUILD=1 source "$ROOT/tools/setup.sh"
"$ROOT/tools/run_sanitizer_tests.sh" all "$@"
"$ROOT/tools/run_fuzz.sh" --seconds 5 --seed 1
echo "run_tests: everything passed in $((SECONDS - start)) s"
