// `renju train` from start to finish, and the arena driving real Gomocup
// engine processes, both run as users run them.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "gtest/gtest.h"
#include "proto/game.pb.h"
#include "rpc/game_record.h"
#include "rules/opening.h"
#include "rules/record.h"
#include "tests/e2e/e2e_paths.h"
#include "trainer/run_page.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

using testing::kE2eConfig;
using testing::kRenju;

fs::path TempDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / absl::StrCat("renju_", name, "_", getpid());
  fs::remove_all(dir);
  return dir;
}

int RunShell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool IsPng(const fs::path& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path.string());
  return bytes.ok() && bytes->size() > 1000 &&
         bytes->compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

TEST(LauncherTest, TrainRunsTheGenerationsAndWritesRatingsAndPlots) {
  const fs::path run = TempDir("train");
  const std::string log = run.string() + ".log";
  ASSERT_EQ(
      RunShell(absl::StrCat(kRenju, " train --config ", kE2eConfig,
                            " --run-dir ", run.string(), " > ", log, " 2>&1")),
      0)
      << *ReadFile(log);
  const std::string output = *ReadFile(log);
  EXPECT_NE(output.find("generation  status"), std::string::npos) << output;
  EXPECT_NE(output.find("final match: generation 2 against generation 0"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("done: 2 generations"), std::string::npos) << output;

  // The ratings cover every generation and the plots exist.
  const std::string ratings = *ReadFile((run / "ratings.csv").string());
  EXPECT_NE(ratings.find("\n0,"), std::string::npos) << ratings;
  EXPECT_NE(ratings.find("\n1,"), std::string::npos) << ratings;
  EXPECT_NE(ratings.find("\n2,"), std::string::npos) << ratings;
  EXPECT_TRUE(IsPng(run / "elo.png"));
  EXPECT_TRUE(IsPng(run / "elo_time.png"));
  EXPECT_TRUE(IsPng(run / "loss.png"));
  const nlohmann::json summary = nlohmann::json::parse(
      *ReadFile((run / "final_match" / "summary.json").string()));
  EXPECT_EQ(summary["games"], 4) << summary.dump();

  // The trainer served the run's page, and the page reads this real run
  // folder: every generation, the losses, the newest rating match's games.
  EXPECT_NE(output.find("run page: http://127.0.0.1:"), std::string::npos)
      << output;
  const nlohmann::json page =
      nlohmann::json::parse(RunJson(run.string(), nullptr).dump());
  EXPECT_TRUE(page["problems"].empty()) << page["problems"];
  ASSERT_EQ(page["generations"].size(), 3u) << page["generations"];
  EXPECT_EQ(page["generations"][2]["generation"], 2);
  EXPECT_GT(page["generations"][2]["games_seen"].get<int64_t>(), 0);
  EXPECT_FALSE(page["losses"].empty());
  ASSERT_FALSE(page["matches"].empty());
  const std::string newest = page["matches"][0]["name"];
  EXPECT_EQ(newest.rfind("gen2-vs-gen", 0), 0u) << newest;
  absl::StatusOr<nlohmann::ordered_json> match =
      MatchJson(run.string(), newest);
  ASSERT_TRUE(match.ok()) << match.status();
  ASSERT_FALSE((*match)["games"].empty());
  EXPECT_FALSE((*match)["games"][0]["moves"].empty());
  EXPECT_NE((*match)["games"][0]["result"], "unknown");

  // --resume continues the same run to a further generation.
  ASSERT_EQ(RunShell(absl::StrCat(kRenju, " train --resume ", run.string(),
                                  " --generations 3 > ", log, " 2>&1")),
            0)
      << *ReadFile(log);
  EXPECT_NE(ReadFile(log)->find("done: 3 generations"), std::string::npos)
      << *ReadFile(log);
  EXPECT_TRUE(fs::exists(run / "models" / "gen3.model"));
  // A second fresh run into the same folder is refused.
  EXPECT_EQ(
      RunShell(absl::StrCat(kRenju, " train --config ", kE2eConfig,
                            " --run-dir ", run.string(), " > ", log, " 2>&1")),
      1);
  EXPECT_NE(ReadFile(log)->find("--resume"), std::string::npos);
  fs::remove_all(run);
  fs::remove(log);
}

double CpuSecondsOfRun(const fs::path& run) {
  absl::StatusOr<std::string> text =
      ReadFile((run / "cpu_seconds.txt").string());
  return text.ok() ? std::atof(text->c_str()) : -1;
}

// A run with a CPU budget (and a config override, as bench/strength.sh
// runs them).
TEST(LauncherTest, CpuBudgetEndsTheRunAndCountsOnAfterResume) {
  const fs::path run = TempDir("train_cpu");
  const std::string log = run.string() + ".log";
  // From the source folder, with an anchor checkpoint named relative to it.
  ASSERT_EQ(
      RunShell(absl::StrCat(
          "cd ", RENJU_SOURCE_DIR, " && ", kRenju, " train --config ",
          kE2eConfig, " --run-dir ", run.string(),
          " --generations 100000 --cpu-minutes 0.1",
          " --override 'launcher { final_match_games: 0 } arena { anchors {",
          " name: \"g3\" model { path: \"tests/data/tiny-gen3.model\"",
          " visits: 1 } elo: 0 } anchor_games: 2 }' > ", log, " 2>&1")),
      0)
      << *ReadFile(log);
  // The override is part of the run's config, which a resume keeps, and
  // the anchor's path there no longer depends on where the run started.
  const std::string saved = *ReadFile((run / "config.textproto").string());
  EXPECT_NE(saved.find("final_match_games: 0"), std::string::npos) << saved;
  EXPECT_NE(
      saved.find(absl::StrCat(
          "path: \"", fs::path(RENJU_SOURCE_DIR).lexically_normal().string(),
          "/tests/data/tiny-gen3.model\"")),
      std::string::npos)
      << saved;
  EXPECT_NE(
      ReadFile(log)->find("cpu budget of 0.1 minutes spent at generation"),
      std::string::npos)
      << *ReadFile(log);
  const double first = CpuSecondsOfRun(run);
  EXPECT_GE(first, 6.0);

  // The resumed run starts from the count: a budget already spent ends it
  // at once, and the count only grows.
  ASSERT_EQ(RunShell(absl::StrCat(kRenju, " train --resume ", run.string(),
                                  " --generations 100000 --cpu-minutes 0.1 > ",
                                  log, " 2>&1")),
            0)
      << *ReadFile(log);
  EXPECT_NE(ReadFile(log)->find("of 0.1 minutes used"), std::string::npos)
      << *ReadFile(log);
  EXPECT_NE(ReadFile(log)->find("cpu budget of 0.1 minutes spent"),
            std::string::npos)
      << *ReadFile(log);
  EXPECT_GE(CpuSecondsOfRun(run), first);
  // Generation 0 was noted once, with the CPU time used by then.
  const std::string noted = *ReadFile((run / "generations_cpu.csv").string());
  EXPECT_EQ(noted.rfind("generation,cpu_seconds,wall_seconds\n0,", 0), 0u)
      << noted;
  EXPECT_EQ(noted.find("\n0,", noted.find("\n0,") + 1), std::string::npos)
      << noted;

  // A damaged count is an error that names the file.
  ASSERT_TRUE(
      WriteFileAtomically((run / "cpu_seconds.txt").string(), "lots\n").ok());
  EXPECT_EQ(RunShell(absl::StrCat(kRenju, " train --resume ", run.string(),
                                  " > ", log, " 2>&1")),
            1);
  EXPECT_NE(ReadFile(log)->find("cpu_seconds.txt: not a number of seconds"),
            std::string::npos)
      << *ReadFile(log);
  fs::remove_all(run);
  fs::remove(log);
}

// Under swap2, so that both sides of SWAP2BOARD run as real processes:
// our engine answers it, our arena asks and plays on from the answers.
TEST(LauncherTest, ArenaDrivesTwoGomocupEngineProcesses) {
  const fs::path out = TempDir("arena_engines");
  const std::string log = out.string() + ".log";
  const std::string engine =
      absl::StrCat("engine:", kRenju, " gomocup --brain tactical");
  ASSERT_EQ(RunShell(absl::StrCat(kRenju, " arena --config ", kE2eConfig,
                                  " --a '", engine, " --seed 1' --b '", engine,
                                  " --seed 2' --games 2 --engine-turn-ms 300 "
                                  "--opening-rule swap2 --out ",
                                  out.string(), " > ", log, " 2>&1")),
            0)
      << *ReadFile(log);
  const nlohmann::json summary =
      nlohmann::json::parse(*ReadFile((out / "summary.json").string()));
  EXPECT_EQ(summary["games"], 2) << summary.dump();
  EXPECT_EQ(summary["opening_rule"], "swap2") << summary.dump();
  for (const char* player : {"a", "b"}) {
    for (const auto& [fault, count] : summary["faults"][player].items()) {
      EXPECT_EQ(count, 0) << player << " " << fault << ": " << summary.dump();
    }
    // Each engine answered SWAP2BOARD: none took the arena's defaults.
    EXPECT_EQ(summary["swaps"][player]["fallback_games"], 0) << summary.dump();
    EXPECT_EQ(summary["swaps"][player]["options"], 1) << summary.dump();
  }
  // The saved games replay: three stones, then the tactical brain's
  // choice, white, whose move 4 came with its answer.
  for (const char* name : {"game-00000.game", "game-00001.game"}) {
    pb::GameRecord proto;
    ASSERT_TRUE(proto.ParseFromString(*ReadFile((out / name).string())));
    absl::StatusOr<GameRecord> record = RecordFromProto(proto);
    ASSERT_TRUE(record.ok()) << record.status();
    ASSERT_TRUE(record->opening_rule.has_value()) << name;
    ASSERT_EQ(record->opening_actions.size(), 4u) << name;
    EXPECT_EQ(record->opening_actions[3], OpeningAction::KeepColours());
    const absl::Status replayed =
        CheckOpeningRecord(*record->opening_rule, record->opening_actions,
                           record->moves, *record->variant, record->size)
            .status();
    EXPECT_TRUE(replayed.ok()) << name << ": " << replayed;
  }
  fs::remove_all(out);
  fs::remove(log);
}

}  // namespace
}  // namespace renju
