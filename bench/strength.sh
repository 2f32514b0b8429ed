#!/usr/bin/env bash
# Strength per CPU-hour: trains a config for a CPU budget with `renju train`,
# then rates its generations against fixed anchors with `renju arena
# --anchors-from`, so two settings (or two runs) compare on one scale at
# equal cost. Heavy (minutes to hours): a benchmark, not a test; results go
# into BENCHMARKS.md with the command that made them.
#
#   bench/strength.sh --config FILE --cpu-minutes M --out DIR
#       [--override TEXT] [--seed N] [--anchors FILE] [--visits V]
#       [--games G] [--every K] [--renju PATH]
#
#   --override  config fields to change for this arm (renju train --override);
#               the script itself sets launcher { final_match_games: 0
#               inference_server: false } and arena { gating: false
#               rate_generations: false anchor_every_generations: 100000 }
#               so that the budget goes to training, and the anchors rate
#               the generations afterwards; an arm must not name those two
#               messages again
#   --seed      the run's seed (a second seed shows the run-to-run spread)
#   --anchors   a config whose arena.anchors are the yardsticks
#               (default bench/anchors.textproto)
#   --visits    the rated generations' visits per move (default 100)
#   --games     games against each anchor (default 52: each canonical
#               opening twice, colours swapped)
#   --every     also rate every K-th generation, for a curve (default 0:
#               only the last)
#
# Writes DIR/run (the run folder), DIR/eval/gen<N> (the rating games),
# DIR/strength.csv (generation,cpu_hours,elo,elo_error,games,score) and,
# when gnuplot is installed, DIR/strength.png (Elo against CPU-hours). A
# DIR/run that is already there is resumed (its budget counts on), and
# generations already rated are not played again.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

config="" cpu_minutes="" out="" override="" seed=""
anchors="$ROOT/bench/anchors.textproto" visits=100 games=52 every=0
renju="$ROOT/build/renju"
while (($#)); do
  case "$1" in
    --config) config="$2" ;;
    --cpu-minutes) cpu_minutes="$2" ;;
    --out) out="$2" ;;
    --override) override="$2" ;;
    --seed) seed="$2" ;;
    --anchors) anchors="$2" ;;
    --visits) visits="$2" ;;
    --games) games="$2" ;;
    --every) every="$2" ;;
    --renju) renju="$2" ;;
    *) echo "strength.sh: unknown flag $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift 2
done
if [[ -z "$config" || -z "$cpu_minutes" || -z "$out" ]]; then
  echo "strength.sh: --config, --cpu-minutes and --out are required" >&2
  exit 2
fi
[[ -x "$renju" ]] || { echo "strength.sh: no $renju (build first)" >&2; exit 1; }
[[ -f "$anchors" ]] || { echo "strength.sh: no anchors file $anchors" >&2; exit 1; }
# Anchor checkpoints are named relative to the repository root.
out=$(realpath -m "$out") config=$(realpath "$config")
anchors=$(realpath "$anchors") renju=$(realpath "$renju")
cd "$ROOT"
mkdir -p "$out"
log() { echo "strength.sh: $(date +%H:%M:%S) $*"; }

run="$out/run"
if [[ -f "$run/config.textproto" ]]; then
  log "resuming $run"
  "$renju" train --resume "$run" --generations 100000 --cpu-minutes "$cpu_minutes"
else
  full_override="launcher { final_match_games: 0 inference_server: false }"
  full_override+=" arena { gating: false rate_generations: false"
  full_override+=" anchor_every_generations: 100000 }"
  [[ -n "$seed" ]] && full_override+=" seed: $seed"
  [[ -n "$override" ]] && full_override+=" $override"
  log "training $config for $cpu_minutes CPU minutes into $run"
  "$renju" train --config "$config" --run-dir "$run" --generations 100000 \
    --cpu-minutes "$cpu_minutes" --override "$full_override"
fi

# The generations to rate: every K-th and the last.
last=$(tail -n 1 "$run/generations_cpu.csv" | cut -d, -f1)
gens=()
if ((every > 0)); then
  for ((g = 0; g < last; g += every)); do gens+=("$g"); done
fi
gens+=("$last")

csv="$out/strength.csv"
[[ -f "$csv" ]] || echo "generation,cpu_hours,elo,elo_error,games,score" >"$csv"
for g in "${gens[@]}"; do
  if grep -q "^$g," "$csv"; then continue; fi
  cpu_seconds=$(awk -F, -v g="$g" '$1 == g { print $2 }' "$run/generations_cpu.csv")
  model="$run/models/gen$g.model"
  log "rating generation $g ($visits visits, $games games per anchor)"
  line=$("$renju" arena --config "$run/config.textproto" --a "model:$model" \
           --anchors-from "$anchors" --games "$games" --visits "$visits" \
           --out "$out/eval/gen$g" | tee "$out/eval-gen$g.log" |
         grep "on the anchors' scale" | tail -n 1)
  # "model:PATH: elo +123 ± 45 (95%) on the anchors' scale of F, 104 games,
  #  61.5% of the points"
  elo=$(sed -E 's/.*: elo ([-+]?[0-9.]+) ± ([0-9.]+).*/\1/' <<<"$line")
  err=$(sed -E 's/.*: elo ([-+]?[0-9.]+) ± ([0-9.]+).*/\2/' <<<"$line")
  n=$(sed -E 's/.*, ([0-9]+) games, ([0-9.]+)% of the points.*/\1/' <<<"$line")
  score=$(sed -E 's/.*, ([0-9]+) games, ([0-9.]+)% of the points.*/\2/' <<<"$line")
  echo "$g,$(awk -v s="$cpu_seconds" 'BEGIN { printf "%.3f", s / 3600 }'),$elo,$err,$n,$score" >>"$csv"
  log "generation $g: elo $elo ± $err over $n games ($score%)"
done

if command -v gnuplot >/dev/null; then
  gnuplot <<PLOT
set terminal pngcairo size 900,540
set output "$out/strength.png"
set datafile separator ","
set key off
set title "Elo on the anchors' scale against CPU-hours ($(basename "$out"))"
set xlabel "CPU-hours of the run (trainer, workers, server)"
set ylabel "Elo (95% interval)"
set grid
plot "$csv" skip 1 using 2:3:4 with yerrorlines pt 7
PLOT
fi
log "done: $csv"
column -s, -t "$csv"
