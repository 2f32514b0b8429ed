#!/bin/sh
# The layout's arrows (README.md, ../shared/DESIGN.md), checked from the
# #include lines: every "room/..." a file includes must be its own room or
# one its room may include. Also: no LibTorch, gRPC or generated protobuf in
# rules/ and search/ (nor in base/), no gRPC or protobuf in nn/; and every
# top-level folder with C++ code (and every tests/ folder with C++ code)
# must be a room of the table below, so that a new folder cannot slip past
# the check.
#
#   tools/check_includes.sh [ROOT]   # ROOT: the checkout (default: this one)
#
# Prints "file:line: ..." for each forbidden include, and "folder/: ..." for
# each folder the table does not know, and exits 1 if any.
# Run by ctest as include_check; tests/tools/check_includes_test.sh shows it
# failing on an upward include and on an unknown folder.
#
# Kept simple: tests/X may include what X may, plus X, tests/X and
# tests/common (what the tests share: temporary folders, certificates, the
# fake trainer); tests/tools, tests/e2e, tests/fuzz, tests/common, bench/
# and tools/ may include anything.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Every room, lowest first (the table's rows below), then the folders that
# may include anything, then those that hold no C++ of their own.
rooms="base rules search nn config rpc gomocup http records selfplay arena inference trainer launcher cli"
anything="tools bench"
# tests/ folders that are no room's mirror.
test_extras="tools e2e fuzz common"

has_cc() {
  [ -n "$(find "$1" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) -print | head -n 1)" ]
}
known_folder() {
  for k in $rooms $anything tests; do [ "$1" = "$k" ] && return 0; done
  return 1
}
unknown=0
# Build trees (a CMakeCache.txt at their top) hold generated code, not rooms;
# dot-folders (.git, .gpu-deps) are no part of the source.
for d in */; do
  d=${d%/}
  [ -d "$d" ] && [ ! -L "$d" ] || continue
  [ -f "$d/CMakeCache.txt" ] && continue
  known_folder "$d" && continue
  if has_cc "$d"; then
    echo "$d/: C++ code in a folder the layout's table does not know (add it to tools/check_includes.sh and README.md's table)"
    unknown=1
  fi
done
if [ -d tests ]; then
  for d in tests/*/; do
    d=${d%/}; t=${d#tests/}
    [ -d "$d" ] || continue
    case " $rooms $test_extras " in *" $t "*) continue ;; esac
    if has_cc "$d"; then
      echo "$d/: C++ tests of no room (tests/ mirrors the rooms: $rooms; and $test_extras)"
      unknown=1
    fi
  done
fi

dirs=""
for d in $rooms $anything tests; do
  [ -d "$d" ] && dirs="$dirs $d"
done
[ -n "$dirs" ] || { echo "check_includes: no source folders under $root" >&2; exit 2; }

find $dirs -type f \( -name '*.h' -o -name '*.cc' \) | sort |
  xargs grep -nH '^[[:space:]]*#[[:space:]]*include' /dev/null |
  awk '
BEGIN {
  # The table of issues 14 and 28 (the layout table of README.md): what each
  # room may include besides itself.
  allow["base"] = ""
  allow["rules"] = "base"
  allow["search"] = "base rules"
  allow["nn"] = "base rules search"
  allow["config"] = "base rules search nn proto"
  allow["rpc"] = "base rules proto"
  allow["gomocup"] = "base rules search nn config proto"
  allow["selfplay"] = "base rules search nn config rpc proto gomocup http records inference"
  allow["arena"] = "base rules search nn config rpc proto gomocup"
  allow["http"] = "base"
  allow["records"] = "base rules rpc proto http"
  allow["inference"] = "base rules search nn config rpc proto http records"
  allow["trainer"] = "base rules search nn config rpc proto gomocup arena http"
  allow["launcher"] = "base rules config rpc proto"
  allow["cli"] = "base"
  split("base rules search nn config rpc gomocup http records selfplay arena inference trainer launcher cli tools proto tests bench", r, " ")
  for (i in r) known[r[i]] = 1
  bad = 0
}
function fail(msg) { print file ":" line ": " msg; bad = 1 }
{
  # file:line:text
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2)
  line = rest; sub(/:.*/, "", line)
  text = substr(rest, length(line) + 2)
  n = split(file, parts, "/")
  room = parts[1]
  if (room == "tests") {
    if (n < 3 || parts[2] == "tools" || parts[2] == "e2e" || parts[2] == "fuzz" ||
        parts[2] == "common") next
    room = parts[2]
    own_tests = "tests/" room "/"
  } else {
    own_tests = ""
  }
  if (room == "tools" || room == "bench") next

  if (match(text, /<[^>]*>/)) {
    header = substr(text, RSTART + 1, RLENGTH - 2)
    torch = header ~ /^(torch|ATen|c10|caffe2)\//
    grpc = header ~ /^grpc/
    if (torch && (room == "base" || room == "rules" || room == "search"))
      fail("<" header ">: no LibTorch in " room "/")
    if (grpc && (room == "base" || room == "rules" || room == "search" || room == "nn"))
      fail("<" header ">: no gRPC in " room "/")
    next
  }
  if (!match(text, /"[^"]*"/)) next
  header = substr(text, RSTART + 1, RLENGTH - 2)
  if (header ~ /\.pb\.h$/ && (room == "base" || room == "rules" || room == "search" || room == "nn")) {
    fail("\"" header "\": no generated protobuf/gRPC code in " room "/")
    next
  }
  target = header; sub(/\/.*/, "", target)
  if (!(target in known) || header !~ /\//) next
  if (target == room) next
  if (own_tests != "" && substr(header, 1, length(own_tests)) == own_tests) next
  if (own_tests != "" && substr(header, 1, 13) == "tests/common/") next
  if ((" " allow[room] " ") ~ (" " target " ")) next
  fail("\"" header "\": " room "/ may not include " target "/ (allowed: " \
       (allow[room] == "" ? "nothing" : allow[room]) ")")
}
END { exit bad }
' || { echo "check_includes: forbidden includes above (the table is in README.md)" >&2; exit 1; }
if [ "$unknown" -ne 0 ]; then
  echo "check_includes: folders above that the table does not know (the table is in README.md)" >&2
  exit 1
fi
