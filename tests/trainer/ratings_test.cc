// Ratings over generations: the maximum-likelihood Elo on hand-checked
// cases, with and without anchors, the exports, and the gating rule in the
// rows. The match table in SQLite and the gnuplot PNGs:
// ratings_store_test.cc.
#include "trainer/ratings.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/trainer/ratings_test_util.h"

namespace renju {
namespace {

using testing::AnchorMatch;
using testing::Elo;
using testing::kPlainMle;
using testing::Match;
using testing::Of;
using testing::WithAnchors;

// The 95% half-width for n games at expected score p: 1.96 / sqrt(Fisher
// information), with d(score)/d(Elo) = ln(10) / 400 * p (1 - p).
double Error95(double n, double p) {
  const double c = std::log(10.0) / 400;
  return 1.959963984540054 / (c * std::sqrt(n * p * (1 - p)));
}

TEST(RatingsTest, TwoGenerationsGetTheEloOfTheirScore) {
  // 30 of 40 points: 0.75 -> +190.85 Elo, whichever way round it is stored.
  for (const MatchResult& m :
       {Match(1, 0, 25, 10, 5), Match(0, 1, 5, 10, 25)}) {
    absl::StatusOr<RatingTable> table = ComputeRatings({m}, kPlainMle);
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_EQ(table->ratings.size(), 2u);
    EXPECT_EQ(Of(*table, 0).elo, 0.0);
    EXPECT_EQ(Of(*table, 0).elo_error, 0.0);
    EXPECT_NEAR(Of(*table, 1).elo, Elo(0.75), 1e-6);
    EXPECT_NEAR(Of(*table, 1).elo, 190.849, 1e-3);
    EXPECT_NEAR(Of(*table, 1).elo_error, Error95(40, 0.75), 1e-6);
    EXPECT_NEAR(Of(*table, 1).elo_error, 124.33, 0.01);
    EXPECT_EQ(Of(*table, 1).games, 40);
    EXPECT_DOUBLE_EQ(Of(*table, 1).points, 30.0);
    EXPECT_DOUBLE_EQ(Of(*table, 0).points, 10.0);
  }
}

TEST(RatingsTest, ThreeGenerationsChain) {
  // 1 beats 0 by 75%, 2 beats 1 by 75%: +190.85 and +381.70; the errors
  // of the two links add in quadrature.
  std::vector<MatchResult> matches = {Match(1, 0, 30, 0, 10),
                                      Match(2, 1, 30, 0, 10)};
  absl::StatusOr<RatingTable> table = ComputeRatings(matches, kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, Elo(0.75), 1e-6);
  EXPECT_NEAR(Of(*table, 2).elo, 2 * Elo(0.75), 1e-6);
  EXPECT_NEAR(Of(*table, 2).elo_error, std::sqrt(2.0) * Error95(40, 0.75),
              1e-6);
  EXPECT_EQ(Of(*table, 1).games, 80);

  // A direct match 2 vs 0 that agrees exactly (expected score at 381.70
  // Elo is 0.9) leaves the maximum where it was and narrows gen 2's interval.
  matches.push_back(Match(2, 0, 36, 0, 4));
  table = ComputeRatings(matches, kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, Elo(0.75), 1e-6);
  EXPECT_NEAR(Of(*table, 2).elo, 2 * Elo(0.75), 1e-6);
  EXPECT_LT(Of(*table, 2).elo_error, std::sqrt(2.0) * Error95(40, 0.75));
}

TEST(RatingsTest, DrawsAreHalfPoints) {
  absl::StatusOr<RatingTable> table =
      ComputeRatings({Match(1, 0, 0, 40, 0)}, kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, 0.0, 1e-9);
  table = ComputeRatings({Match(1, 0, 10, 20, 10), Match(1, 0, 5, 0, 0)},
                         kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, Elo(25.0 / 45), 1e-6);
}

TEST(RatingsTest, PriorDrawsKeepOneSidedResultsFinite) {
  // Plain maximum likelihood has no finite answer for a 20-0.
  absl::StatusOr<RatingTable> table =
      ComputeRatings({Match(1, 0, 20, 0, 0)}, kPlainMle);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("generations 1 "), std::string::npos)
      << table.status();
  // One virtual draw: 20.5 of 21.
  table = ComputeRatings({Match(1, 0, 20, 0, 0)});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, Elo(20.5 / 21), 1e-6);
  EXPECT_NEAR(Of(*table, 1).elo, 645.1, 0.1);
  table = ComputeRatings({Match(1, 0, 25, 10, 5)});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 1).elo, Elo(30.5 / 41), 1e-6);
  // A generation that lost everything to one that drew with the anchor.
  table =
      ComputeRatings({Match(1, 0, 0, 10, 0), Match(2, 1, 0, 0, 10)}, kPlainMle);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("generations 2"), std::string::npos)
      << table.status();
  EXPECT_FALSE(ComputeRatings({}, RatingOptions{0, -1, {}}).ok());
}

TEST(RatingsTest, GenerationsNotConnectedToTheAnchorAreUnrated) {
  absl::StatusOr<RatingTable> table =
      ComputeRatings({Match(1, 0, 6, 0, 4), Match(3, 2, 5, 0, 5)});
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->ratings.size(), 2u);
  EXPECT_EQ(table->unrated, (std::vector<int64_t>{2, 3}));
  table = ComputeRatings({});
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->ratings.size(), 1u);
  EXPECT_EQ(table->ratings[0].generation, 0);
}

const Rating& OfAnchor(const RatingTable& table, const std::string& name) {
  for (const Rating& r : table.anchors) {
    if (r.anchor == name) return r;
  }
  ADD_FAILURE() << "no rating for anchor " << name;
  return table.anchors.front();
}

TEST(RatingsAnchorTest, EvenScoreAgainstAFixedAnchorIsItsElo) {
  // 50% against an anchor at 1234 Elo is 1234, with or without the prior.
  for (double prior : {0.0, 1.0}) {
    absl::StatusOr<RatingTable> table =
        ComputeRatings({AnchorMatch(3, "tactical", 15, 10, 15)},
                       WithAnchors({{"tactical", 1234.0}}, prior));
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ(table->anchor_generation, -1);
    ASSERT_EQ(table->ratings.size(), 1u);
    EXPECT_NEAR(Of(*table, 3).elo, 1234.0, 1e-6);
    EXPECT_NEAR(Of(*table, 3).elo_error, Error95(40 + prior, 0.5), 1e-6);
    ASSERT_EQ(table->anchors.size(), 1u);
    const Rating& anchor = OfAnchor(*table, "tactical");
    EXPECT_TRUE(anchor.fixed);
    EXPECT_EQ(anchor.elo, 1234.0);
    EXPECT_EQ(anchor.elo_error, 0.0);
    EXPECT_EQ(anchor.games, 40);
    EXPECT_DOUBLE_EQ(anchor.points, 20.0);
  }
}

TEST(RatingsAnchorTest, GenerationZeroIsNotSpecialWithAnchors) {
  // Generation 0 scores 25% against the anchor at 0; generation 1 scores
  // 75% against generation 0: -190.85 and 0.
  const std::vector<MatchResult> matches = {
      AnchorMatch(0, "tactical", 10, 0, 30), Match(1, 0, 30, 0, 10)};
  absl::StatusOr<RatingTable> table =
      ComputeRatings(matches, WithAnchors({{"tactical", 0.0}}));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_NEAR(Of(*table, 0).elo, -Elo(0.75), 1e-6);
  EXPECT_NEAR(Of(*table, 0).elo_error, Error95(40, 0.75), 1e-6);
  EXPECT_NEAR(Of(*table, 1).elo, 0.0, 1e-6);
  // Without anchors the same matches are rated from generation 0 = 0, and
  // the anchor of those matches is fitted like a generation.
  table = ComputeRatings(matches, kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->anchor_generation, 0);
  EXPECT_EQ(Of(*table, 0).elo, 0.0);
  EXPECT_NEAR(Of(*table, 1).elo, Elo(0.75), 1e-6);
  EXPECT_NEAR(OfAnchor(*table, "tactical").elo, Elo(0.75), 1e-6);
  EXPECT_FALSE(OfAnchor(*table, "tactical").fixed);
}

TEST(RatingsAnchorTest, FittedAnchorsTakeTheirPlaceOnTheScale) {
  // Generations 1 and 2 score 75% and 90% against the tactical anchor at
  // 100; both score 50% against a checkpoint anchor without an elo, which
  // lands between them with an interval of its own.
  const std::vector<MatchResult> matches = {
      AnchorMatch(1, "tactical", 30, 0, 10),
      AnchorMatch(1, "gen3@32", 20, 0, 20),
      AnchorMatch(2, "tactical", 36, 0, 4),
      AnchorMatch(2, "gen3@32", 20, 0, 20)};
  absl::StatusOr<RatingTable> table = ComputeRatings(
      matches, WithAnchors({{"tactical", 100.0}, {"gen3@32", std::nullopt}}));
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->anchors.size(), 2u);
  EXPECT_EQ(table->anchors[0].anchor, "tactical");
  EXPECT_EQ(table->anchors[1].anchor, "gen3@32");
  const Rating& fitted = OfAnchor(*table, "gen3@32");
  EXPECT_FALSE(fitted.fixed);
  EXPECT_EQ(fitted.games, 80);
  EXPECT_GT(fitted.elo, Of(*table, 1).elo);
  EXPECT_LT(fitted.elo, Of(*table, 2).elo);
  EXPECT_GT(fitted.elo_error, 0.0);
  EXPECT_GT(Of(*table, 1).elo, 100 + Elo(0.75) - 1);
  // Its Elo is the one at which it scores exactly its points.
  const double expected =
      40 / (1 + std::pow(10, (Of(*table, 1).elo - fitted.elo) / 400)) +
      40 / (1 + std::pow(10, (Of(*table, 2).elo - fitted.elo) / 400));
  EXPECT_NEAR(expected, fitted.points, 1e-6);
}

TEST(RatingsAnchorTest, UnconnectedPlayersAndMissingScalesAreReported) {
  // A fixed anchor that never played is still on the table; a fitted one
  // that never played, and generations that met only each other, are not.
  absl::StatusOr<RatingTable> table = ComputeRatings(
      {Match(2, 1, 5, 0, 5)},
      WithAnchors({{"tactical", 0.0}, {"fitted", std::nullopt}}, 1.0));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->ratings.empty());
  EXPECT_EQ(table->unrated, (std::vector<int64_t>{1, 2}));
  ASSERT_EQ(table->anchors.size(), 1u);
  EXPECT_EQ(table->anchors[0].games, 0);
  EXPECT_EQ(table->unrated_anchors, (std::vector<std::string>{"fitted"}));
  const std::string text = RatingsText(*table);
  EXPECT_NE(text.find("unrated anchors: fitted"), std::string::npos) << text;

  absl::StatusOr<RatingTable> no_scale = ComputeRatings(
      {AnchorMatch(1, "fitted", 5, 0, 5)}, WithAnchors({{"fitted", {}}}));
  ASSERT_FALSE(no_scale.ok());
  EXPECT_NE(no_scale.status().message().find("no anchor has a fixed elo"),
            std::string::npos)
      << no_scale.status();
  // Plain maximum likelihood names the one-sided anchor too.
  no_scale = ComputeRatings(
      {AnchorMatch(1, "tactical", 5, 0, 5), AnchorMatch(1, "fitted", 10, 0, 0)},
      WithAnchors({{"tactical", 0.0}}));
  ASSERT_FALSE(no_scale.ok());
  EXPECT_NE(no_scale.status().message().find("anchors fitted only won"),
            std::string::npos)
      << no_scale.status();
}

TEST(RatingsAnchorTest, ExportsCarryTheAnchors) {
  absl::StatusOr<RatingTable> table = ComputeRatings(
      {AnchorMatch(0, "tactical", 10, 0, 30), Match(1, 0, 30, 0, 10),
       AnchorMatch(1, "gen3", 20, 0, 20)},
      WithAnchors({{"tactical", 0.0}, {"gen3", std::nullopt}}));
  ASSERT_TRUE(table.ok()) << table.status();
  // Errors of a chain add in quadrature: gen 1 is two 40-game links from
  // the anchor (sqrt(2) x 124.326), gen3 one more at 50%.
  const std::string csv = RatingsCsv(*table);
  EXPECT_EQ(csv,
            "generation,elo,elo_error,games,points,training_step,"
            "created_unix_ms,status,anchor\n"
            "0,-190.849,124.326,80,20.0,0,0,,\n"
            "1,-0.000,175.823,80,50.0,0,0,,\n"
            ",0.000,0.000,40,30.0,,,fixed,tactical\n"
            ",-0.000,206.171,40,20.0,,,fitted,gen3\n")
      << csv;
  const nlohmann::json json = nlohmann::json::parse(RatingsJson(*table));
  EXPECT_TRUE(json["anchor_generation"].is_null());
  ASSERT_EQ(json["anchors"].size(), 2u);
  EXPECT_EQ(json["anchors"][0]["name"], "tactical");
  EXPECT_EQ(json["anchors"][0]["fixed"], true);
  EXPECT_EQ(json["anchors"][1]["fixed"], false);
  EXPECT_EQ(json["ratings"].size(), 2u);
  const std::string text = RatingsText(*table);
  EXPECT_NE(text.find("tactical               +0   fixed     40  75.0%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    0     -191     124"), std::string::npos) << text;
}

TEST(RatingsTest, RowsSayWhichGatingRuleDecided) {
  absl::StatusOr<RatingTable> table = ComputeRatings({Match(1, 0, 30, 0, 10)});
  ASSERT_TRUE(table.ok()) << table.status();
  ModelEntry gen0, gen1;
  gen0.generation = 0;
  gen0.status = "best";
  gen1.generation = 1;
  gen1.status = "rejected";
  // What the publisher stores (arena/gating.h GateResultJson).
  gen1.match_summary =
      R"({"games": 40, "gate": {"promote": false, "rule": "promote_score",
          "reason": "no SPRT decision in 40 games"}})";
  AttachModels({gen0, gen1}, *table);
  EXPECT_EQ(Of(*table, 0).decided_by, "");
  EXPECT_EQ(Of(*table, 1).decided_by, "promote_score");
  const nlohmann::json json = nlohmann::json::parse(RatingsJson(*table));
  EXPECT_EQ(json["ratings"][1]["decided_by"], "promote_score");
  const std::string text = RatingsText(*table);
  EXPECT_NE(text.find("rejected (promote_score)"), std::string::npos) << text;
  // A summary from before the gate was stored, or not JSON: unknown.
  gen1.match_summary = "{\"games\": 40}";
  AttachModels({gen0, gen1}, *table);
  EXPECT_EQ(Of(*table, 1).decided_by, "");
  gen1.match_summary = "not json";
  AttachModels({gen0, gen1}, *table);
  EXPECT_EQ(Of(*table, 1).decided_by, "");
}

// The trainer logs this after every match: one line, as long after 40
// generations as after 3, naming the best, the newest and the unrated.
TEST(RatingsTest, TheLogSummaryIsOneLineThatDoesNotGrowWithTheRun) {
  absl::StatusOr<RatingTable> table =
      ComputeRatings({Match(1, 0, 30, 0, 10), Match(2, 1, 15, 0, 25)});
  ASSERT_TRUE(table.ok()) << table.status();
  std::vector<ModelEntry> models(4);
  for (int g = 0; g < 4; ++g) {
    models[g].generation = g;
    models[g].status = g == 1 ? "best" : "rejected";
  }
  AttachModels(models, *table);
  const std::string line = RatingsSummary(*table);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_NE(line.find("3 generations rated, best 1 +"), std::string::npos)
      << line;
  EXPECT_NE(line.find(", newest 2 +"), std::string::npos) << line;
  EXPECT_NE(line.find("; unrated 3"), std::string::npos) << line;

  std::vector<MatchResult> chain;
  for (int g = 1; g < 40; ++g) chain.push_back(Match(g, g - 1, 22, 0, 18));
  absl::StatusOr<RatingTable> long_run = ComputeRatings(chain);
  ASSERT_TRUE(long_run.ok()) << long_run.status();
  const std::string long_line = RatingsSummary(*long_run);
  EXPECT_NE(long_line.find("40 generations rated"), std::string::npos)
      << long_line;
  EXPECT_LT(long_line.size(), line.size() + 20) << long_line;
}

}  // namespace
}  // namespace renju
