#!/usr/bin/env bash
# The inference server's soak test (issue 8; not part of CI: it takes ten
# minutes). Starts the real `renju serve --trainer ...` process and drives it
# with bench/serve_soak.cc: 32 concurrent Suggest clients for 10 minutes
# while a stand-in trainer publishes a new best model every minute, so the
# server hot-swaps nine times under load. Prints one line per minute and a
# summary; exits non-zero if any request failed other than by deadline, a
# published generation was never answered, or the server's RSS grew by more
# than 64 MiB from the end of the first minute to the end.
#
# Builds nothing: build first (tools/setup.sh, or
#   cmake --build build --target renju serve_soak).
#
# Usage: tools/soak_test.sh [BUILD_DIR] [serve_soak options]
#   BUILD_DIR defaults to build/. Options pass through, e.g. a short run:
#   tools/soak_test.sh build --seconds 120 --swap-seconds 20
#   (see `build/serve_soak --help`: --clients, --visits, --deadline-ms,
#   --seconds, --swap-seconds, --report-seconds, --max-rss-growth-mib,
#   --work-dir, which keeps the models and the server's log, serve.log).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then
  BUILD="$1"
  shift
fi
for binary in renju serve_soak; do
  if [ ! -x "$BUILD/$binary" ]; then
    echo "soak_test: no $BUILD/$binary; build it first:" \
      "cmake --build $BUILD --target renju serve_soak" >&2
    exit 1
  fi
done
BUILD="$(cd "$BUILD" && pwd)"
# The default --config and --model paths are relative to the repository.
cd "$ROOT"
exec "$BUILD/serve_soak" --renju "$BUILD/renju" "$@"
