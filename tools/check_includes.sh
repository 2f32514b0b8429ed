#!/bin/sh
# The layout's arrows (README.md, ../shared/DESIGN.md), checked from the
# #include lines: every "room/..." a file includes must be its own room or
# one its room may include. Also: no LibTorch, gRPC or generated protobuf in
# rules/ and search/ (nor in base/), no gRPC or protobuf in nn/.
#
#   tools/check_includes.sh [ROOT]   # ROOT: the checkout (default: this one)
#
# Prints "file:line: ..." for each forbidden include and exits 1 if any.
# Run by ctest as include_check; tests/tools/check_includes_test.sh shows it
# failing on an upward include.
#
# Kept simple: tests/X may include what X may, plus X and tests/X;
# tests/tools, tests/e2e, tests/fuzz, bench/ and tools/ may include anything.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

rooms="base rules search nn config rpc gomocup selfplay arena inference trainer tools"
dirs=""
for d in $rooms bench tests; do
  [ -d "$d" ] && dirs="$dirs $d"
done
[ -n "$dirs" ] || { echo "check_includes: no source folders under $root" >&2; exit 2; }

find $dirs -type f \( -name '*.h' -o -name '*.cc' \) | sort |
  xargs grep -nH '^[[:space:]]*#[[:space:]]*include' /dev/null |
  awk '
BEGIN {
  # The table of issue 14: what each room may include besides itself.
  allow["base"] = ""
  allow["rules"] = "base"
  allow["search"] = "base rules"
  allow["nn"] = "base rules search"
  allow["config"] = "base rules search nn proto"
  allow["rpc"] = "base rules proto"
  allow["gomocup"] = "base rules search nn config proto"
  allow["selfplay"] = "base rules search nn config rpc proto gomocup inference"
  allow["arena"] = "base rules search nn config rpc proto gomocup"
  allow["inference"] = "base rules search nn config rpc proto"
  allow["trainer"] = "base rules search nn config rpc proto gomocup arena"
  split("base rules search nn config rpc gomocup selfplay arena inference trainer tools proto tests bench", r, " ")
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
    if (n < 3 || parts[2] == "tools" || parts[2] == "e2e" || parts[2] == "fuzz") next
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
  if ((" " allow[room] " ") ~ (" " target " ")) next
  fail("\"" header "\": " room "/ may not include " target "/ (allowed: " \
       (allow[room] == "" ? "nothing" : allow[room]) ")")
}
END { exit bad }
' || { echo "check_includes: forbidden includes above (the table is in README.md)" >&2; exit 1; }
