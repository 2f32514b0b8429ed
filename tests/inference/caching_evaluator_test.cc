#include "inference/caching_evaluator.h"

#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/inference/test_util.h"

namespace renju {
namespace {

using ::renju::testing::LastMoveEvaluator;
using ::renju::testing::MakeGame;

class FailingEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game&, Evaluation&) override {
    ++calls;
    return absl::UnavailableError("server down");
  }
  int calls = 0;
};

TEST(CachingEvaluatorTest, RepeatedPositionHits) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024);
  Game game = MakeGame("h8 h9 c4");
  Evaluation first;
  Evaluation second;
  ASSERT_TRUE(cache.Evaluate(game, first).ok());
  ASSERT_TRUE(cache.Evaluate(game, second).ok());
  EXPECT_EQ(inner.calls.load(), 1);
  EXPECT_EQ(second.policy, first.policy);
  EXPECT_EQ(second.draw, first.draw);
  const CacheStats stats = cache.stats();
  EXPECT_EQ(stats.lookups, 2);
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.entries, 1);
  EXPECT_DOUBLE_EQ(stats.hit_rate(), 0.5);
}

TEST(CachingEvaluatorTest, TranspositionHits) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024);
  Game a = MakeGame("h8 h9 c4 d5");
  Game b = MakeGame("c4 d5 h8 h9");
  Evaluation out;
  ASSERT_TRUE(cache.Evaluate(a, out).ok());
  ASSERT_TRUE(cache.Evaluate(b, out).ok());
  EXPECT_EQ(inner.calls.load(), 1);
}

TEST(CachingEvaluatorTest, VariantSideToMoveAndSizeAreInTheKey) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024);
  Game renju = MakeGame("h8 h9");
  Game standard = MakeGame("h8 h9", Variant::kStandard);
  Game with_pass = MakeGame("h8 h9 pass");  // same stones, white to move
  Game big = MakeGame("h8 h9", Variant::kStandard, 19);
  Evaluation out;
  for (Game* g : {&renju, &standard, &with_pass, &big}) {
    ASSERT_TRUE(cache.Evaluate(*g, out).ok());
  }
  EXPECT_EQ(inner.calls.load(), 4);
  EXPECT_EQ(cache.stats().hits, 0);
}

TEST(CachingEvaluatorTest, SizeStaysBounded) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 8);
  Evaluation out;
  for (int x = 0; x < 15; ++x) {
    for (int y = 0; y < 15; ++y) {
      Game game(Variant::kFreestyle, 15);
      ASSERT_TRUE(game.Play(Move::At(Point(x, y))).ok());
      ASSERT_TRUE(cache.Evaluate(game, out).ok());
    }
  }
  const CacheStats stats = cache.stats();
  EXPECT_EQ(stats.capacity, 8);
  EXPECT_LE(stats.entries, 8);
  EXPECT_GE(stats.entries, 4);  // 225 keys fill most of 8 slots
  EXPECT_EQ(inner.calls.load(), 225);
}

TEST(CachingEvaluatorTest, ErrorsAreNotCached) {
  FailingEvaluator inner;
  CachingEvaluator cache(inner, 16);
  Game game = MakeGame("h8");
  Evaluation out;
  EXPECT_EQ(cache.Evaluate(game, out).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(cache.Evaluate(game, out).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(inner.calls, 2);
  EXPECT_EQ(cache.stats().entries, 0);
}

TEST(CachingEvaluatorTest, ConcurrentCallersAgree) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 64);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Evaluation out;
      for (int i = 0; i < 200; ++i) {
        Game game(Variant::kRenju, 15);
        const Point p((i + t) % 15, 3);
        EXPECT_TRUE(game.Play(Move::At(p)).ok());
        EXPECT_TRUE(cache.Evaluate(game, out).ok());
        if (out.policy[p.y * 15 + p.x] != 1.0f) ++mismatches;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(cache.stats().hits, 0);
}

}  // namespace
}  // namespace renju
