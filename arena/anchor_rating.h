// One player's Elo on the anchors' scale (`renju arena --anchors-from`):
// the player plays each anchor of a config (arena.anchors, anchors.h) that
// has a fixed elo in turn, and its Elo is fitted from those matches
// (ratings.h) with the anchors held at theirs, the scale a run with those
// anchors rates its generations on.
#ifndef RENJU_ARENA_ANCHOR_RATING_H_
#define RENJU_ARENA_ANCHOR_RATING_H_

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "arena/arena.h"
#include "arena/arena_players.h"
#include "arena/arena_summary.h"
#include "arena/ratings.h"
#include "proto/config.pb.h"

namespace renju {

// The anchors' config at `path`: valid, with anchors, for the same game
// (variant and board size) as `config`, its checkpoints present. Errors
// name the path.
absl::StatusOr<pb::RunConfig> LoadAnchorConfig(const pb::RunConfig& config,
                                               const std::string& path);

// `match` as the anchor matches play it: `anchors`' arena.anchor_games
// games unless the games were asked for (`games_given`), and no SPRT:
// every anchor match plays its full length, as the trainer's do (an SPRT
// stop would rate the player on fewer games against one anchor than
// another).
ArenaOptions AnchorMatchOptions(ArenaOptions match,
                                const pb::RunConfig& anchors, bool games_given);

// What RateOnAnchors reports as it goes; each may be empty. Called on the
// calling thread, except on_pair (from game threads, one call at a time).
struct AnchorRatingCallbacks {
  // An anchor without a fixed elo, whose games cannot place the player.
  std::function<void(const pb::AnchorPlayer&)> on_skip;
  // Before a match against the anchor, once its player is made.
  std::function<void(const pb::AnchorPlayer&)> on_start;
  // After each completed pair of that match, with its summary so far.
  std::function<void(const pb::AnchorPlayer&, const ArenaSummary&)> on_pair;
  // After that match, with its summary; not after a failed one.
  std::function<void(const pb::AnchorPlayer&, const ArenaSummary&)> on_end;
};

// Plays `player` (A) against each anchor of `anchors` with a fixed elo,
// in order, under `options` (games and summary.json in
// options.out_dir/vs-<anchor name> when out_dir is set; anchor models
// seeded by options.seed), until `stop` (may be null) is set; then A's
// rating from the matches played, the anchors held at their elo. Errors:
// an anchor's player cannot be made, a match failed, the fit failed,
// FailedPrecondition when no anchor game finished.
absl::StatusOr<Rating> RateOnAnchors(const pb::RunConfig& anchors,
                                     const ArenaOptions& options,
                                     ArenaPlayer& player,
                                     const std::atomic<bool>* stop,
                                     const AnchorRatingCallbacks& callbacks);

}  // namespace renju

#endif  // RENJU_ARENA_ANCHOR_RATING_H_
