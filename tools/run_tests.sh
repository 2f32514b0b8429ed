#!/usr/bin/env bash
# The whole test suite: set-up (packages, build), every ctest test, the
# sanitizer builds (tools/run_sanitizer_tests.sh), and a short run of every
# libFuzzer target from its committed corpus (tools/run_fuzz.sh; the long
# runs are a separate command, see README).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
(cd "$RENJU_BUILD" && ctest --output-on-failure -j "$(nproc)" "$@")
"$RENJU_ROOT/tools/run_sanitizer_tests.sh"
"$RENJU_ROOT/tools/run_fuzz.sh" --seconds 5 --seed 1
