#!/usr/bin/env bash
# The main job: set-up (packages, build), then the whole training loop on
# this machine with configs/tiny: a trainer, two self-play workers and an
# inference server as separate processes on loopback, three generations, and
# a final match of the last generation against generation 0. The run folder
# (runs/tiny-<time>/) holds the games, models, ratings, plots and logs; the
# run's page (generations, Elo, losses, match games) is served while it goes
# on, at the "run page: http://127.0.0.1:PORT/" address printed first.
set -euo pipefail
# It runs only `renju` (every process of the run is a `renju` subcommand;
# pbrain-renju and share/renju/default.model come with that target), so
# only `renju` is built, and the packages only the tests use (Chromium,
# clang, Prometheus, Node) are left to tools/run_tests.sh.
RENJU_SETUP_TEST_PACKAGES=0 RENJU_BUILD_TARGETS=renju source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$RENJU_ROOT"
exec "$RENJU_BUILD/renju" train --config configs/tiny.textproto "$@"
