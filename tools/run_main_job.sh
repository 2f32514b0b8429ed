#!/usr/bin/env bash
# The main job: set-up (packages, build), then the project's main command.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Until the training loop lands, the main job shows a sample game: the
# Kagetsu opening and a position with black's forbidden points.
"$RENJU_BUILD/renju" show --moves "h8 h9 i9 g7 i7 i8 j8 k9 g9 f10"
