// Many self-play games at once in one process (the KataGo/Minigo thread
// model): `concurrent_games` threads, each playing one game at a time with
// its own single-threaded search, all sharing one batched evaluator so its
// batches stay full. Finished games go to a sink; the evaluator (the model)
// may change between games, never within one.
#ifndef RENJU_SELFPLAY_SELFPLAY_RUNNER_H_
#define RENJU_SELFPLAY_SELFPLAY_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "nn/evaluator_stack.h"
#include "proto/game.pb.h"
#include "selfplay/selfplay_game.h"
#include "selfplay/selfplay_tally.h"

namespace renju {

// What plays one game: an evaluator, kept alive for the game, and the model
// generation the game records.
struct GameModel {
  GameModel(std::shared_ptr<Evaluator> evaluator, int64_t generation)
      : evaluator(std::move(evaluator)), generation(generation) {}
  // A local stack's outermost evaluator and generation. Implicit, so that
  // sources returning stacks convert.
  GameModel(std::shared_ptr<EvaluatorStack> stack)  // NOLINT
      : evaluator(stack, &stack->evaluator()),
        generation(stack->generation()) {}

  std::shared_ptr<Evaluator> evaluator;
  int64_t generation = 0;
};

class SelfplayRunner {
 public:
  // Returns the model to use for the next game (never null): a local
  // EvaluatorStack, or e.g. a remote evaluator.
  using EvaluatorSource = std::function<GameModel()>;
  // Receives each finished game; called from game threads, one at a time.
  // An error stops the run.
  using GameSink = std::function<absl::Status(const pb::GameRecord&)>;

  SelfplayRunner(SelfplaySettings settings, int concurrent_games,
                 uint64_t seed);

  // Plays until `max_games` have finished (0: until `stop`), then returns.
  // Games in progress when `stop` is set are abandoned.
  absl::Status Run(int64_t max_games, const EvaluatorSource& evaluators,
                   const GameSink& sink, const std::atomic<bool>* stop);

  SelfplayTally tally() const;

  // While `*paused` is true (e.g. the trainer asks self-play to let it
  // catch up) no game thread starts a new game; games in progress finish.
  // Not owned; null (the default) never pauses. Set before Run.
  void set_pause_flag(const std::atomic<bool>* paused) { paused_ = paused; }

 private:
  absl::Status PlayGames(int thread, int64_t max_games,
                         const EvaluatorSource& evaluators,
                         const GameSink& sink, const std::atomic<bool>* stop);
  // Plays game `index`; while its evaluator is unreachable (UNAVAILABLE or
  // DEADLINE_EXCEEDED: a remote server restarting or stalled longer than
  // its RPC deadline) plays it again from the start after a wait (1 s
  // doubling to 30 s) instead of failing the run. CANCELLED once stopped.
  absl::StatusOr<pb::GameRecord> PlayOne(int64_t index,
                                         const EvaluatorSource& evaluators,
                                         const std::atomic<bool>* stop);

  const SelfplaySettings settings_;
  const int concurrent_games_;
  const uint64_t seed_;
  const std::string uid_prefix_;
  std::atomic<int64_t> started_{0};
  const std::atomic<bool>* paused_ = nullptr;
  // Also serialises the sink's calls. std::mutex, which ThreadSanitizer
  // sees, unlike Debian's uninstrumented absl::Mutex.
  mutable std::mutex mutex_;
  SelfplayTally tally_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace renju

#endif  // RENJU_SELFPLAY_SELFPLAY_RUNNER_H_
