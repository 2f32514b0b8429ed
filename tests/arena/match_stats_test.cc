// Elo, interval and SPRT arithmetic against hand-computed cases and
// fishtest's published self-test numbers.
#include "arena/match_stats.h"

#include "gtest/gtest.h"

namespace renju {
namespace {

Pentanomial Make(std::array<int64_t, 5> counts) {
  Pentanomial p;
  p.counts = counts;
  return p;
}

TEST(MatchStatsTest, PairsFromGameScores) {
  Pentanomial p;
  p.AddPair(1, 1);      // won both: 2 points
  p.AddPair(1, 0);      // split: 1 point
  p.AddPair(0.5, 0.5);  // two draws: 1 point
  p.AddPair(0, 0.5);    // a loss and a draw: 1/2 point
  EXPECT_EQ(p.counts, (std::array<int64_t, 5>{0, 1, 2, 0, 1}));
  EXPECT_EQ(p.pairs(), 4);
  EXPECT_EQ(p.games(), 8);
}

TEST(MatchStatsTest, EloOfTheToyPentanomialByHand) {
  // 370 pairs: points = 60*0.5 + 190*1 + 70*1.5 + 30*2 = 385 of 740 games.
  const EloEstimate e = EstimateElo(Make({20, 60, 190, 70, 30}));
  EXPECT_NEAR(e.score, 385.0 / 740.0, 1e-9);
  // Elo = -400 log10(740/385 - 1) = 14.093.
  EXPECT_NEAR(e.elo, 14.093, 1e-3);
  EXPECT_NEAR(e.elo_error, 16.695, 1e-3);
  EXPECT_NEAR(e.los, 0.9513, 1e-4);
  EXPECT_LT(e.elo_low, e.elo);
  EXPECT_GT(e.elo_high, e.elo);
}

TEST(MatchStatsTest, FishtestSelfTestNumbers) {
  const Pentanomial p = Make({10789, 19328, 33806, 19402, 10543});
  const EloEstimate e = EstimateElo(p);
  EXPECT_NEAR(e.elo, -0.7736, 1e-3);
  EXPECT_NEAR(e.elo_error, 1.2776, 1e-3);
  EXPECT_NEAR(SprtLlr(p, {-3, 1, 0.05, 0.05}), 2.1311, 1e-3);
  EXPECT_NEAR(SprtLlr(p, {0, 5, 0.05, 0.05}), -38.514, 1e-2);
  EXPECT_EQ(SprtDecide(SprtLlr(p, {0, 5, 0.05, 0.05}), {0, 5, 0.05, 0.05}),
            SprtDecision::kAcceptH0);
}

TEST(MatchStatsTest, SprtOfTheToyPentanomialContinues) {
  const SprtParams params{0, 10, 0.05, 0.05};
  ASSERT_TRUE(params.Validate().ok());
  EXPECT_NEAR(params.lower_bound(), -2.9444, 1e-4);
  EXPECT_NEAR(params.upper_bound(), 2.9444, 1e-4);
  const double llr = SprtLlr(Make({20, 60, 190, 70, 30}), params);
  EXPECT_NEAR(llr, 1.2547, 1e-3);
  EXPECT_EQ(SprtDecide(llr, params), SprtDecision::kContinue);
}

TEST(MatchStatsTest, GatingSizedTestsDecideBothWays) {
  // 100 pairs around +117 Elo accept H1 of a 0-vs-50 test; the mirror
  // image accepts H0; an even match with 100 pairs accepts H0 too (it is
  // evidence against +50).
  const SprtParams params{0, 50, 0.05, 0.05};
  const Pentanomial better = Make({5, 10, 30, 25, 30});
  EXPECT_NEAR(SprtLlr(better, params), 8.637, 1e-2);
  EXPECT_EQ(SprtDecide(SprtLlr(better, params), params),
            SprtDecision::kAcceptH1);
  EXPECT_NEAR(EstimateElo(better).elo, 117.16, 1e-2);
  const Pentanomial worse = Make({30, 25, 30, 10, 5});
  EXPECT_EQ(SprtDecide(SprtLlr(worse, params), params),
            SprtDecision::kAcceptH0);
  const Pentanomial even = Make({10, 20, 40, 20, 10});
  EXPECT_NEAR(SprtLlr(even, params), -3.352, 1e-2);
  EXPECT_EQ(SprtDecide(SprtLlr(even, params), params), SprtDecision::kAcceptH0);
}

TEST(MatchStatsTest, EvenResultIsZeroEloWithAFiniteInterval) {
  const EloEstimate e = EstimateElo(Make({0, 0, 20, 0, 0}));
  EXPECT_NEAR(e.elo, 0, 1e-9);
  EXPECT_GT(e.elo_error, 0);
  EXPECT_LT(e.elo_error, 10);
  EXPECT_EQ(SprtLlr(Pentanomial{}, {0, 10, 0.05, 0.05}), 0);
}

TEST(MatchStatsTest, ScoreEloConversions) {
  EXPECT_NEAR(EloToScore(0), 0.5, 1e-12);
  EXPECT_NEAR(EloToScore(400), 10.0 / 11.0, 1e-12);
  EXPECT_NEAR(ScoreToElo(10.0 / 11.0), 400, 1e-9);
}

TEST(MatchStatsTest, InvalidSprtParams) {
  EXPECT_EQ(SprtParams({10, 0, 0.05, 0.05}).Validate().message(),
            "sprt: elo0 (10) must be below elo1 (0)");
  EXPECT_EQ(SprtParams({0, 10, 0.7, 0.05}).Validate().message(),
            "sprt: alpha = 0.7 is outside (0, 0.5)");
  // At 0.5 both bounds are ln 1 = 0 and the first pair would decide.
  EXPECT_EQ(SprtParams({0, 10, 0.05, 0.5}).Validate().message(),
            "sprt: beta = 0.5 is outside (0, 0.5)");
  EXPECT_FALSE(SprtParams({0, 10, 0, 0.05}).Validate().ok());
  EXPECT_TRUE(SprtParams({0, 10, 0.499, 0.001}).Validate().ok());
}

}  // namespace
}  // namespace renju
