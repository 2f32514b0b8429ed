#!/usr/bin/env bash
# Out of the box: how many visits a 1-second Suggest searches with
# `renju serve` started with no config and the shipped model, for this
# tree's binary and an earlier build's (--before), on the same positions
# (every 8th position of the first games of ../shared/data, asked of the
# two servers in turn, so both see the same load).
#
#   bench/suggest_visits.sh --before PATH [--renju PATH] [--time-ms 1000]
#       [--positions 20]
#
# Prints one line per position and the mean visits of each, with the ratio.
set -euo pipefail

renju=build/renju
before=""
time_ms=1000
positions=20
games="$(dirname "$0")/../../shared/data/renju-games.jsonl"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --time-ms) time_ms="$2"; shift 2 ;;
    --positions) positions="$2"; shift 2 ;;
    *) echo "suggest_visits: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$before" ]] || { echo "suggest_visits: --before PATH is required" >&2; exit 2; }
for f in "$renju" "$before" "$games"; do
  [[ -e "$f" ]] || { echo "suggest_visits: $f does not exist" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "suggest_visits: needs jq" >&2; exit 2; }

work=$(mktemp -d)
pids=()
cleanup() {
  ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Starts `renju serve` on a free port, in this shell (not in a $(...)
# subshell, whose pids+= the cleanup would never see).
start_server() {
  "$1" serve --listen 127.0.0.1:0 >"$2" 2>&1 &
  pids+=($!)
}
# Prints the port a started server listens on.
server_port() {
  local binary=$1 log=$2
  for _ in $(seq 600); do
    if grep -q "listening on" "$log"; then
      grep -o "listening on 127.0.0.1:[0-9]*" "$log" | head -1 | cut -d: -f2
      return
    fi
    sleep 0.1
  done
  echo "suggest_visits: $binary serve did not start (see $log)" >&2
  cat "$log" >&2
  return 1
}
start_server "$renju" "$work/new.log"
start_server "$before" "$work/old.log"
new_port=$(server_port "$renju" "$work/new.log") || exit 1
old_port=$(server_port "$before" "$work/old.log") || exit 1

# Move lists "h8 i9 ..." of the first plies of the first games: every 8th
# ply from 8 to 48 of successive games.
mapfile -t lists < <(head -n 200 "$games" | jq -r '.moves | join(" ")' |
  awk -v n="$positions" '{
    split($0, m, " ")
    for (ply = 8; ply <= 48 && ply < length(m) && count < n; ply += 8) {
      line = m[1]; for (i = 2; i <= ply; ++i) line = line " " m[i]
      print line; ++count
    }
  }')

visits() {
  "$renju" suggest --server "127.0.0.1:$1" --moves "$2" --time-ms "$time_ms" \
    --json | jq -r '.visits'
}
new_total=0
old_total=0
count=0
for moves in "${lists[@]}"; do
  n=$(visits "$new_port" "$moves")
  o=$(visits "$old_port" "$moves")
  echo "ply $(wc -w <<<"$moves"): this build $n visits, before $o"
  new_total=$((new_total + n))
  old_total=$((old_total + o))
  count=$((count + 1))
done
awk -v n="$new_total" -v o="$old_total" -v c="$count" -v t="$time_ms" 'BEGIN {
  printf "%d positions, %d ms each: this build %.0f visits on average, before %.0f, ratio %.2f\n",
    c, t, n / c, o / c, n / o
}'
