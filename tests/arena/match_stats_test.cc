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

TEST(MatchStatsTest, EvenResultIsZeroEloWithAnHonestInterval) {
  // 20 drawn (or split) pairs: the pentanomial variance is ~0 (+-1.7 Elo),
  // so the interval is Wilson's on 40 games at score 1/2, by hand with z =
  // 1.96: (1/2 +- z sqrt(1/160 + z^2/6400)) / (1 + z^2/40) = [0.35200,
  // 0.64800], and 400 log10(0.64800 / 0.35200) = 106.017 Elo.
  const EloEstimate e = EstimateElo(Make({0, 0, 20, 0, 0}));
  EXPECT_NEAR(e.elo, 0, 1e-9);
  EXPECT_TRUE(e.conservative);
  EXPECT_NEAR(e.elo_low, -106.017, 1e-3);
  EXPECT_NEAR(e.elo_high, 106.017, 1e-3);
  EXPECT_NEAR(e.elo_error, 106.017, 1e-3);
  EXPECT_FALSE(e.low_unbounded || e.high_unbounded);
  EXPECT_NEAR(e.los, 0.5, 1e-12);
  EXPECT_EQ(EloIntervalText(e, 0), "+0 ± 106");
  EXPECT_EQ(SprtLlr(Pentanomial{}, {0, 10, 0.05, 0.05}), 0);
  // All in one cell stays conservative however many pairs there are.
  EXPECT_TRUE(EstimateElo(Make({0, 0, 200, 0, 0})).conservative);
}

TEST(MatchStatsTest, OneWonPairIsUnboundedAboveWithAWilsonLowerBound) {
  // Wilson on 2 games, 2 wins, z = 1.96: centre (1 + z^2/4) / (1 + z^2/2)
  // = 0.671188, half-width z sqrt(z^2/16) / (1 + z^2/2) = 0.328808, so
  // [0.342380, 1]; 400 log10(0.342380 / 0.657620) = -113.386 Elo. The score
  // test's LOS: Phi((1 - 1/2) / sqrt(1/8)) = Phi(sqrt 2) = 0.921350.
  const EloEstimate e = EstimateElo(Make({0, 0, 0, 0, 1}));
  EXPECT_TRUE(e.conservative);
  EXPECT_NEAR(e.elo_low, -113.386, 1e-3);
  EXPECT_FALSE(e.low_unbounded);
  EXPECT_TRUE(e.high_unbounded);
  EXPECT_NEAR(e.los, 0.921350, 1e-6);
  EXPECT_EQ(EloIntervalText(e, 1), ">= -113.4");
  // The mirror image.
  const EloEstimate lost = EstimateElo(Make({1, 0, 0, 0, 0}));
  EXPECT_TRUE(lost.low_unbounded);
  EXPECT_NEAR(lost.elo_high, 113.386, 1e-3);
  EXPECT_NEAR(lost.los, 1 - 0.921350, 1e-6);
  EXPECT_EQ(EloIntervalText(lost, 0), "<= +113");
  // Nothing played: both sides unbounded.
  EXPECT_EQ(EloIntervalText(EstimateElo(Pentanomial{}), 0), "unbounded");
}

TEST(MatchStatsTest, WilsonIntervalByHand) {
  // 3 of 4 (p = 0.75, n = 4, z = 1.96): centre (0.75 + 0.480183) /
  // 1.960365 = 0.627527, half 0.999793 sqrt(0.046875 + 0.060023) =
  // 0.326885.
  const auto [low, high] = WilsonInterval(0.75, 4);
  EXPECT_NEAR(low, 0.300642, 1e-5);
  EXPECT_NEAR(high, 0.954413, 1e-5);
}

TEST(MatchStatsTest, SmallGatingMatchesCannotReachTheBounds) {
  // GSPRT LLR_logistic (fishtest) of n pairs all won / all lost, at
  // alpha = beta = 0.05 (bounds +-2.944): 20 pairs at (0, 35) reach
  // +1.914 / -2.116, 10 pairs at (0, 50) +1.336 / -1.543. All won first
  // crosses 2.944 at 31 pairs for (0, 35) and 23 for (0, 50).
  const SprtParams s35{0, 35, 0.05, 0.05};
  const SprtParams s50{0, 50, 0.05, 0.05};
  EXPECT_NEAR(SprtLlrExtremes(s35, 20).first, 1.9136, 1e-3);
  EXPECT_NEAR(SprtLlrExtremes(s35, 20).second, -2.1163, 1e-3);
  EXPECT_NEAR(SprtLlrExtremes(s50, 10).first, 1.3362, 1e-3);
  EXPECT_NEAR(SprtLlrExtremes(s50, 10).second, -1.5426, 1e-3);
  EXPECT_EQ(SprtMinimumPairs(s35, 50000), 31);
  EXPECT_EQ(SprtMinimumPairs(s50, 50000), 23);
  EXPECT_EQ(SprtMinimumPairs(s35, 30), 0);
  EXPECT_EQ(SprtMinimumPairs(s35, 31), 31);
}

TEST(MatchStatsTest, AllWonAndAllLostAreTheExtremesOfTheLlr) {
  // What SprtMinimumPairs relies on: over every pentanomial of 12 pairs,
  // the LLR lies between those of all lost and all won.
  const SprtParams params{0, 35, 0.05, 0.05};
  const auto [won, lost] = SprtLlrExtremes(params, 12);
  int results = 0;
  for (int64_t a = 0; a <= 12; ++a) {
    for (int64_t b = 0; a + b <= 12; ++b) {
      for (int64_t c = 0; a + b + c <= 12; ++c) {
        for (int64_t d = 0; a + b + c + d <= 12; ++d) {
          const double llr =
              SprtLlr(Make({a, b, c, d, 12 - a - b - c - d}), params);
          EXPECT_LE(llr, won + 1e-9);
          EXPECT_GE(llr, lost - 1e-9);
          ++results;
        }
      }
    }
  }
  EXPECT_EQ(results, 1820);  // C(16, 4)
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
