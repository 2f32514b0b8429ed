#!/usr/bin/env bash
# Two Gomocup engines (renju arena, engine:... players) at equal time per
# move or at equal visits, each with its own build, model and config: two
# models of different shapes (issue 30's capacity arms, each with its run's
# config.textproto), or two builds with one model (issue 29's arenas,
# bench/gathering_arena.sh). Each engine's config gets, inserted into
# server.search and server.evaluator, `threads` search threads and as many
# forward threads of one LibTorch thread each (--threads 1: one core each;
# the match plays --concurrent games at once on the machine's cores).
#
#   bench/engine_arena.sh --a-model FILE --b-model FILE
#       [--a-config FILE] [--b-config FILE]   (default configs/cpu.textproto)
#       [--a-renju PATH] [--b-renju PATH]     (default build/renju)
#       [--a-minibatch N]                     (A's server.search.minibatch_size)
#       [--turn-ms 1000 | --visits N] [--threads 1] [--games 200]
#       [--concurrent 2] [--shared-openings N] [--out DIR]
#
# --shared-openings N plays, instead of the 26 canonical openings, the
# first five moves of the first N shared games (../shared/data, distinct
# beginnings only), each with colours swapped: at equal visits one engine
# thread plays the same game from the same opening every time, so 200
# games need 100 openings to be 200 different games. The opening file is
# written to DIR (the games are local test data: keep DIR to yourself).
#
# --visits N sends INFO max_node N with a 60 s turn: a match at equal
# visits. Prints renju arena's progress and report (Elo of A minus B, with
# its 95% interval); games and summary.json go to DIR/games.
set -euo pipefail

a_renju=build/renju b_renju=build/renju
a_model="" b_model=""
a_config=configs/cpu.textproto b_config=configs/cpu.textproto
a_minibatch=0
turn_ms=1000 visits=0 threads=1 games=200 concurrent=2
out=engine-arena
shared_openings=0
while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || { echo "engine_arena: $1 needs a value" >&2; exit 2; }
  case "$1" in
    --a-renju) a_renju="$2" ;;
    --b-renju) b_renju="$2" ;;
    --a-model) a_model="$2" ;;
    --b-model) b_model="$2" ;;
    --a-config) a_config="$2" ;;
    --b-config) b_config="$2" ;;
    --a-minibatch) a_minibatch="$2" ;;
    --turn-ms) turn_ms="$2" ;;
    --visits) visits="$2" ;;
    --threads) threads="$2" ;;
    --games) games="$2" ;;
    --concurrent) concurrent="$2" ;;
    --out) out="$2" ;;
    --shared-openings) shared_openings="$2" ;;
    *) echo "engine_arena: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ -n "$a_model" && -n "$b_model" ]] || {
  echo "engine_arena: --a-model and --b-model are required" >&2; exit 2; }
for f in "$a_renju" "$b_renju" "$a_model" "$b_model" "$a_config" "$b_config"; do
  [[ -e "$f" ]] || { echo "engine_arena: $f does not exist" >&2; exit 2; }
done
for n in "$turn_ms" "$visits" "$threads" "$games" "$concurrent" "$a_minibatch" \
    "$shared_openings"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "engine_arena: '$n' is not a count" >&2; exit 2; }
done

mkdir -p "$out"
# CONFIG OUT: CONFIG with the threads inserted into server.search and
# server.evaluator; refused when it has no such blocks to insert into.
engine_config() {
  awk -v threads="$threads" '
    /^server *\{/ { in_server = 1 }
    /^}/ { in_server = 0 }
    in_server && /^  search *\{/ { print; print "    threads: " threads; next }
    in_server && /^  evaluator *\{/ {
      print; print "    torch_threads: 1"; print "    server_threads: " threads; next
    }
    in_server && /server_threads/ { next }
    { print }' "$1" > "$2"
  grep -q "server_threads: $threads" "$2" || {
    echo "engine_arena: $1 needs a 'server {' block with '  search {' and '  evaluator {'" >&2
    exit 2
  }
}
engine_config "$a_config" "$out/a.textproto"
engine_config "$b_config" "$out/b.textproto"
if ((a_minibatch > 0)); then
  sed -i "s/^    threads: $threads\$/&\n    minibatch_size: $a_minibatch/" "$out/a.textproto"
fi

engine() {  # RENJU CONFIG MODEL
  echo "engine:$(realpath "$1") gomocup --brain search --config $(realpath "$2") --model $(realpath "$3")"
}
openings=()
if ((shared_openings > 0)); then
  shared="$(dirname "$0")/../../shared/data/renju-games.jsonl"
  [[ -e "$shared" ]] || { echo "engine_arena: $shared does not exist" >&2; exit 2; }
  command -v jq >/dev/null || { echo "engine_arena: --shared-openings needs jq" >&2; exit 2; }
  # pos notation, rows counted from the bottom as renju names them.
  # (awk reads to the end: an early exit would break the pipe under pipefail)
  jq -r 'select(.moves | length > 10) | .moves[0:5] | join("")' "$shared" |
    awk -v n="$shared_openings" '!seen[$0]++ && k < n { print; k++ }' \
      > "$out/openings.txt"
  (($(wc -l < "$out/openings.txt") == shared_openings)) || {
    echo "engine_arena: the shared games have fewer than $shared_openings distinct beginnings" >&2
    exit 2
  }
  openings=(--openings "$out/openings.txt" --notation pos --pos-rows bottom)
fi
limits=(--engine-turn-ms "$turn_ms")
if ((visits > 0)); then
  limits=(--engine-turn-ms 60000 --engine-max-nodes "$visits")
fi
exec "$a_renju" arena --config "$a_config" \
  --a "$(engine "$a_renju" "$out/a.textproto" "$a_model")" \
  --b "$(engine "$b_renju" "$out/b.textproto" "$b_model")" \
  --games "$games" --concurrent "$concurrent" "${limits[@]}" "${openings[@]}" \
  --out "$out/games"
