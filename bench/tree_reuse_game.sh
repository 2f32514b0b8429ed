#!/usr/bin/env bash
# Reused visits per move over a game: two `renju gomocup --brain search`
# engines with tree reuse and time management on (and, with --ponder, INFO
# pondering 1) play each other through the Gomocup protocol at TURN_MS per
# move until MOVES moves have been played (a new game starts if one ends
# first), and the script prints each move's MESSAGE summary: ply, visits,
# reused visits, pondered playouts, playouts, ms. Then the means.
#
#   bench/tree_reuse_game.sh [--renju PATH] [--model FILE] [--config FILE]
#       [--moves 40] [--turn-ms 1000] [--threads 1] [--ponder]
#
# --config's gomocup.reuse_tree and time_management are turned on here
# (renju gomocup has no override flag: the script writes a copy).
set -euo pipefail

renju=build/renju
model=""
config=""
moves=40
turn_ms=1000
threads=1
ponder=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    --moves) moves="$2"; shift 2 ;;
    --turn-ms) turn_ms="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --ponder) ponder=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill $(jobs -p) 2>/dev/null || true' EXIT
{ [[ -n "$config" ]] && cat "$config"; echo "gomocup { reuse_tree: true time_management: true }"; } \
  > "$dir/config.textproto"
mkfifo "$dir/a_in" "$dir/a_out" "$dir/b_in" "$dir/b_out"
args=(gomocup --brain search --config "$dir/config.textproto")
[[ -n "$model" ]] && args+=(--model "$model")
"$renju" "${args[@]}" --seed 1 < "$dir/a_in" > "$dir/a_out" 2>/dev/null &
"$renju" "${args[@]}" --seed 2 < "$dir/b_in" > "$dir/b_out" 2>/dev/null &
exec 3> "$dir/a_in" 4< "$dir/a_out" 5> "$dir/b_in" 6< "$dir/b_out"

# Reads an engine's answer from fd $1: sets $move ("" when the game is
# over: the engine answered ERROR) and $summary (its MESSAGE line).
read_move() {
  local line
  move=""
  summary=""
  while read -r -u "$1" line; do
    line=${line%$'\r'}
    case "$line" in
      MESSAGE\ search*) summary=${line#MESSAGE search } ;;
      MESSAGE*|DEBUG*|OK) ;;
      ERROR*) return ;;
      *) move=$line; return ;;
    esac
  done
  echo "an engine exited" >&2
  exit 1
}
field() { local f; for f in $summary; do if [[ $f == "$1"=* ]]; then echo "${f#*=}"; fi; done; }

for fd in 3 5; do
  printf 'START 15\nINFO rule 4\nINFO timeout_turn %s\nINFO thread_num %s\nINFO pondering %s\n' \
    "$turn_ms" "$threads" "$ponder" >&$fd
done
echo "ply visits reused pondered playouts ms"
played=0
sum_visits=0
sum_reused=0
while ((played < moves)); do
  printf 'BEGIN\n' >&3
  fds=(3 4 5 6)  # the side to move's in and out, then the other's
  ply=1
  while ((played < moves)); do
    read_move "${fds[1]}"
    [[ -z "$move" ]] && break
    played=$((played + 1))
    v=$(field visits); r=$(field reused)
    sum_visits=$((sum_visits + v)); sum_reused=$((sum_reused + r))
    echo "$ply $v $r $(field pondered) $(field playouts) $(field ms)"
    printf 'TURN %s\n' "$move" >&"${fds[2]}"
    fds=("${fds[2]}" "${fds[3]}" "${fds[0]}" "${fds[1]}")
    ply=$((ply + 1))
  done
  # A finished game: the engine that got the winning move said ERROR.
  for fd in 3 5; do printf 'RESTART\n' >&$fd; done
  for fd in 4 6; do read -r -u $fd _; done
done
for fd in 3 5; do printf 'END\n' >&$fd; done
echo "moves $played, mean visits $((sum_visits / played)), mean reused $((sum_reused / played))"
