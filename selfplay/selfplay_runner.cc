#include "selfplay/selfplay_runner.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/logging.h"

namespace renju {

SelfplayRunner::SelfplayRunner(SelfplaySettings settings, int concurrent_games,
                               uint64_t seed)
    : settings_(std::move(settings)),
      concurrent_games_(concurrent_games),
      seed_(seed),
      uid_prefix_(absl::StrCat(
          settings_.worker_id.empty() ? "local" : settings_.worker_id, "-",
          std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::system_clock::now().time_since_epoch())
              .count(),
          // Not derived from the seed: two runs with one seed must not
          // share uids, and others' uids should not be guessable.
          "-", absl::Hex(std::random_device{}(), absl::kZeroPad8), "-")) {}

SelfplayTally SelfplayRunner::tally() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return tally_;
}

absl::Status SelfplayRunner::PlayGames(int thread, int64_t max_games,
                                       const EvaluatorSource& evaluators,
                                       const GameSink& sink,
                                       const std::atomic<bool>* stop) {
  for (;;) {
    while (paused_ != nullptr && paused_->load() &&
           !(stop != nullptr && stop->load())) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (stop != nullptr && stop->load()) return absl::OkStatus();
    const int64_t index = started_.fetch_add(1);
    if (max_games > 0 && index >= max_games) return absl::OkStatus();
    absl::StatusOr<pb::GameRecord> game = PlayOne(index, evaluators, stop);
    if (!game.ok()) {
      if (absl::IsCancelled(game.status())) return absl::OkStatus();
      return game.status();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (absl::Status s = sink(*game); !s.ok()) return s;
    tally_.Add(*game);
  }
}

absl::StatusOr<pb::GameRecord> SelfplayRunner::PlayOne(
    int64_t index, const EvaluatorSource& evaluators,
    const std::atomic<bool>* stop) {
  int64_t wait_ms = 1000;
  for (;;) {
    // One stream per game: the same seed replays the same games.
    Random rng(seed_, static_cast<uint64_t>(index));
    const GameModel model = evaluators();
    SelfplaySettings settings = settings_;
    settings.model_generation = model.generation;
    const std::string uid = absl::StrCat(uid_prefix_, index);
    absl::StatusOr<pb::GameRecord> game =
        PlaySelfplayGame(settings, *model.evaluator, rng, uid, stop);
    if (game.ok() || !(absl::IsUnavailable(game.status()) ||
                       absl::IsDeadlineExceeded(game.status()))) {
      return game;
    }
    RENJU_LOG(WARNING) << "game " << uid
                       << " abandoned, its evaluator did not answer; played "
                          "again in "
                       << wait_ms << " ms: " << game.status();
    const auto end =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    while (std::chrono::steady_clock::now() < end) {
      if (stop != nullptr && stop->load()) {
        return absl::CancelledError("self-play stopped");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    wait_ms = std::min<int64_t>(wait_ms * 2, 30000);
  }
}

absl::Status SelfplayRunner::Run(int64_t max_games,
                                 const EvaluatorSource& evaluators,
                                 const GameSink& sink,
                                 const std::atomic<bool>* stop) {
  std::atomic<bool> failed{false};
  std::atomic<bool> combined_stop{false};
  std::mutex error_mutex;
  absl::Status error;
  std::vector<std::thread> threads;
  // A watcher folds the caller's stop flag and our own failure into one.
  for (int t = 0; t < concurrent_games_; ++t) {
    threads.emplace_back([&, t] {
      absl::Status s =
          PlayGames(t, max_games, evaluators, sink, &combined_stop);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (error.ok()) error = s;
        failed = true;
        combined_stop = true;
      }
    });
  }
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load()) {
      if (stop != nullptr && stop->load()) combined_stop = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  for (std::thread& t : threads) t.join();
  done = true;
  watcher.join();
  std::lock_guard<std::mutex> lock(error_mutex);
  return error;
}

}  // namespace renju
