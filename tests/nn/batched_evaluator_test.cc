#include "nn/batched_evaluator.h"

#include <cmath>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "base/notification.h"
#include "gtest/gtest.h"
#include "nn/encoding.h"
#include "nn/output.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::Direct;
using ::renju::testing::IndexOf;
using ::renju::testing::kDoubleThreeMoves;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;

// Batching changes the order of float operations inside LibTorch's kernels,
// so results agree to rounding, not bit for bit.
constexpr float kTolerance = 1e-5f;

std::unique_ptr<Model> TinyModel(uint64_t seed = 1, int encoding_version = 1) {
  ModelOptions options;
  options.device = "cpu";
  NetworkConfig config = TinyNetworkConfig();
  config.encoding_version = encoding_version;
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(config, options, seed);
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

std::unique_ptr<BatchedEvaluator> MakeEvaluator(const Model& model, int servers,
                                                int max_batch,
                                                int max_wait_us) {
  std::vector<std::unique_ptr<Model>> models;
  for (int i = 0; i < servers; ++i) models.push_back(*model.Clone());
  BatchedEvaluatorOptions options;
  options.max_batch_size = max_batch;
  options.max_wait_us = max_wait_us;
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(std::move(models), options);
  EXPECT_TRUE(evaluator.ok()) << evaluator.status();
  return *std::move(evaluator);
}

// A position after `plies` seeded random moves in a varying variant.
Game RandomGame(int seed, int plies) {
  std::mt19937 rng(seed);
  const Variant variant = static_cast<Variant>(seed % kNumVariants);
  Game game(variant, 15);
  while (game.ply() < plies && !game.over()) {
    std::vector<Point> legal = game.LegalPoints();
    const Point p = legal[rng() % legal.size()];
    EXPECT_TRUE(game.Play(Move::At(p)).ok());
  }
  if (game.over()) game.Undo();
  return game;
}

void ExpectNear(const Evaluation& a, const Evaluation& b) {
  ASSERT_EQ(a.policy.size(), b.policy.size());
  for (size_t i = 0; i < a.policy.size(); ++i) {
    ASSERT_NEAR(a.policy[i], b.policy[i], kTolerance) << "point " << i;
  }
  EXPECT_NEAR(a.win, b.win, kTolerance);
  EXPECT_NEAR(a.draw, b.draw, kTolerance);
  EXPECT_NEAR(a.loss, b.loss, kTolerance);
}

TEST(BatchedEvaluatorTest, PolicyIsZeroOnOccupiedAndForbiddenPoints) {
  std::unique_ptr<Model> model = TinyModel();
  auto evaluator = MakeEvaluator(*model, 1, 8, 0);
  Game game = MakeGame(kDoubleThreeMoves);
  Evaluation out;
  ASSERT_TRUE(evaluator->Evaluate(game, out).ok());
  for (const char* occupied :
       {"g8", "h8", "i9", "i10", "a1", "a3", "a5", "a7"}) {
    EXPECT_EQ(out.policy[IndexOf(Pt(occupied))], 0.0f) << occupied;
  }
  EXPECT_EQ(out.policy[IndexOf(Pt("i8"))], 0.0f);  // forbidden
  EXPECT_GT(out.policy[IndexOf(Pt("j8"))], 0.0f);
  EXPECT_NEAR(std::accumulate(out.policy.begin(), out.policy.end(), 0.0), 1.0,
              1e-5);
  EXPECT_NEAR(out.win + out.draw + out.loss, 1.0f, 1e-6);
}

// KataGo's runNNBatchingTest: results must not depend on who else shares a
// batch.
TEST(BatchedEvaluatorTest, ConcurrentCallersGetTheirOwnDirectResults) {
  constexpr int kThreads = 32;
  constexpr int kPositionsPerThread = 4;
  std::unique_ptr<Model> model = TinyModel();
  std::vector<Game> games;
  std::vector<Evaluation> expected;
  for (int i = 0; i < kThreads * kPositionsPerThread; ++i) {
    games.push_back(RandomGame(i, i % 40));
    expected.push_back(Direct(*model, games.back()));
  }
  auto evaluator = MakeEvaluator(*model, 2, 16, 2000);
  std::vector<Evaluation> results(games.size());
  std::vector<std::thread> threads;
  // Released together, so that they batch however slowly threads start
  // (ThreadSanitizer makes a thread start take milliseconds).
  Notification start;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.WaitForNotification();
      for (int k = 0; k < kPositionsPerThread; ++k) {
        const int i = t * kPositionsPerThread + k;
        EXPECT_TRUE(evaluator->Evaluate(games[i], results[i]).ok());
      }
    });
  }
  start.Notify();
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectNear(results[i], expected[i]);
  }
  const BatchedEvaluatorStats stats = evaluator->stats();
  EXPECT_EQ(stats.positions, kThreads * kPositionsPerThread);
  EXPECT_GT(stats.mean_batch_size(), 1.5);  // it really batched
  EXPECT_GE(stats.mean_queue_wait_us, 0.0);
}

// A version-2 model is fed its own encoding, threat planes included: the
// evaluator's results equal a direct forward on EncodePosition(game, 2).
TEST(BatchedEvaluatorTest, EncodesWithTheModelsVersion) {
  std::unique_ptr<Model> model = TinyModel(3, /*encoding_version=*/2);
  ASSERT_EQ(model->input_floats(), kNumInputPlanesV2 * 225);
  auto evaluator = MakeEvaluator(*model, 1, 8, 0);
  for (int i = 0; i < 6; ++i) {
    Game game = RandomGame(200 + i, 10 + 5 * i);
    Evaluation out;
    ASSERT_TRUE(evaluator->Evaluate(game, out).ok());
    SCOPED_TRACE(i);
    ExpectNear(out, Direct(*model, game));
  }
}

TEST(BatchedEvaluatorTest, ShutdownWithRequestsInFlight) {
  std::unique_ptr<Model> model = TinyModel();
  // A long wait keeps requests queued when the shutdown comes.
  auto evaluator = MakeEvaluator(*model, 1, 64, 200000);
  std::atomic<int> ok{0};
  std::atomic<int> unavailable{0};
  Notification first_batch_answered;
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      Game game = RandomGame(t, 10);
      Evaluation out;
      while (true) {
        const absl::Status status = evaluator->Evaluate(game, out);
        if (status.ok()) {
          if (++ok == 16) first_batch_answered.Notify();
          continue;
        }
        EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
        ++unavailable;
        return;
      }
    });
  }
  // Once a batch has come back, every thread is in or on its way into the
  // next one, which waits 200 ms to fill: the shutdown finds it queued.
  EXPECT_TRUE(first_batch_answered.WaitForNotificationWithTimeout(
      std::chrono::seconds(60)));
  evaluator->Shutdown();
  for (std::thread& t : threads) t.join();  // nobody hangs
  EXPECT_EQ(unavailable.load(), 16);
  Game game = MakeGame("h8");
  Evaluation out;
  EXPECT_EQ(evaluator->Evaluate(game, out).code(),
            absl::StatusCode::kUnavailable);
  evaluator->Shutdown();  // idempotent
}

TEST(BatchedEvaluatorTest, ShortBatchesRunAfterTheDeadline) {
  std::unique_ptr<Model> model = TinyModel();
  auto evaluator = MakeEvaluator(*model, 1, 64, 1000);
  Game game = MakeGame("h8");
  Evaluation out;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(evaluator->Evaluate(game, out).ok());
  EXPECT_EQ(evaluator->stats().batches, 3);
  EXPECT_DOUBLE_EQ(evaluator->stats().mean_batch_size(), 1.0);
}

// EvaluateBatch's arguments: a pointer to each element of `items`.
template <typename T>
std::vector<T*> PointersTo(std::vector<T>& items) {
  std::vector<T*> out;
  for (T& item : items) out.push_back(&item);
  return out;
}

// A search's gathered leaves: one batch call, results as if each position
// were forwarded alone, and no wait for other callers (the deadline is an
// hour, so only the batch being due lets the forward run).
TEST(BatchedEvaluatorTest, ABatchCallRunsAtOnceAsOneForward) {
  std::unique_ptr<Model> model = TinyModel();
  auto evaluator = MakeEvaluator(*model, 1, 64, 1000000);
  std::vector<Game> games;
  for (int seed = 0; seed < 12; ++seed) games.push_back(RandomGame(seed, 30));
  std::vector<Evaluation> outs(games.size());
  std::vector<Game*> game_ptrs = PointersTo(games);
  std::vector<Evaluation*> out_ptrs = PointersTo(outs);
  ASSERT_TRUE(evaluator->EvaluateBatch(game_ptrs, out_ptrs).ok());
  EXPECT_EQ(evaluator->stats().batches, 1);
  EXPECT_EQ(evaluator->stats().positions, 12);
  for (size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectNear(outs[i], Direct(*model, games[i]));
  }
}

TEST(BatchedEvaluatorTest, ABatchLargerThanTheLimitSplitsIntoForwards) {
  std::unique_ptr<Model> model = TinyModel();
  auto evaluator = MakeEvaluator(*model, 2, 4, 1000000);
  std::vector<Game> games;
  for (int seed = 0; seed < 10; ++seed) games.push_back(RandomGame(seed, 20));
  std::vector<Evaluation> outs(games.size());
  std::vector<Game*> game_ptrs = PointersTo(games);
  std::vector<Evaluation*> out_ptrs = PointersTo(outs);
  ASSERT_TRUE(evaluator->EvaluateBatch(game_ptrs, out_ptrs).ok());
  EXPECT_EQ(evaluator->stats().batches, 3);  // 4 + 4 + 2
  for (size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectNear(outs[i], Direct(*model, games[i]));
  }
  // One position the network cannot play fails the call before any
  // forward.
  Game big = MakeGame("h8", Variant::kFreestyle, 19);
  game_ptrs.push_back(&big);
  out_ptrs.push_back(&outs[0]);
  EXPECT_EQ(evaluator->EvaluateBatch(game_ptrs, out_ptrs).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(evaluator->stats().batches, 3);
  evaluator->Shutdown();
  game_ptrs.pop_back();
  out_ptrs.pop_back();
  EXPECT_EQ(evaluator->EvaluateBatch(game_ptrs, out_ptrs).code(),
            absl::StatusCode::kUnavailable);
}

TEST(BatchedEvaluatorTest, MetricsSeeEachForwardAndEachCall) {
  std::unique_ptr<Model> model = TinyModel();
  MetricsRegistry registry;
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(*model->Clone());
  BatchedEvaluatorOptions options;
  options.max_batch_size = 4;
  // A batch call's positions are queued together, so its forwards are 4,
  // 4 and 2 whatever the wait; the lone call then waits only briefly.
  options.max_wait_us = 1000;
  options.metrics = RegisterEvaluatorMetrics(registry);
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(std::move(models), options);
  ASSERT_TRUE(evaluator.ok()) << evaluator.status();
  std::vector<Game> games;
  for (int seed = 0; seed < 10; ++seed) games.push_back(RandomGame(seed, 20));
  std::vector<Evaluation> outs(games.size());
  ASSERT_TRUE(
      (*evaluator)->EvaluateBatch(PointersTo(games), PointersTo(outs)).ok());
  Evaluation one;
  ASSERT_TRUE((*evaluator)->Evaluate(games[0], one).ok());  // a short batch
  // Forwards of 4, 4, 2 and 1 positions; two calls.
  const Histogram::Snapshot sizes = options.metrics.batch_size->snapshot();
  EXPECT_EQ(sizes.count, 4u);
  EXPECT_EQ(sizes.sum, 11);
  // Bounds 1, 2, 4, ...: one forward of 1, two of up to 2, four of up to 4.
  EXPECT_EQ(sizes.cumulative_counts[0], 1u);
  EXPECT_EQ(sizes.cumulative_counts[1], 2u);
  EXPECT_EQ(sizes.cumulative_counts[2], 4u);
  const Histogram::Snapshot latency =
      options.metrics.latency_seconds->snapshot();
  EXPECT_EQ(latency.count, 2u);
  EXPECT_GT(latency.sum, 0);
}

TEST(BatchedEvaluatorTest, WrongBoardSizeAndUntrainedVariant) {
  std::unique_ptr<Model> model = TinyModel();
  model->mutable_info().variants = {Variant::kRenju};
  auto evaluator = MakeEvaluator(*model, 1, 8, 0);
  Game big = MakeGame("h8", Variant::kFreestyle, 19);
  Game freestyle = MakeGame("h8", Variant::kFreestyle);
  Evaluation out;
  absl::Status status = evaluator->Evaluate(big, out);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "position on a 19x19 board; the network plays 15x15");
  status = evaluator->Evaluate(freestyle, out);
  EXPECT_EQ(status.message(), "the network was not trained for freestyle");
}

TEST(BatchedEvaluatorTest, CreateChecksItsArguments) {
  BatchedEvaluatorOptions options;
  EXPECT_FALSE(BatchedEvaluator::Create({}, options).ok());
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(TinyModel());
  options.max_batch_size = 0;
  EXPECT_EQ(
      BatchedEvaluator::Create(std::move(models), options).status().message(),
      "batched evaluator: max_batch_size is 0, expected 1..4096");
}

}  // namespace
}  // namespace renju
