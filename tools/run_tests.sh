#!/usr/bin/env bash
# The whole test suite: set-up (packages, build), every ctest test, then the
# sanitizer builds (tools/run_sanitizer_tests.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
(cd "$RENJU_BUILD" && ctest --output-on-failure -j "$(nproc)" "$@")
"$RENJU_ROOT/tools/run_sanitizer_tests.sh"
