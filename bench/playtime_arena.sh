#!/usr/bin/env bash
# Issue 16's arena: the Gomocup engine with its play-time features against
# itself without them, both at the same time per move through the Gomocup
# protocol (renju arena, engine:... players), each engine on one search
# thread and no pondering (the two share the machine, so thinking on the
# opponent's time would take the opponent's CPU).
#
#   features on:  gomocup.reuse_tree, gomocup.time_management, the VCT
#                 solver at the root (server.search.vct_max_nodes_root,
#                 defend_vct) beside the VCF solver;
#   features off: a fresh search each move spending the whole turn
#                 (less the reserve), the VCF solver only.
#
#   bench/playtime_arena.sh [--renju PATH] [--model FILE] [--config FILE]
#       [--games 100] [--turn-ms 1000] [--concurrent 2] [--vct-nodes 200000]
#       [--out DIR]
#
# Prints renju arena's progress and report (Elo of "on" minus "off" with its
# 95% interval); games and summary.json go to --out.
set -euo pipefail

renju=build/renju
model=models/default.model
config=configs/cpu.textproto
games=100
turn_ms=1000
concurrent=2
vct_nodes=200000
out=playtime-arena
while [[ $# -gt 0 ]]; do
  case "$1" in
    --renju) renju="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --turn-ms) turn_ms="$2"; shift 2 ;;
    --concurrent) concurrent="$2"; shift 2 ;;
    --vct-nodes) vct_nodes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "playtime_arena: unknown argument $1" >&2; exit 2 ;;
  esac
done
for f in "$renju" "$model" "$config"; do
  [[ -e "$f" ]] || { echo "playtime_arena: $f does not exist" >&2; exit 2; }
done
if grep -q '^gomocup *{' "$config"; then
  echo "playtime_arena: $config already has a gomocup block" >&2
  exit 2
fi

mkdir -p "$out"
renju=$(realpath "$renju")
model=$(realpath "$model")
# The config's server.search gets the VCT settings and server.evaluator one
# LibTorch thread (two engines think at once on two cores) inserted at their
# tops (text format forbids a second server block); the rest is kept.
with_vct() {
  awk -v nodes="$1" '
    /^server *\{/ { in_server = 1 }
    /^}/ { in_server = 0 }
    in_server && /^  search *\{/ {
      print; print "    vct_max_nodes_root: " nodes; print "    defend_vct: true"; next
    }
    in_server && /^  evaluator *\{/ { print; print "    torch_threads: 1"; next }
    { print }' "$config"
}
{ with_vct "$vct_nodes"
  echo "gomocup { reuse_tree: true time_management: true }"; } > "$out/on.textproto"
{ with_vct 0
  echo "gomocup { reuse_tree: false time_management: false }"; } > "$out/off.textproto"
if ! grep -q "vct_max_nodes_root: $vct_nodes" "$out/on.textproto" ||
   ! grep -q "torch_threads: 1" "$out/on.textproto"; then
  echo "playtime_arena: $config needs a 'server {' block with '  search {' and '  evaluator {'" >&2
  exit 2
fi

engine() {
  echo "engine:$renju gomocup --brain search --config $(realpath "$out/$1.textproto") --model $model"
}
exec "$renju" arena --config "$config" \
  --a "$(engine on)" --b "$(engine off)" \
  --games "$games" --concurrent "$concurrent" --engine-turn-ms "$turn_ms" \
  --out "$out/games"
