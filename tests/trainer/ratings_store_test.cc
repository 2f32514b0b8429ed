// Ratings kept with a run: the match table in SQLite (reopening, anchor
// matches, the migration of an old table), UpdateRatings' stored Elo and
// exports, and the gnuplot PNGs. The rating computation: ratings_test.cc.
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/file_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/trainer/ratings_test_util.h"
#include "trainer/match_store.h"
#include "trainer/plots.h"
#include "trainer/ratings.h"
#include "trainer/sqlite_db.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::AnchorMatch;
using testing::Elo;
using testing::kPlainMle;
using testing::Match;
using testing::Of;
using testing::WithAnchors;

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
