// Ratings over generations: the maximum-likelihood Elo on hand-checked
// cases, the match table in SQLite, the exports, and the gnuplot PNGs.
#include "trainer/ratings.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/file_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "trainer/match_store.h"
#include "trainer/plots.h"
#include "trainer/sqlite_db.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

// 400 log10(s / (1 - s)): the Elo difference of expected score s.
double Elo(double score) { return 400 * std::log10(score / (1 - score)); }

// The 95% half-width for n games at expected score p: 1.96 / sqrt(Fisher
// information), with d(score)/d(Elo) = ln(10) / 400 * p (1 - p).
double Error95(double n, double p) {
  const double c = std::log(10.0) / 400;
  return 1.959963984540054 / (c * std::sqrt(n * p * (1 - p)));
}

MatchResult Match(int64_t a, int64_t b, int64_t wins, int64_t draws,
                  int64_t losses) {
  MatchResult m;
  m.generation_a = a;
  m.generation_b = b;
  m.wins = wins;
  m.draws = draws;
  m.losses = losses;
  return m;
}

const Rating& Of(const RatingTable& table, int64_t generation) {
  for (const Rating& r : table.ratings) {
    if (r.generation == generation) return r;
  }
  ADD_FAILURE() << "no rating for generation " << generation;
  return table.ratings.front();
}

const RatingOptions kPlainMle{0, 0.0, {}};

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

MatchResult AnchorMatch(int64_t generation, const std::string& anchor,
                        int64_t wins, int64_t draws, int64_t losses) {
  MatchResult m = Match(generation, -1, wins, draws, losses);
  m.anchor_b = anchor;
  return m;
}

const Rating& OfAnchor(const RatingTable& table, const std::string& name) {
  for (const Rating& r : table.anchors) {
    if (r.anchor == name) return r;
  }
  ADD_FAILURE() << "no rating for anchor " << name;
  return table.anchors.front();
}

// Plain maximum likelihood with the given anchors.
RatingOptions WithAnchors(std::vector<RatingAnchor> anchors,
                          double prior_draws = 0.0) {
  RatingOptions options;
  options.prior_draws = prior_draws;
  options.anchors = std::move(anchors);
  return options;
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

class RatingsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("renju_ratings_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "run.sqlite").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Generations 0..2 registered an hour apart, rated by two matches.
  void FillStore(GameStore& store, MatchStore& matches) {
    for (int64_t g = 0; g < 3; ++g) {
      ModelEntry model;
      model.generation = g;
      model.parent_generation = g - 1;
      model.training_step = 100 * g;
      model.path = "gen" + std::to_string(g) + ".ckpt";
      model.status = g == 2 ? "best" : "candidate";
      model.created_unix_ms = 1700000000000 + g * 3600000;
      ASSERT_TRUE(store.RegisterModel(model).ok());
    }
    ASSERT_TRUE(matches.AddMatch(Match(1, 0, 30, 0, 10)).ok());
    ASSERT_TRUE(matches.AddMatch(Match(2, 1, 30, 0, 10)).ok());
  }

  fs::path dir_;
  std::string db_;
};

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

TEST_F(RatingsStoreTest, MatchesSurviveReopening) {
  {
    auto matches = MatchStore::Open(db_);
    ASSERT_TRUE(matches.ok()) << matches.status();
    ArenaSummary summary;
    summary.games = 4;
    summary.a_black = {2, 0, 0};
    summary.a_white = {1, 1, 0};
    summary.pentanomial.AddPair(1, 1);
    summary.pentanomial.AddPair(1, 0.5);
    summary.sprt = SprtParams{};
    absl::StatusOr<int64_t> id =
        (*matches)->AddMatch(MatchResultFromSummary(summary, 3, 2, 1234));
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, 1);
    EXPECT_FALSE((*matches)->AddMatch(Match(2, 2, 1, 0, 0)).ok());
    EXPECT_FALSE((*matches)->AddMatch(Match(1, 0, -1, 0, 0)).ok());
  }
  auto matches = MatchStore::Open(db_);
  ASSERT_TRUE(matches.ok()) << matches.status();
  absl::StatusOr<std::vector<MatchResult>> all = (*matches)->Matches();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 1u);
  const MatchResult& m = (*all)[0];
  EXPECT_EQ(m.generation_a, 3);
  EXPECT_EQ(m.generation_b, 2);
  EXPECT_EQ(m.wins, 3);
  EXPECT_EQ(m.draws, 1);
  EXPECT_EQ(m.losses, 0);
  EXPECT_EQ(m.pentanomial, (std::array<int64_t, 5>{0, 0, 0, 1, 1}));
  EXPECT_EQ(m.decision, "continue");
  EXPECT_EQ(m.finished_unix_ms, 1234);
  EXPECT_NE(m.summary_json.find("\"a_as_white\""), std::string::npos);
}

TEST_F(RatingsStoreTest, AnchorMatchesAreStoredByName) {
  auto matches = MatchStore::Open(db_);
  ASSERT_TRUE(matches.ok()) << matches.status();
  ASSERT_TRUE((*matches)->AddMatch(Match(1, 0, 3, 0, 1)).ok());
  ASSERT_TRUE((*matches)->AddMatch(AnchorMatch(1, "tactical", 2, 1, 1)).ok());
  MatchResult bad = AnchorMatch(1, "tactical", 1, 0, 0);
  bad.generation_b = 0;
  EXPECT_FALSE((*matches)->AddMatch(bad).ok());
  absl::StatusOr<std::vector<MatchResult>> all = (*matches)->Matches();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].anchor_b, "");
  EXPECT_EQ((*all)[0].generation_b, 0);
  EXPECT_EQ((*all)[1].anchor_b, "tactical");
  EXPECT_EQ((*all)[1].generation_b, -1);
  EXPECT_EQ((*all)[1].draws, 1);
}

// The matches table as runs before anchors created it, with two rows.
constexpr char kOldMatchTable[] = R"sql(
  CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    generation_a INTEGER NOT NULL, generation_b INTEGER NOT NULL,
    wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
    pair0 INTEGER NOT NULL, pair1 INTEGER NOT NULL, pair2 INTEGER NOT NULL,
    pair3 INTEGER NOT NULL, pair4 INTEGER NOT NULL,
    elo REAL NOT NULL, elo_error REAL NOT NULL, decision TEXT NOT NULL,
    summary TEXT NOT NULL, finished_unix_ms INTEGER NOT NULL);
  INSERT INTO matches VALUES
    (1, 1, 0, 30, 0, 10, 0, 0, 0, 0, 0, 190.8, 124.3, '', '{}', 111),
    (2, 2, 1, 30, 0, 10, 0, 0, 0, 0, 0, 190.8, 124.3, 'H1', '{}', 222);
)sql";

// A run folder from before anchors: its `matches` table has no anchor_b
// column. Opening it adds the column and keeps every row.
TEST_F(RatingsStoreTest, OldMatchTableIsMigratedWithItsRows) {
  {
    auto db = SqliteDb::Open(db_);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE((*db)->Execute(kOldMatchTable).ok());
  }
  for (int open = 0; open < 2; ++open) {  // the second open finds it done
    auto matches = MatchStore::Open(db_);
    ASSERT_TRUE(matches.ok()) << matches.status();
    absl::StatusOr<std::vector<MatchResult>> all = (*matches)->Matches();
    ASSERT_TRUE(all.ok()) << all.status();
    ASSERT_EQ(all->size(), 2u + open);
    EXPECT_EQ((*all)[0].generation_a, 1);
    EXPECT_EQ((*all)[0].anchor_b, "");
    EXPECT_EQ((*all)[1].decision, "H1");
    EXPECT_EQ((*all)[1].finished_unix_ms, 222);
    if (open == 0) {
      ASSERT_TRUE(
          (*matches)->AddMatch(AnchorMatch(2, "tactical", 1, 0, 1)).ok());
    } else {
      EXPECT_EQ((*all)[2].anchor_b, "tactical");
      EXPECT_EQ((*all)[2].id, 3);
    }
    absl::StatusOr<RatingTable> table = ComputeRatings(*all, kPlainMle);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_NEAR(Of(*table, 2).elo, 2 * Elo(0.75), 1e-6);
  }
}

TEST_F(RatingsStoreTest, UpdateRatingsStoresEloAndWritesExports) {
  auto store = GameStore::Open(db_);
  ASSERT_TRUE(store.ok()) << store.status();
  auto matches = MatchStore::Open(db_);  // the same file
  ASSERT_TRUE(matches.ok()) << matches.status();
  FillStore(**store, **matches);
  absl::StatusOr<RatingTable> table =
      UpdateRatings(**store, **matches, dir_.string(), kPlainMle);
  ASSERT_TRUE(table.ok()) << table.status();

  absl::StatusOr<std::vector<ModelEntry>> models = (*store)->Models();
  ASSERT_TRUE(models.ok());
  EXPECT_NEAR((*models)[2].elo, 2 * Elo(0.75), 1e-6);
  EXPECT_EQ((*models)[2].status, "best");  // the rest of the row is kept
  EXPECT_EQ(Of(*table, 2).training_step, 200);

  absl::StatusOr<std::string> csv = ReadFile((dir_ / "ratings.csv").string());
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(csv->substr(0, csv->find('\n')),
            "generation,elo,elo_error,games,points,training_step,"
            "created_unix_ms,status,anchor");
  EXPECT_NE(csv->find("\n1,190.849,"), std::string::npos) << *csv;

  absl::StatusOr<std::string> text = ReadFile((dir_ / "ratings.json").string());
  ASSERT_TRUE(text.ok());
  const nlohmann::json json = nlohmann::json::parse(*text);
  EXPECT_EQ(json["anchor_generation"], 0);
  ASSERT_EQ(json["ratings"].size(), 3u);
  EXPECT_NEAR(json["ratings"][2]["elo"].get<double>(), 381.698, 1e-3);
  EXPECT_EQ(json["ratings"][2]["created_unix_ms"], 1700000000000 + 7200000);

  const std::string table_text = RatingsText(*table);
  EXPECT_NE(table_text.find("    2     +382"), std::string::npos) << table_text;
  EXPECT_NE(table_text.find("2.00  best"), std::string::npos) << table_text;
}

bool IsPng(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  return bytes.ok() && bytes->size() > 1000 &&
         bytes->compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

TEST_F(RatingsStoreTest, PlotsArePngsDrawnByGnuplot) {
  auto store = GameStore::Open(db_);
  auto matches = MatchStore::Open(db_);
  ASSERT_TRUE(store.ok() && matches.ok());
  FillStore(**store, **matches);
  absl::StatusOr<RatingTable> table =
      UpdateRatings(**store, **matches, dir_.string());
  ASSERT_TRUE(table.ok()) << table.status();
  const std::string loss = (dir_ / "loss.csv").string();
  ASSERT_TRUE(WriteFileAtomically(
                  loss, std::string(kLossCsvHeader) +
                            "\n10,1700000000000,5.1,1.05,5.2,0.002,5,1\n"
                            "20,1700000060000,4.7,0.98,4.9,0.02,4,0.9\n"
                            "30,1700000120000,4.2,0.91,4.5,0.02,3,0.8\n"
                            "40,17000001")  // a row still being written
                  .ok());

  const fs::path out = dir_ / "plots";
  absl::StatusOr<std::vector<std::string>> pngs =
      WritePlots(out.string(), *table, loss);
  ASSERT_TRUE(pngs.ok()) << pngs.status();
  EXPECT_EQ(pngs->size(), 3u);
  for (const char* name : {"elo.png", "elo_time.png", "loss.png"}) {
    EXPECT_TRUE(IsPng((out / name).string())) << name;
  }
  EXPECT_TRUE(fs::exists(out / "plot_data" / "plots.gp"));
  EXPECT_FALSE(fs::exists(out / "elo.png.tmp"));

  // Without timestamps or losses only the Elo plot is drawn.
  RatingTable bare = *table;
  for (Rating& r : bare.ratings) r.created_unix_ms = 0;
  pngs = WritePlots((dir_ / "bare").string(), bare, "");
  ASSERT_TRUE(pngs.ok()) << pngs.status();
  ASSERT_EQ(pngs->size(), 1u);
  EXPECT_TRUE(IsPng((*pngs)[0]));
}

TEST_F(RatingsStoreTest, PlotsDrawTheAnchorsAsLabelledLines) {
  absl::StatusOr<RatingTable> table = ComputeRatings(
      {AnchorMatch(0, "tactical", 10, 0, 30), Match(1, 0, 30, 0, 10),
       AnchorMatch(1, "tiny-gen3@32", 20, 0, 20)},
      WithAnchors({{"tactical", 0.0}, {"tiny-gen3@32", std::nullopt}}, 1.0));
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::vector<std::string>> pngs =
      WritePlots(dir_.string(), *table, "");
  ASSERT_TRUE(pngs.ok()) << pngs.status();
  ASSERT_EQ(pngs->size(), 1u);
  EXPECT_TRUE(IsPng((*pngs)[0]));
  absl::StatusOr<std::string> script =
      ReadFile((dir_ / "plot_data" / "plots.gp").string());
  ASSERT_TRUE(script.ok());
  EXPECT_NE(script->find("on the anchors'' scale"), std::string::npos)
      << *script;
  EXPECT_NE(script->find("set label 'tactical' at graph 0.01, first 0.000"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("title 'tactical +0 (fixed)' noenhanced"),
            std::string::npos)
      << *script;
  EXPECT_NE(script->find("set label 'tiny-gen3@32'"), std::string::npos)
      << *script;

  // Anchors alone, before any generation is rated, still draw.
  RatingTable anchors_only = *table;
  anchors_only.ratings.clear();
  pngs = WritePlots((dir_ / "anchors_only").string(), anchors_only, "");
  ASSERT_TRUE(pngs.ok()) << pngs.status();
  EXPECT_TRUE(IsPng((*pngs)[0]));
}

TEST_F(RatingsStoreTest, PlotErrorsAreStatuses) {
  RatingTable table;
  table.ratings.push_back(Rating{});
  PlotOptions options;
  options.gnuplot = "renju-no-such-gnuplot";
  absl::StatusOr<std::vector<std::string>> pngs =
      WritePlots(dir_.string(), table, "", options);
  ASSERT_FALSE(pngs.ok());
  EXPECT_EQ(pngs.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(pngs.status().message().find("gnuplot"), std::string::npos);

  // A plotter that fails is quoted; one that hangs is killed.
  const std::string fake = (dir_ / "fake-gnuplot").string();
  ASSERT_TRUE(
      WriteFileAtomically(fake,
                          "#!/bin/sh\necho \"line 3: bad command\" >&2\n"
                          "[ -n \"$SLOW\" ] && exec sleep 5\nexit 1\n")
          .ok());
  fs::permissions(fake, fs::perms::owner_all);
  options.gnuplot = fake;
  pngs = WritePlots(dir_.string(), table, "", options);
  ASSERT_FALSE(pngs.ok());
  EXPECT_NE(pngs.status().message().find("line 3: bad command"),
            std::string::npos)
      << pngs.status();
  setenv("SLOW", "1", 1);
  options.timeout_ms = 200;
  pngs = WritePlots(dir_.string(), table, "", options);
  unsetenv("SLOW");
  ASSERT_FALSE(pngs.ok());
  EXPECT_EQ(pngs.status().code(), absl::StatusCode::kDeadlineExceeded);

  const std::string loss = (dir_ / "bad.csv").string();
  ASSERT_TRUE(
      WriteFileAtomically(loss, std::string(kLossCsvHeader) +
                                    "\n1,2,3,4,5,6,7,8\n7,8,x,9,9,9,9,9\n")
          .ok());
  pngs = WritePlots(dir_.string(), table, loss);
  ASSERT_FALSE(pngs.ok());
  EXPECT_NE(pngs.status().message().find("bad.csv:3"), std::string::npos)
      << pngs.status();
  // A log begun before the auxiliary columns reads with zeros for them;
  // rows must have their header's fields.
  ASSERT_TRUE(WriteFileAtomically(
                  loss, std::string(kLegacyLossCsvHeader) + "\n1,2,3,4,5,6\n")
                  .ok());
  absl::StatusOr<std::vector<LossRow>> legacy = ReadLossCsv(loss);
  ASSERT_TRUE(legacy.ok()) << legacy.status();
  ASSERT_EQ(legacy->size(), 1u);
  EXPECT_EQ((*legacy)[0].lr, 6);
  EXPECT_EQ((*legacy)[0].opponent_policy_loss, 0);
  ASSERT_TRUE(
      WriteFileAtomically(loss, std::string(kLossCsvHeader) + "\n1,2,3,4,5,6\n")
          .ok());
  EXPECT_NE(ReadLossCsv(loss).status().message().find("expected 8"),
            std::string::npos);
  ASSERT_TRUE(WriteFileAtomically(loss, "step,loss\n1,2\n").ok());
  EXPECT_FALSE(ReadLossCsv(loss).ok());
}

}  // namespace
}  // namespace renju
