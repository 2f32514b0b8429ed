#!/bin/sh
# Every C++ file of the source tree is as clang-format (.clang-format at the
# root) would write it. Run by ctest as format_check; to fix a file, run
# `clang-format -i FILE`.
#
#   tools/check_format.sh [ROOT]   # ROOT: the checkout (default: this one)
#
# Build trees (a CMakeCache.txt at their top) and dot-folders hold generated
# or foreign code and are skipped, as tools/check_includes.sh does.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
format=${CLANG_FORMAT:-clang-format}
if ! command -v "$format" >/dev/null 2>&1; then
  echo "check_format: $format not found (tools/setup.sh installs clang-format)" >&2
  exit 1
fi
files=$(mktemp)
trap 'rm -f "$files"' EXIT
for d in */; do
  d=${d%/}
  [ -d "$d" ] && [ ! -L "$d" ] || continue
  [ -f "$d/CMakeCache.txt" ] && continue
  find "$d" \( -type d -name '.*' -prune \) -o -type f \
    \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) -print >>"$files"
done
# --dry-run -Werror prints each difference as file:line: error and fails.
bad=0
while IFS= read -r f; do
  "$format" --dry-run -Werror --style=file "$f" || bad=1
done <"$files"
if [ "$bad" -ne 0 ]; then
  echo "check_format: files above differ from clang-format's output (clang-format -i FILE)" >&2
fi
exit "$bad"
