// Registers each new generation the training loop publishes and decides
// whether it becomes the best: the rating / gating match against the best
// (arena/), the match's entry in the match store, the ratings table and the
// plots. The gating orchestration of `renju trainer`.
#ifndef RENJU_TRAINER_PUBLISHER_H_
#define RENJU_TRAINER_PUBLISHER_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "proto/config.pb.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"

namespace renju {

class Publisher {
 public:
  // Nothing is owned; all must outlive the publisher. `stop`, when set,
  // ends a running match early.
  Publisher(const pb::RunConfig& config, std::string run_dir, GameStore* store,
            MatchStore* matches, const std::atomic<bool>* stop)
      : config_(config), run_dir_(std::move(run_dir)), store_(store),
        matches_(matches), stop_(stop) {}

  absl::Status Publish(int64_t generation, const std::string& path,
                       int64_t step, int64_t games_seen);
  // Ratings table, CSV/JSON and plots from everything stored.
  void RefreshRatings();

 private:
  const pb::RunConfig& config_;
  const std::string run_dir_;
  GameStore* const store_;
  MatchStore* const matches_;
  const std::atomic<bool>* const stop_;
};

// Milliseconds since the Unix epoch, for registry and match timestamps.
int64_t NowUnixMs();

}  // namespace renju

#endif  // RENJU_TRAINER_PUBLISHER_H_
