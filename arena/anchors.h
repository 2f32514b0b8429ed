// Fixed yardsticks for the ratings (config arena.anchors): the player of
// each anchor, and matches against them. An anchor is the built-in
// tactical brain, a checkpoint at fixed visits or an external Gomocup
// engine; its strength never changes, so Elo measured against anchors
// means the same in every run (arena/ratings.h holds them at their elo).
#ifndef RENJU_ARENA_ANCHORS_H_
#define RENJU_ARENA_ANCHORS_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "arena/arena_players.h"
#include "arena/arena_summary.h"
#include "arena/gating.h"
#include "proto/config.pb.h"

namespace renju {

// Whether `generation` plays the anchors: there are anchors, and it is
// generation 0 or a multiple of arena.anchor_every_generations.
bool AnchorsDue(const pb::ArenaConfig& arena, int64_t generation);

// Checks that every model anchor's checkpoint exists, so a run fails at
// start rather than at its first anchor match. Relative paths are resolved
// against the working directory. NotFound names the field path.
absl::Status CheckAnchorFiles(const pb::ArenaConfig& arena);

// The player of config.arena().anchors(index), named by its name (the
// config must be valid):
//   tactical  TacticalPlayer;
//   model     ModelPlayer on its own evaluator stack (selfplay.evaluator
//             settings, the network shape read from the checkpoint) with
//             arena.search at model.visits visits and no time limit;
//   engine    EnginePlayer with the engine's command line and limits (its
//             stderr discarded).
// `seed` seeds a model's evaluator. Errors name the field path: a missing
// or unloadable checkpoint, one for another board size.
absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeAnchorPlayer(
    const pb::RunConfig& config, int index, uint64_t seed);

// Plays `player` (A) against `anchor` (B): the config's variant, openings
// (oriented by options.seed) and move cap, arena.concurrent_games at once,
// arena.anchor_games games and no SPRT (the match measures, it decides
// nothing). Writes the games and summary.json into options.out_dir when
// set.
absl::StatusOr<ArenaSummary> RunAnchorMatch(
    const pb::RunConfig& config, ArenaPlayer& player, ArenaPlayer& anchor,
    const CheckpointMatchOptions& options);

}  // namespace renju

#endif  // RENJU_ARENA_ANCHORS_H_
