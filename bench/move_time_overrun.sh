#!/usr/bin/env bash
# How far past the turn limit a move's answer comes on the wall clock, as a
# Gomocup manager sees it: two `renju gomocup --brain search` engines with
# time management and tree reuse play each other at TURN_MS per move until
# MOVES moves are played, and the script times each move from the command's
# write to the answer's read. With --load N, N busy processes at normal
# priority run beside them (a shared machine). Prints the slowest answers
# and how many passed the turn limit, the number for BENCHMARKS.md; the
# test suite checks the time manager on an injected clock instead
# (tests/gomocup/play_time_test.cc).
#
#   bench/move_time_overrun.sh [--renju PATH] [--model FILE] [--moves 100]
#       [--turn-ms 200] [--threads 1] [--load 0]
set -euo pipefail

renju=build/renju
model=""
moves=100
turn_ms=200
threads=1
load=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --moves) moves="$2"; shift 2 ;;
    --turn-ms) turn_ms="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --load) load="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

dir=$(mktemp -d)
load_pids=()
cleanup() {
  ((${#load_pids[@]} == 0)) || kill "${load_pids[@]}" 2>/dev/null || true
  kill $(jobs -p) 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
echo "gomocup { reuse_tree: true time_management: true }" > "$dir/config.textproto"
mkfifo "$dir/a_in" "$dir/a_out" "$dir/b_in" "$dir/b_out"
args=(gomocup --brain search --config "$dir/config.textproto")
[[ -n "$model" ]] && args+=(--model "$model")
"$renju" "${args[@]}" --seed 1 < "$dir/a_in" > "$dir/a_out" 2>/dev/null &
"$renju" "${args[@]}" --seed 2 < "$dir/b_in" > "$dir/b_out" 2>/dev/null &
exec 3> "$dir/a_in" 4< "$dir/a_out" 5> "$dir/b_in" 6< "$dir/b_out"
for ((i = 0; i < load; ++i)); do
  bash -c 'while :; do :; done' &
  load_pids+=($!)
done

# Microseconds on the wall clock.
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
# Reads an engine's answer from fd $1: sets $move ("" when the game is
# over: the engine answered ERROR).
read_move() {
  local line
  move=""
  while read -r -u "$1" line; do
    line=${line%$'\r'}
    case "$line" in
      MESSAGE*|DEBUG*|OK) ;;
      ERROR*) return ;;
      *) move=$line; return ;;
    esac
  done
  echo "an engine exited" >&2
  exit 1
}

for fd in 3 5; do
  printf 'START 15\nINFO rule 4\nINFO timeout_turn %s\nINFO thread_num %s\n' \
    "$turn_ms" "$threads" >&$fd
  read -r -u $((fd + 1)) _
done
times=()
played=0
while ((played < moves)); do
  fds=(3 4 5 6)  # the side to move's in and out, then the other's
  command=BEGIN
  while ((played < moves)); do
    start=$(now_us)
    printf '%s\n' "$command" >&"${fds[0]}"
    read_move "${fds[1]}"
    [[ -z "$move" ]] && break
    times+=($((($(now_us) - start) / 1000)))
    played=$((played + 1))
    command="TURN $move"
    fds=("${fds[2]}" "${fds[3]}" "${fds[0]}" "${fds[1]}")
  done
  # A finished game: the engine that got the winning move said ERROR.
  for fd in 3 5; do printf 'RESTART\n' >&$fd; done
  for fd in 4 6; do read -r -u $fd _; done
done
for fd in 3 5; do printf 'END\n' >&$fd; done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
over=0
for t in "${sorted[@]}"; do ((t > turn_ms)) && over=$((over + 1)); done
echo "moves $n at ${turn_ms} ms, load $load: median ${sorted[n / 2]} ms," \
  "p99 ${sorted[n * 99 / 100]} ms, slowest ${sorted[n - 1]} ms," \
  "over the turn: $over"
