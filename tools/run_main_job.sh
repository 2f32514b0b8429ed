#!/usr/bin/env bash
# The main job: set-up (packages, build), then the whole training loop on
# this machine with configs/tiny: a trainer, two self-play workers and an
# inference server as separate processes on loopback, three generations, and
# a final match of the last generation against generation 0. The run folder
# (runs/tiny-<time>/) holds the games, models, ratings, plots and logs; the
# run's page (generations, Elo, losses, match games) is served while it goes
# on, at the "run page: http://127.0.0.1:PORT/" address printed first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$RENJU_ROOT"
exec "$RENJU_BUILD/renju" train --config configs/tiny.textproto "$@"
