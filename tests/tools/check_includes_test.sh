#!/bin/sh
# Shows tools/check_includes.sh failing on an upward include: a tiny fake
# tree with one allowed and one forbidden arrow must fail naming the bad
# file and line, and pass once the bad include is gone. Then on C++ code in
# a folder its table does not know (a room it would not check), top-level
# or under tests/.
#   tests/tools/check_includes_test.sh CHECK_SCRIPT
set -eu
check=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/rules" "$tmp/search" "$tmp/selfplay" "$tmp/trainer" "$tmp/nn"
printf '#include "rules/game.h"\n' > "$tmp/search/ok.h"
printf '#include "search/ok.h"\n#include "rules/game.h"\n' > "$tmp/selfplay/ok.cc"
printf '// fine\n#include "base/logging.h"\n' > "$tmp/rules/game.h"

if ! sh "$check" "$tmp" > "$tmp/out" 2>&1; then
  echo "FAIL: a clean tree was rejected:"; cat "$tmp/out"; exit 1
fi

# Upward arrows: rules/ -> search/, trainer/ -> selfplay/, and nn/ -> gRPC.
printf '#include "rules/game.h"\n#include "search/ok.h"\n' > "$tmp/rules/bad.cc"
printf '#include "selfplay/ok.cc"\n' > "$tmp/trainer/bad.h"
printf '#include <grpcpp/grpcpp.h>\n' > "$tmp/nn/bad.cc"
if sh "$check" "$tmp" > "$tmp/out" 2>&1; then
  echo "FAIL: upward includes were accepted:"; cat "$tmp/out"; exit 1
fi
for expected in 'rules/bad.cc:2: "search/ok.h": rules/ may not include search/' \
                'trainer/bad.h:1: "selfplay/ok.cc": trainer/ may not include selfplay/' \
                'nn/bad.cc:1: <grpcpp/grpcpp.h>: no gRPC in nn/'; do
  if ! grep -qF "$expected" "$tmp/out"; then
    echo "FAIL: expected '$expected' in:"; cat "$tmp/out"; exit 1
  fi
done
echo "check_includes rejects upward includes:"; cat "$tmp/out"

# Unknown folders: C++ in extra/ and tests/extra/; a folder without C++
# (web/, configs/) and a build tree (CMakeCache.txt at its top) are fine.
rm "$tmp/rules/bad.cc" "$tmp/trainer/bad.h" "$tmp/nn/bad.cc"
mkdir -p "$tmp/web" "$tmp/build/gen" "$tmp/extra" "$tmp/tests/extra"
printf '<html></html>\n' > "$tmp/web/index.html"
touch "$tmp/build/CMakeCache.txt"
printf '#include "selfplay/ok.cc"\n' > "$tmp/build/gen/x.cc"
if ! sh "$check" "$tmp" > "$tmp/out" 2>&1; then
  echo "FAIL: a folder without C++ or a build tree was rejected:"; cat "$tmp/out"; exit 1
fi
printf 'int x;\n' > "$tmp/extra/x.cc"
printf 'int y;\n' > "$tmp/tests/extra/y_test.cc"
if sh "$check" "$tmp" > "$tmp/out" 2>&1; then
  echo "FAIL: C++ in unknown folders was accepted:"; cat "$tmp/out"; exit 1
fi
for expected in 'extra/: C++ code in a folder the layout' \
                'tests/extra/: C++ tests of no room'; do
  if ! grep -qF "$expected" "$tmp/out"; then
    echo "FAIL: expected '$expected' in:"; cat "$tmp/out"; exit 1
  fi
done
echo "check_includes rejects unknown folders:"; cat "$tmp/out"
