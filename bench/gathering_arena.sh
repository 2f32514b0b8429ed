#!/usr/bin/env bash
# Issue 29's arenas: the Gomocup engine of this tree (minibatch gathering,
# folded batch norms) against the engine of an earlier build (--before, e.g.
# the commit before the work), at equal time per move or at equal visits,
# both with the same model and configs/cpu.textproto (bench/engine_arena.sh
# inserts the threads). Each engine keeps its own play-time defaults
# otherwise; the earlier build has no gathering.
#
#   bench/gathering_arena.sh --before PATH [--renju PATH] [--model FILE]
#       [--turn-ms 1000 | --visits N] [--threads 1] [--games 200]
#       [--concurrent 2] [--minibatch N] [--shared-openings N] [--out DIR]
#
# --minibatch N gives this tree's engine server.search.minibatch_size N
# (the earlier build knows no such field) instead of its play-time default.
# Prints renju arena's report: Elo of this tree's engine minus the earlier
# one's, with its 95% interval.
set -euo pipefail

renju=build/renju
before=""
model=models/default.model
rest=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --minibatch) rest+=(--a-minibatch "$2"); shift 2 ;;
    --turn-ms|--visits|--threads|--games|--concurrent|--shared-openings)
      rest+=("$1" "$2"); shift 2 ;;
    --out) rest+=(--out "$2"); shift 2 ;;
    *) echo "gathering_arena: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$before" ]] || { echo "gathering_arena: --before PATH is required" >&2; exit 2; }
exec "$(dirname "$0")/engine_arena.sh" --a-renju "$renju" --b-renju "$before" \
  --a-model "$model" --b-model "$model" --out gathering-arena "${rest[@]}"
