// The run's page (trainer/run_page.h) on a prepared run folder: what
// /api/run reads from ratings.json, training.csv and matches/, the match
// games, bad match names, unreadable files, and the routes over loopback
// with a live status.
#include "trainer/run_page.h"

#include <httplib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "gtest/gtest.h"
#include "http/http_server.h"
#include "proto/game.pb.h"
#include "rpc/game_record.h"
#include "rules/types.h"
#include "trainer/plots.h"
#include "trainer/ratings.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Rating Generation(int64_t generation, double elo, double error,
                  int64_t created_unix_ms, int64_t games_seen) {
  Rating r;
  r.generation = generation;
  r.elo = elo;
  r.elo_error = error;
  r.games = 20;
  r.points = 10;
  r.created_unix_ms = created_unix_ms;
  r.games_seen = games_seen;
  r.status = "best";
  return r;
}

// A game record as the arena writes it: moves in renju notation.
void WriteGame(const fs::path& file, const std::string& moves,
               pb::GameResult result, pb::EndReason reason) {
  pb::GameRecord record;
  record.set_variant(pb::RENJU);
  record.set_board_size(15);
  absl::StatusOr<std::vector<Move>> parsed = ParseMoveList(moves, 15);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  for (Move m : *parsed) record.add_plies()->set_move(MoveIndex(m, 15));
  record.set_result(result);
  record.set_end_reason(reason);
  ASSERT_TRUE(
      WriteFileAtomically(file.string(), record.SerializeAsString()).ok());
}

class RunPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = fs::temp_directory_path() /
           absl::StrCat(
               "renju_run_page_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(run_);
    fs::create_directories(run_);
  }
  void TearDown() override { fs::remove_all(run_); }

  // Three generations a minute apart, 30 games a minute, and an anchor;
  // `loss_rows` training.csv rows; the rating match of gen2 with two games,
  // gen1's, and an anchor match of gen2.
  void PrepareRun(int loss_rows) {
    RatingTable table;
    table.anchor_generation = -1;
    // Out of order on purpose: the page sorts.
    table.ratings = {Generation(2, 130, 40, 180000, 60),
                     Generation(0, -50, 30, 60000, 0),
                     Generation(1, 60, 35, 120000, 30)};
    table.ratings[0].decided_by = "sprt";  // generation 2's promotion
    Rating anchor;
    anchor.generation = -1;
    anchor.anchor = "tactical";
    anchor.fixed = true;
    anchor.games = 40;
    anchor.points = 25;
    table.anchors = {anchor};
    table.unrated = {3};
    ASSERT_TRUE(WriteFileAtomically((run_ / "ratings.json").string(),
                                    RatingsJson(table))
                    .ok());
    std::string csv = absl::StrCat(kLossCsvHeader, "\n");
    for (int i = 1; i <= loss_rows; ++i) {
      LossRow row;
      row.step = i * 10;
      row.policy_loss = 5.0 - i * 0.001;
      row.value_loss = 1.0;
      absl::StrAppend(&csv, FormatLossRow(row, kLossCsvHeader));
    }
    ASSERT_TRUE(
        WriteFileAtomically((run_ / "training.csv").string(), csv).ok());
    const fs::path matches = run_ / "matches";
    for (const char* dir :
         {"gen2-vs-gen1", "gen1-vs-gen0", "gen2-vs-tactical", "notes"}) {
      fs::create_directories(matches / dir);
    }
    WriteGame(matches / "gen2-vs-gen1" / "game-00000.game",
              "h8 a1 i8 a2 j8 a3 k8 a4 l8", pb::BLACK_WIN, pb::FIVE);
    WriteGame(matches / "gen2-vs-gen1" / "game-00001.game",
              "h8 h9 g8 o1 i9 a15 i10 o15 i8", pb::WHITE_WIN,
              pb::FORBIDDEN_MOVE);
    ASSERT_TRUE(WriteFileAtomically(
                    (matches / "gen2-vs-gen1" / "summary.json").string(), "{}")
                    .ok());
    WriteGame(matches / "gen1-vs-gen0" / "game-00000.game", "h8 h9", pb::DRAW,
              pb::MOVE_CAP);
  }

  fs::path run_;
};

TEST_F(RunPageTest, RunJsonReadsTheRunFolder) {
  PrepareRun(1000);
  const Json run = Json::parse(RunJson(run_.string(), nullptr).dump());
  EXPECT_EQ(run["run"], run_.filename().string());
  EXPECT_TRUE(run["live"].is_null());
  EXPECT_TRUE(run["problems"].empty()) << run["problems"];

  ASSERT_EQ(run["generations"].size(), 3u) << run;
  for (int g = 0; g < 3; ++g) {
    EXPECT_EQ(run["generations"][g]["generation"], g);
  }
  const Json& gen2 = run["generations"][2];
  EXPECT_EQ(gen2["elo"], 130);
  EXPECT_EQ(gen2["elo_error"], 40);
  EXPECT_EQ(gen2["games_seen"], 60);
  EXPECT_EQ(gen2["status"], "best");
  EXPECT_EQ(gen2["decided_by"], "sprt");
  EXPECT_EQ(run["generations"][1]["decided_by"], "");
  // 30 games in the minute between generations 1 and 2.
  EXPECT_DOUBLE_EQ(gen2["games_per_minute"].get<double>(), 30.0);
  EXPECT_TRUE(run["generations"][0]["games_per_minute"].is_null());
  EXPECT_EQ(run["unrated"], Json::parse("[3]"));
  ASSERT_EQ(run["anchors"].size(), 1u);
  EXPECT_EQ(run["anchors"][0]["name"], "tactical");
  EXPECT_EQ(run["anchors"][0]["fixed"], true);

  // 1000 loss rows thinned to at most kMaxLossPoints, the last kept.
  ASSERT_LE(run["losses"].size(), kMaxLossPoints);
  EXPECT_GE(run["losses"].size(), kMaxLossPoints / 2);
  EXPECT_EQ(run["losses"].front()["step"], 10);
  EXPECT_EQ(run["losses"].back()["step"], 10000);

  // Newest generation first, its rating match before its anchor match; a
  // folder that is no match's is left out.
  ASSERT_EQ(run["matches"].size(), 3u) << run["matches"];
  EXPECT_EQ(run["matches"][0]["name"], "gen2-vs-gen1");
  EXPECT_EQ(run["matches"][0]["games"], 2);
  EXPECT_EQ(run["matches"][1]["name"], "gen2-vs-tactical");
  EXPECT_EQ(run["matches"][2]["name"], "gen1-vs-gen0");
  EXPECT_EQ(run["matches"][2]["opponent"], "gen0");
}

TEST_F(RunPageTest, AnEarlyRunHasNothingYetAndNoProblems) {
  const Json run = Json::parse(RunJson(run_.string(), nullptr).dump());
  EXPECT_TRUE(run["generations"].empty());
  EXPECT_TRUE(run["losses"].empty());
  EXPECT_TRUE(run["matches"].empty());
  EXPECT_TRUE(run["problems"].empty()) << run["problems"];
}

TEST_F(RunPageTest, AnUnreadableFileIsNamedAndTheRestServed) {
  PrepareRun(3);
  ASSERT_TRUE(
      WriteFileAtomically((run_ / "ratings.json").string(), "{\"ratings\": [")
          .ok());
  const Json run = Json::parse(RunJson(run_.string(), nullptr).dump());
  ASSERT_EQ(run["problems"].size(), 1u);
  EXPECT_NE(run["problems"][0].get<std::string>().find("ratings.json"),
            std::string::npos)
      << run["problems"];
  EXPECT_TRUE(run["generations"].empty());
  EXPECT_EQ(run["losses"].size(), 3u);
  EXPECT_EQ(run["matches"].size(), 3u);
}

TEST_F(RunPageTest, MatchJsonGivesTheGamesWithColoursAndResults) {
  PrepareRun(1);
  absl::StatusOr<nlohmann::ordered_json> match =
      MatchJson(run_.string(), "gen2-vs-gen1");
  ASSERT_TRUE(match.ok()) << match.status();
  const Json json = Json::parse(match->dump());
  EXPECT_EQ(json["a"], "gen2");
  EXPECT_EQ(json["b"], "gen1");
  ASSERT_EQ(json["games"].size(), 2u);
  const Json& first = json["games"][0];
  EXPECT_EQ(first["index"], 0);
  EXPECT_EQ(first["size"], 15);
  EXPECT_EQ(first["black"], "gen2");
  EXPECT_EQ(first["white"], "gen1");
  EXPECT_EQ(first["moves"].size(), 9u);
  EXPECT_EQ(first["moves"][0], "h8");
  EXPECT_EQ(first["result"], "black");
  EXPECT_EQ(first["end_reason"], "five");
  const Json& second = json["games"][1];
  EXPECT_EQ(second["black"], "gen1");
  EXPECT_EQ(second["result"], "white");
  EXPECT_EQ(second["end_reason"], "forbidden move");

  for (const char* bad : {"", "..", "gen2", "gen2-vs-", "gen2-vs-..",
                          "gen2-vs-gen1/../../etc", "genx-vs-gen1", "notes"}) {
    EXPECT_TRUE(absl::IsInvalidArgument(MatchJson(run_.string(), bad).status()))
        << bad;
  }
  EXPECT_TRUE(
      absl::IsNotFound(MatchJson(run_.string(), "gen9-vs-gen8").status()));
}

// The routes over loopback, as `renju trainer --http` serves them.
TEST_F(RunPageTest, TheRoutesServeThePageTheRunAndItsGames) {
  PrepareRun(5);
  std::atomic<int64_t> games{100};
  auto server = std::make_unique<httplib::Server>();
  SetUpJsonServer(*server, "run page test", 4096);
  RunPageOptions options;
  options.run_dir = run_.string();
  options.status = [&games] {
    pb::TrainerStatus status;
    status.set_total_games(games += 10);
    status.set_training_step(77);
    return status;
  };
  AddRunPageRoutes(*server, options);
  ServeWebPages(*server, "/run.html");
  absl::StatusOr<std::unique_ptr<HttpListener>> listener =
      HttpListener::Start(std::move(server), "127.0.0.1:0", "test");
  ASSERT_TRUE(listener.ok()) << listener.status();
  httplib::Client client("127.0.0.1", (*listener)->port());

  httplib::Result page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("id=\"elo-plot\""), std::string::npos);
  for (const char* file : {"/run.js", "/board_view.js", "/style.css"}) {
    httplib::Result asset = client.Get(file);
    ASSERT_TRUE(asset) << file;
    EXPECT_EQ(asset->status, 200) << file;
  }

  httplib::Result run = client.Get("/api/run");
  ASSERT_TRUE(run);
  ASSERT_EQ(run->status, 200) << run->body;
  const Json json = Json::parse(run->body);
  EXPECT_EQ(json["live"]["total_games"], 110);
  EXPECT_EQ(json["live"]["training_step"], 77);
  // One look is no rate yet.
  EXPECT_TRUE(json["live"]["games_per_minute"].is_null());
  EXPECT_EQ(json["generations"].size(), 3u);

  httplib::Result match = client.Get("/api/run/match?name=gen2-vs-gen1");
  ASSERT_TRUE(match);
  EXPECT_EQ(match->status, 200) << match->body;
  EXPECT_EQ(Json::parse(match->body)["games"].size(), 2u);

  struct Bad {
    const char* path;
    int status;
    const char* reason;
  };
  for (const Bad& bad :
       {Bad{"/api/run/match", 400, "missing ?name="},
        Bad{"/api/run/match?name=..%2F..%2Fetc", 400, "not a match name"},
        Bad{"/api/run/match?name=gen7-vs-gen6", 404, "no match gen7-vs-gen6"},
        Bad{"/api/nothing", 404, "no page /api/nothing"}}) {
    httplib::Result answer = client.Get(bad.path);
    ASSERT_TRUE(answer) << bad.path;
    EXPECT_EQ(answer->status, bad.status) << bad.path;
    const Json error = Json::parse(answer->body, nullptr, false);
    ASSERT_TRUE(error.is_object()) << answer->body;
    EXPECT_NE(error["error"].get<std::string>().find(bad.reason),
              std::string::npos)
        << answer->body;
  }
  (*listener)->Stop();
}

}  // namespace
}  // namespace renju
