#!/usr/bin/env bash
# The whole test suite: set-up (packages, build) then every ctest test.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$RENJU_BUILD"
ctest --output-on-failure -j "$(nproc)" "$@"
