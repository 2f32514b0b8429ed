// The fake evaluators' contract (masking, normalisation, determinism) and
// SearchParams validation.
#include <cmath>

#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "search/fake_evaluators.h"
#include "search/legal_moves.h"
#include "search/search_params.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Pt;

// Black g10 h10 i8 h7: h9 is a double-three.
Game PositionWithForbiddenPoint() {
  Game game = MakeGame("g10 h10 i8 h7", "a1 a3 o15 o13");
  EXPECT_TRUE(IsForbidden(game.mutable_board(), Pt("h9")));
  return game;
}

void ExpectMaskedAndNormalised(Evaluator& evaluator, Game& game) {
  const uint64_t hash = game.hash();
  Evaluation eval;
  ASSERT_TRUE(evaluator.Evaluate(game, eval).ok());
  EXPECT_EQ(game.hash(), hash);
  ASSERT_EQ(eval.policy.size(), 225u);
  const PointSet legal = LegalPointSet(game);
  double sum = 0;
  for (int y = 0; y < 15; ++y) {
    for (int x = 0; x < 15; ++x) {
      const float p = eval.policy[PolicyIndex(Point(x, y), 15)];
      if (legal.Contains(Point(x, y))) {
        EXPECT_GT(p, 0) << PointName(Point(x, y));
      } else {
        EXPECT_EQ(p, 0) << PointName(Point(x, y));
      }
      sum += p;
    }
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
  EXPECT_NEAR(eval.win + eval.draw + eval.loss, 1.0f, 1e-6f);
}

TEST(FakeEvaluatorsTest, FixedEvaluatorMasksOccupiedAndForbiddenPoints) {
  Game game = PositionWithForbiddenPoint();
  FixedEvaluator evaluator(0.5f, 0.1f, 0.4f);
  ExpectMaskedAndNormalised(evaluator, game);
  Evaluation eval;
  ASSERT_TRUE(evaluator.Evaluate(game, eval).ok());
  EXPECT_EQ(eval.policy[PolicyIndex(Pt("h9"), 15)], 0.0f);
  EXPECT_EQ(eval.win, 0.5f);
  EXPECT_EQ(evaluator.num_evaluations(), 2);
}

TEST(FakeEvaluatorsTest, FixedEvaluatorRenormalisesGivenPriors) {
  Game game = PositionWithForbiddenPoint();
  std::vector<float> priors(225, 0.0f);
  priors[PolicyIndex(Pt("h9"), 15)] = 0.5f;  // forbidden: masked
  priors[PolicyIndex(Pt("a1"), 15)] = 0.2f;  // occupied: masked
  priors[PolicyIndex(Pt("b2"), 15)] = 0.1f;
  priors[PolicyIndex(Pt("c3"), 15)] = 0.3f;
  FixedEvaluator evaluator(priors, 1.0f, 0.0f, 0.0f);
  Evaluation eval;
  ASSERT_TRUE(evaluator.Evaluate(game, eval).ok());
  EXPECT_FLOAT_EQ(eval.policy[PolicyIndex(Pt("b2"), 15)], 0.25f);
  EXPECT_FLOAT_EQ(eval.policy[PolicyIndex(Pt("c3"), 15)], 0.75f);
  EXPECT_EQ(eval.policy[PolicyIndex(Pt("h9"), 15)], 0.0f);

  FixedEvaluator wrong_size(std::vector<float>(10, 0.1f), 1, 0, 0);
  EXPECT_FALSE(wrong_size.Evaluate(game, eval).ok());
}

TEST(FakeEvaluatorsTest, RandomEvaluatorIsAFunctionOfSeedAndPosition) {
  Game game = PositionWithForbiddenPoint();
  RandomEvaluator evaluator(17);
  ExpectMaskedAndNormalised(evaluator, game);
  Evaluation a, b, c;
  ASSERT_TRUE(evaluator.Evaluate(game, a).ok());
  ASSERT_TRUE(evaluator.Evaluate(game, b).ok());
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.win, b.win);
  RandomEvaluator other(18);
  ASSERT_TRUE(other.Evaluate(game, c).ok());
  EXPECT_NE(a.policy, c.policy);
}

TEST(FakeEvaluatorsTest, WhiteMayPlayBlacksForbiddenPoints) {
  Game game = MakeGame("g10 h10 i8 h7 a15", "a1 a3 o15 o13", Color::kWhite);
  RandomEvaluator evaluator(1);
  Evaluation eval;
  ASSERT_TRUE(evaluator.Evaluate(game, eval).ok());
  EXPECT_GT(eval.policy[PolicyIndex(Pt("h9"), 15)], 0.0f);
}

TEST(FakeEvaluatorsTest, FinishedGameIsAnError) {
  absl::StatusOr<Game> game = Game::FromMoves(
      Variant::kRenju, 15, *ParseMoveList("h8 a1 i8 a2 j8 a3 k8 a4 l8", 15));
  ASSERT_TRUE(game.ok());
  FixedEvaluator fixed;
  RandomEvaluator random(1);
  Evaluation eval;
  EXPECT_EQ(fixed.Evaluate(*game, eval).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(random.Evaluate(*game, eval).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(SearchParamsTest, DefaultsAreValid) {
  EXPECT_TRUE(SearchParams().Validate().ok());
}

TEST(SearchParamsTest, ErrorsNameTheFieldAndValue) {
  SearchParams p;
  p.c_puct = -1;
  absl::Status s = p.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("c_puct = -1"), absl::string_view::npos)
      << s.message();

  p = SearchParams();
  p.max_visits = 0;
  p.max_time_ms = 0;
  EXPECT_NE(p.Validate().message().find("max_visits"), absl::string_view::npos);

  p = SearchParams();
  p.playout_cap_randomisation = true;
  p.cheap_visits = p.max_visits + 1;
  s = p.Validate();
  EXPECT_NE(s.message().find("cheap_visits = 801"), absl::string_view::npos)
      << s.message();

  p = SearchParams();
  p.dirichlet_weight = std::nanf("");
  EXPECT_FALSE(p.Validate().ok());

  p = SearchParams();
  p.num_threads = 0;
  EXPECT_NE(p.Validate().message().find("num_threads"),
            absl::string_view::npos);

  p = SearchParams();
  p.gumbel_considered_moves = 0;
  EXPECT_NE(p.Validate().message().find("gumbel_considered_moves = 0"),
            absl::string_view::npos);
  p = SearchParams();
  p.gumbel_c_scale = -1;
  EXPECT_NE(p.Validate().message().find("gumbel_c_scale = -1"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace renju
