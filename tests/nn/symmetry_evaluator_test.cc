#include "nn/symmetry_evaluator.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::IndexOf;
using ::renju::testing::LastMoveEvaluator;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;

// Gives every point a distinct prior that depends on the stones too, and
// remembers the last position it saw.
class RecordingEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    const int area = game.size() * game.size();
    out.policy.resize(area);
    float sum = 0;
    for (int i = 0; i < area; ++i) {
      const Point p(i % game.size(), i / game.size());
      out.policy[i] = game.board().IsEmpty(p) ? 1.0f + i % 7 + 0.01f * i : 0;
      sum += out.policy[i];
    }
    for (float& x : out.policy) x /= sum;
    out.win = 0.25f;
    out.draw = 0.25f;
    out.loss = 0.5f;
    seen_moves = game.moves();
    return absl::OkStatus();
  }
  std::vector<Move> seen_moves;
};

SymmetryOptions Fixed(Symmetry s) {
  SymmetryOptions options;
  options.random = false;
  options.fixed = s;
  return options;
}

SymmetryOptions Random(uint64_t seed) {
  SymmetryOptions options;
  options.seed = seed;
  return options;
}

class SymmetryEvaluatorTest : public ::testing::TestWithParam<int> {
 protected:
  Symmetry symmetry() const { return static_cast<Symmetry>(GetParam()); }
};

TEST_P(SymmetryEvaluatorTest, MapsThePolicyBack) {
  LastMoveEvaluator inner;
  SymmetryEvaluator evaluator(inner, Fixed(symmetry()));
  // c4 is off every axis and diagonal, so each symmetry moves it elsewhere.
  Game game = MakeGame("h8 c4");
  Evaluation out;
  ASSERT_TRUE(evaluator.Evaluate(game, out).ok());
  for (int i = 0; i < 225; ++i) {
    EXPECT_EQ(out.policy[i], i == IndexOf(Pt("c4")) ? 1.0f : 0.0f) << i;
  }
  EXPECT_FLOAT_EQ(out.win, 0.5f);
}

TEST_P(SymmetryEvaluatorTest, InnerSeesTheTransformedGame) {
  RecordingEvaluator inner;
  SymmetryEvaluator evaluator(inner, Fixed(symmetry()));
  Game game = MakeGame("h8 c4 pass d2");
  Evaluation out;
  ASSERT_TRUE(evaluator.Evaluate(game, out).ok());
  EXPECT_EQ(inner.seen_moves, ApplySymmetry(symmetry(), game.moves(), 15));
}

TEST_P(SymmetryEvaluatorTest, RoundTripsThroughTheInverse) {
  RecordingEvaluator inner;
  SymmetryEvaluator inverse(inner, Fixed(InverseSymmetry(symmetry())));
  SymmetryEvaluator evaluator(inverse, Fixed(symmetry()));
  Game game = MakeGame("h8 c4 d2 k13", Variant::kFreestyle);
  Evaluation direct;
  Evaluation round_trip;
  ASSERT_TRUE(inner.Evaluate(game, direct).ok());
  ASSERT_TRUE(evaluator.Evaluate(game, round_trip).ok());
  EXPECT_EQ(inner.seen_moves, game.moves());
  EXPECT_EQ(round_trip.policy, direct.policy);
  EXPECT_EQ(round_trip.loss, direct.loss);
}

INSTANTIATE_TEST_SUITE_P(AllSymmetries, SymmetryEvaluatorTest,
                         ::testing::Range(0, kNumSymmetries));

TEST(SymmetryEvaluatorRandomTest, DrawsEverySymmetryAndMapsBack) {
  RecordingEvaluator recorder;
  SymmetryEvaluator evaluator(recorder, Random(7));
  LastMoveEvaluator last_move;
  SymmetryEvaluator mapped(last_move, Random(7));
  Game game = MakeGame("h8 c4");
  std::set<std::string> seen;
  Evaluation out;
  for (int i = 0; i < 64; ++i) {
    ASSERT_TRUE(evaluator.Evaluate(game, out).ok());
    seen.insert(MoveListString(recorder.seen_moves));
    ASSERT_TRUE(mapped.Evaluate(game, out).ok());
    EXPECT_EQ(out.policy[IndexOf(Pt("c4"))], 1.0f);
  }
  EXPECT_EQ(seen.size(), 8u);
}

TEST(SymmetryEvaluatorRandomTest, ABatchMatchesTheSameCallsOneByOne) {
  LastMoveEvaluator one_inner;
  LastMoveEvaluator batch_inner;
  SymmetryEvaluator one(one_inner, Random(5));
  SymmetryEvaluator batch(batch_inner, Random(5));
  std::vector<Game> games;
  for (const char* moves : {"h8 c4", "h8 i9 d3", "a1", "h8 h9 m12 b2"}) {
    games.push_back(MakeGame(moves));
  }
  std::vector<Evaluation> singles(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    ASSERT_TRUE(one.Evaluate(games[i], singles[i]).ok());
  }
  std::vector<Evaluation> batched(games.size());
  std::vector<Game*> game_ptrs;
  std::vector<Evaluation*> out_ptrs;
  for (size_t i = 0; i < games.size(); ++i) {
    game_ptrs.push_back(&games[i]);
    out_ptrs.push_back(&batched[i]);
  }
  ASSERT_TRUE(batch.EvaluateBatch(game_ptrs, out_ptrs).ok());
  EXPECT_EQ(batch_inner.batch_calls.load(), 1);
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(batched[i].policy, singles[i].policy) << i;
    // Mapped back: the last move's point carries the prior.
    EXPECT_EQ(batched[i].policy[IndexOf(games[i].moves().back().point())],
              1.0f);
  }
}

TEST(SymmetryEvaluatorRandomTest, SameSeedSameSequence) {
  RecordingEvaluator a_inner;
  RecordingEvaluator b_inner;
  SymmetryEvaluator a(a_inner, Random(11));
  SymmetryEvaluator b(b_inner, Random(11));
  Game game = MakeGame("c4");
  Evaluation out;
  for (int i = 0; i < 16; ++i) {
    ASSERT_TRUE(a.Evaluate(game, out).ok());
    ASSERT_TRUE(b.Evaluate(game, out).ok());
    EXPECT_EQ(a_inner.seen_moves, b_inner.seen_moves);
  }
}

}  // namespace
}  // namespace renju
