#!/bin/sh
# ctest's browser_test: the board page in Debian's headless Chromium against
# a real `renju serve --http` (browser_test.js). Skipped (exit 77, ctest's
# SKIP_RETURN_CODE) when chromium, node or npm is missing, or when npm
# cannot install puppeteer-core (no network); installs it from npm into
# BUILD/web_test once.
#
#   tests/web/browser_test.sh BUILD_DIR
#
# The screenshots go to BUILD_DIR/web_test/output/board.png and run.png.
set -eu
build=$1
here=$(cd "$(dirname "$0")" && pwd)
# puppeteer-core 24.10 is the newest that runs on Debian 12's Node 18.
puppeteer=puppeteer-core@24.10.0

chromium=$(command -v chromium || true)
for tool in chromium node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "browser_test: SKIPPED: $tool is not installed" \
         "(tools/setup.sh installs chromium, nodejs and npm)"
    exit 77
  fi
done

dir=$build/web_test
mkdir -p "$dir/output"
if [ ! -f "$dir/node_modules/puppeteer-core/package.json" ]; then
  echo "browser_test: installing $puppeteer into $dir"
  # Bounded, so that no network ends in a skip well inside ctest's timeout.
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
    --fetch-retries=1 --fetch-timeout=30000 \
    "$puppeteer" || {
    # No network (or no registry) is a missing tool like the others.
    echo "browser_test: SKIPPED: npm could not install $puppeteer" \
         "(no network?); install it by hand with:" \
         "npm install --prefix $dir $puppeteer"
    exit 77
  }
fi
rm -f "$dir/output/board.png" "$dir/output/run.png"
NODE_PATH=$dir/node_modules exec node "$here/browser_test.js" \
  "$build/renju" "$chromium" "$here/run_folder" "$dir/output"
