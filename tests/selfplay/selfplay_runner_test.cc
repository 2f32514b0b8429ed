// SelfplayRunner's game threads: they play the games asked for, and a
// paused runner (the trainer asking self-play to let training catch up)
// starts none until the pause ends; a game whose evaluator is unreachable
// is played again rather than ending the run.
#include "selfplay/selfplay_runner.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

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

// Fails its first `failures` calls with `code` (an unreachable remote
// server), then answers like a RandomEvaluator.
class FlakyEvaluator : public Evaluator {
 public:
  FlakyEvaluator(int failures, absl::StatusCode code)
      : failures_(failures), code_(code) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    if (calls_++ < failures_) return absl::Status(code_, "server away");
    return inner_.Evaluate(game, out);
  }

 private:
  const int failures_;
  const absl::StatusCode code_;
  std::atomic<int> calls_{0};
  RandomEvaluator inner_{7};
};

TEST(SelfplayRunnerTest, PlaysAGameAgainWhileItsEvaluatorIsUnreachable) {
  for (absl::StatusCode code :
       {absl::StatusCode::kUnavailable, absl::StatusCode::kDeadlineExceeded}) {
    auto evaluator = std::make_shared<FlakyEvaluator>(1, code);
    SelfplayRunner runner(QuickSettings(), 1, 1);
    std::vector<std::string> uids;
    const absl::Status status = runner.Run(
        2, [&] { return GameModel(evaluator, 0); },
        [&](const pb::GameRecord& game) {
          uids.push_back(game.uid());
          return absl::OkStatus();
        },
        nullptr);
    ASSERT_TRUE(status.ok()) << status;
    // Both games, the first played again under its own uid: none is lost
    // or counted twice.
    ASSERT_EQ(uids.size(), 2u);
    EXPECT_NE(uids[0], uids[1]);
  }
}

TEST(SelfplayRunnerTest, OtherEvaluatorErrorsStillEndTheRun) {
  auto evaluator =
      std::make_shared<FlakyEvaluator>(1, absl::StatusCode::kInvalidArgument);
  SelfplayRunner runner(QuickSettings(), 1, 1);
  const absl::Status status = runner.Run(
      2, [&] { return GameModel(evaluator, 0); },
      [](const pb::GameRecord&) { return absl::OkStatus(); }, nullptr);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
}

}  // namespace
}  // namespace renju
