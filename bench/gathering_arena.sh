#!/usr/bin/env bash
# Issue 29's arenas: the Gomocup engine of this tree (minibatch gathering,
# folded batch norms) against the engine of an earlier build (--before, e.g.
# the commit before the work), at equal time per move or at equal visits,
# through the Gomocup protocol (renju arena, engine:... players). Both get
# the same config: configs/cpu.textproto with, inserted into server.search
# and server.evaluator, `threads` search threads and as many forward
# threads of one LibTorch thread each (--threads 1: one core each; the
# match plays --concurrent games at once on the machine's cores). Each
# engine keeps its own play-time defaults otherwise; the earlier build has
# no gathering.
#
#   bench/gathering_arena.sh --before PATH [--renju PATH] [--model FILE]
#       [--turn-ms 1000 | --visits N] [--threads 1] [--games 200]
#       [--concurrent 2] [--minibatch N] [--out DIR]
#
# --minibatch N gives this tree's engine server.search.minibatch_size N
# (the earlier build knows no such field) instead of its play-time default.
#
# --visits N sends INFO max_node N with a 60 s turn: a match at equal
# visits. Prints renju arena's progress and report (Elo of this tree's
# engine minus the earlier one's, with its 95% interval).
set -euo pipefail

renju=build/renju
before=""
model=models/default.model
config=configs/cpu.textproto
turn_ms=1000
visits=0
threads=1
games=200
concurrent=2
minibatch=0
out=gathering-arena
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --turn-ms) turn_ms="$2"; shift 2 ;;
    --visits) visits="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --concurrent) concurrent="$2"; shift 2 ;;
    --minibatch) minibatch="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "gathering_arena: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$before" ]] || { echo "gathering_arena: --before PATH is required" >&2; exit 2; }
for f in "$renju" "$before" "$model" "$config"; do
  [[ -e "$f" ]] || { echo "gathering_arena: $f does not exist" >&2; exit 2; }
done

mkdir -p "$out"
renju=$(realpath "$renju")
before=$(realpath "$before")
model=$(realpath "$model")
awk -v threads="$threads" '
  /^server *\{/ { in_server = 1 }
  /^}/ { in_server = 0 }
  in_server && /^  search *\{/ { print; print "    threads: " threads; next }
  in_server && /^  evaluator *\{/ {
    print; print "    torch_threads: 1"; print "    server_threads: " threads; next
  }
  in_server && /server_threads/ { next }
  { print }' "$config" > "$out/engine.textproto"
grep -q "server_threads: $threads" "$out/engine.textproto" || {
  echo "gathering_arena: $config needs a 'server {' block with '  search {' and '  evaluator {'" >&2
  exit 2
}

cp "$out/engine.textproto" "$out/this.textproto"
if ((minibatch > 0)); then
  sed -i "s/^    threads: $threads\$/&\n    minibatch_size: $minibatch/" "$out/this.textproto"
fi

engine() {
  echo "engine:$1 gomocup --brain search --config $(realpath "$out/$2.textproto") --model $model"
}
limits=(--engine-turn-ms "$turn_ms")
if ((visits > 0)); then
  limits=(--engine-turn-ms 60000 --engine-max-nodes "$visits")
fi
exec "$renju" arena --config "$config" \
  --a "$(engine "$renju" this)" --b "$(engine "$before" engine)" \
  --games "$games" --concurrent "$concurrent" "${limits[@]}" \
  --out "$out/games"
