#!/bin/sh
# tools/check_format.sh passes on a formatted tree and fails, naming the file,
# on one that clang-format would change.
#
#   tests/tools/check_format_test.sh PATH/TO/check_format.sh PATH/TO/.clang-format
set -eu
check=$1
style=$2
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/rules"
cp "$style" "$tree/.clang-format"
printf 'int Five() { return 5; }\n' >"$tree/rules/five.cc"
sh "$check" "$tree" >/dev/null 2>&1 || { echo "FAIL: formatted tree refused"; exit 1; }
printf 'int   Six( ) {return 6;}\n' >"$tree/rules/six.cc"
if out=$(sh "$check" "$tree" 2>&1); then
  echo "FAIL: misformatted rules/six.cc passed"; exit 1
fi
case "$out" in
  *rules/six.cc*) ;;
  *) echo "FAIL: the output does not name rules/six.cc: $out"; exit 1 ;;
esac
echo "ok"
