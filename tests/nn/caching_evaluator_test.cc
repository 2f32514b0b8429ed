#include "nn/caching_evaluator.h"

#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/nn/test_util.h"

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
  CachingEvaluator cache(inner, 1024, 15);
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

TEST(CachingEvaluatorTest, ABatchAnswersHitsAndAsksForTheMissesTogether) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024, 15);
  Game cached = MakeGame("h8 h9 c4");
  Game new_a = MakeGame("h8 h9 d5");
  Game new_b = MakeGame("h8 h9 e6");
  Evaluation alone;
  ASSERT_TRUE(cache.Evaluate(cached, alone).ok());
  Evaluation outs[3];
  std::vector<Game*> games = {&new_a, &cached, &new_b};
  std::vector<Evaluation*> out_ptrs = {&outs[0], &outs[1], &outs[2]};
  ASSERT_TRUE(cache.EvaluateBatch(games, out_ptrs).ok());
  EXPECT_EQ(inner.batch_calls.load(), 1);
  EXPECT_EQ(inner.calls.load(), 3) << "the cached position is not asked again";
  EXPECT_EQ(outs[1].policy, alone.policy);
  for (int i : {0, 2}) {
    Evaluation direct;
    ASSERT_TRUE(inner.Evaluate(*games[i], direct).ok());
    EXPECT_EQ(outs[i].policy, direct.policy);
    EXPECT_EQ(outs[i].draw, direct.draw);
  }
  // The misses were stored: the same batch again asks nothing.
  ASSERT_TRUE(cache.EvaluateBatch(games, out_ptrs).ok());
  EXPECT_EQ(inner.batch_calls.load(), 1);
  EXPECT_EQ(cache.stats().hits, 4);
}

TEST(CachingEvaluatorTest, TranspositionHits) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024, 15);
  Game a = MakeGame("h8 h9 c4 d5");
  Game b = MakeGame("c4 d5 h8 h9");
  Evaluation out;
  ASSERT_TRUE(cache.Evaluate(a, out).ok());
  ASSERT_TRUE(cache.Evaluate(b, out).ok());
  EXPECT_EQ(inner.calls.load(), 1);
}

TEST(CachingEvaluatorTest, VariantAndSideToMoveAreInTheKey) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024, 15);
  Game renju = MakeGame("h8 h9");
  Game standard = MakeGame("h8 h9", Variant::kStandard);
  Game with_pass = MakeGame("h8 h9 pass");  // same stones, white to move
  Evaluation out;
  for (Game* g : {&renju, &standard, &with_pass}) {
    ASSERT_TRUE(cache.Evaluate(*g, out).ok());
  }
  EXPECT_EQ(inner.calls.load(), 3);
  EXPECT_EQ(cache.stats().hits, 0);
  EXPECT_EQ(cache.stats().entries, 3);
}

TEST(CachingEvaluatorTest, OtherBoardSizesPassThroughUncached) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1024, 15);
  Game big = MakeGame("h8 h9", Variant::kStandard, 19);
  Evaluation out;
  ASSERT_TRUE(cache.Evaluate(big, out).ok());
  ASSERT_TRUE(cache.Evaluate(big, out).ok());
  EXPECT_EQ(inner.calls.load(), 2);
  EXPECT_EQ(out.policy.size(), 19u * 19u);
  EXPECT_EQ(cache.stats().lookups, 0);
  EXPECT_EQ(cache.stats().entries, 0);
}

TEST(CachingEvaluatorTest, HitRestoresTheWholeEvaluation) {
  // Two positions in one slot (capacity 1): the second evicts the first, and
  // a hit must give back exactly what was stored, not a mix of the two.
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 1, 15);
  Game a = MakeGame("h8");
  Game b = MakeGame("c3 d4");
  Evaluation first_a, first_b, again;
  ASSERT_TRUE(cache.Evaluate(a, first_a).ok());
  ASSERT_TRUE(cache.Evaluate(b, first_b).ok());
  ASSERT_TRUE(cache.Evaluate(b, again).ok());
  EXPECT_EQ(inner.calls.load(), 2);
  EXPECT_EQ(again.policy, first_b.policy);
  EXPECT_EQ(again.win, first_b.win);
  EXPECT_EQ(again.draw, first_b.draw);
  EXPECT_EQ(again.loss, first_b.loss);
  ASSERT_TRUE(cache.Evaluate(a, again).ok());  // evicted: asks inner again
  EXPECT_EQ(inner.calls.load(), 3);
  EXPECT_EQ(again.policy, first_a.policy);
}

TEST(CachingEvaluatorTest, SizeStaysBounded) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 8, 15);
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
  CachingEvaluator cache(inner, 16, 15);
  Game game = MakeGame("h8");
  Evaluation out;
  EXPECT_EQ(cache.Evaluate(game, out).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(cache.Evaluate(game, out).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(inner.calls, 2);
  EXPECT_EQ(cache.stats().entries, 0);
}

TEST(CachingEvaluatorTest, ConcurrentCallersAgree) {
  LastMoveEvaluator inner;
  CachingEvaluator cache(inner, 64, 15);
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
