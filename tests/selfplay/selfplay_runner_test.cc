// SelfplayRunner's game threads: they play the games asked for, and a
// paused runner (the trainer asking self-play to let training catch up)
// starts none until the pause ends.
#include "selfplay/selfplay_runner.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"

namespace renju {
namespace {

// Counts calls, so a test can tell whether any game started.
class CountingEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    ++calls;
    return inner_.Evaluate(game, out);
  }
  std::atomic<int64_t> calls{0};

 private:
  RandomEvaluator inner_{7};
};

SelfplaySettings QuickSettings() {
  SelfplaySettings settings;
  settings.search.max_visits = 8;
  settings.search.vcf_max_nodes_root = 100;
  settings.search.vcf_max_nodes = 20;
  settings.max_plies = 20;
  settings.worker_id = "test";
  return settings;
}

TEST(SelfplayRunnerTest, PlaysTheGamesAskedForWithEveryTarget) {
  auto evaluator = std::make_shared<CountingEvaluator>();
  SelfplayRunner runner(QuickSettings(), 2, 1);
  int64_t sunk = 0;
  const absl::Status status = runner.Run(
      3, [&] { return GameModel(evaluator, 4); },
      [&](const pb::GameRecord& game) {
        ++sunk;
        EXPECT_EQ(game.model_generation(), 4);
        return absl::OkStatus();
      },
      nullptr);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(sunk, 3);
  EXPECT_EQ(runner.tally().games, 3);
}

TEST(SelfplayRunnerTest, StartsNoGameWhilePaused) {
  auto evaluator = std::make_shared<CountingEvaluator>();
  SelfplayRunner runner(QuickSettings(), 2, 1);
  std::atomic<bool> paused{true};
  runner.set_pause_flag(&paused);
  absl::Status status;
  std::thread run([&] {
    status = runner.Run(
        2, [&] { return GameModel(evaluator, 0); },
        [](const pb::GameRecord&) { return absl::OkStatus(); }, nullptr);
  });
  // Time for a broken pause to show; a slow machine can only hide a bug
  // here, never fail a correct runner.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(evaluator->calls.load(), 0);
  EXPECT_EQ(runner.tally().games, 0);
  paused = false;
  run.join();
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(runner.tally().games, 2);
}

TEST(SelfplayRunnerTest, AStopEndsAPausedRunner) {
  auto evaluator = std::make_shared<CountingEvaluator>();
  SelfplayRunner runner(QuickSettings(), 2, 1);
  std::atomic<bool> paused{true};
  std::atomic<bool> stop{false};
  runner.set_pause_flag(&paused);
  absl::Status status;
  std::thread run([&] {
    status = runner.Run(
        0, [&] { return GameModel(evaluator, 0); },
        [](const pb::GameRecord&) { return absl::OkStatus(); }, &stop);
  });
  stop = true;
  run.join();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(runner.tally().games, 0);
}

}  // namespace
}  // namespace renju
