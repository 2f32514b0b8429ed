// Registers each new generation the training loop publishes and decides
// whether it becomes the best: the rating / gating match against the best
// (arena/), the matches against the fixed anchors (arena.anchors), their
// entries in the match store, the ratings table and the plots. The gating
// orchestration of `renju trainer`.
#ifndef RENJU_TRAINER_PUBLISHER_H_
#define RENJU_TRAINER_PUBLISHER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "proto/config.pb.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"

namespace renju {

class ArenaPlayer;  // arena/arena_players.h
class ModelPlayer;

class Publisher {
 public:
  // Nothing is owned; all must outlive the publisher. `stop`, when set,
  // ends a running match early.
  Publisher(const pb::RunConfig& config, std::string run_dir, GameStore* store,
            MatchStore* matches, const std::atomic<bool>* stop)
      : config_(config),
        run_dir_(std::move(run_dir)),
        store_(store),
        matches_(matches),
        stop_(stop) {}

  // Registers the generation; from generation 1 on, plays its match
  // against the best, then the anchor matches that are due
  // (PlayAnchorMatches), records the verdict and refreshes the ratings.
  // Generation 0 only registers, so the trainer starts serving at once.
  absl::Status Publish(int64_t generation, const std::string& path,
                       int64_t step, int64_t games_seen);
  // Ratings table, CSV/JSON and plots from everything stored.
  void RefreshRatings();

 private:
  // Registers `model` unless its generation already is, with the same file.
  absl::Status RegisterOnce(const ModelEntry& model);
  // Plays each anchor against every registered generation that is due
  // (AnchorsDue) and has not played it: the new generation, generation 0,
  // and any that a stopped trainer or a failed anchor left out. Games go
  // to <run>/matches/gen<N>-vs-<anchor>/. A failing anchor is logged and
  // skipped (the ratings are a measurement; training goes on); a match cut
  // short by `stop` is not stored and is played again later.
  void PlayAnchorMatches();
  // One anchor match of `model`'s generation, building the generation's
  // player and anchor `index`'s player first if they are null.
  absl::Status PlayAnchorMatch(const ModelEntry& model, int index,
                               std::unique_ptr<ModelPlayer>& player,
                               std::unique_ptr<ArenaPlayer>& anchor);

  const pb::RunConfig& config_;
  const std::string run_dir_;
  GameStore* const store_;
  MatchStore* const matches_;
  const std::atomic<bool>* const stop_;
  // Anchors whose player could not be built or whose match failed: this
  // process does not try them again (an engine that cannot start would
  // otherwise cost its start-up allowance at every publish); a restarted
  // trainer does.
  std::set<std::string> failed_anchors_;
};

// Milliseconds since the Unix epoch, for registry and match timestamps.
int64_t NowUnixMs();

}  // namespace renju

#endif  // RENJU_TRAINER_PUBLISHER_H_
