// `renju arena` with the tactical brain as a player, and rating a player
// against the anchors of a config (--anchors-from). The first case runs the
// binary; the rest call the commands in-process (run_command.h says why).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;
using testing::RunRenju;
using testing::Stderr;

const char kE2eConfig[] = RENJU_SOURCE_DIR "/tests/data/e2e.textproto";

class ArenaCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("renju_arena_cmd_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A config file in the test's folder.
  std::string Config(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  fs::path dir_;
};

TEST_F(ArenaCommandTest, TacticalIsAPlayer) {
  const testing::CommandResult r = RunRenju(
      "arena --config " RENJU_SOURCE_DIR
      "/tests/data/e2e.textproto --a tactical --b random --games 4 --out '' "
      "2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("A: tactical\nB: random\n"), std::string::npos) << r.out;
}

TEST_F(ArenaCommandTest, RatesAPlayerOnTheAnchorsScale) {
  const std::string anchors = Config("anchors.textproto", R"pb(
    arena {
      concurrent_games: 2
      anchors {
        name: "tactical"
        tactical {}
        elo: 100
      }
      anchors {
        name: "fitted"
        tactical {}
      }
      anchor_games: 4
    }
  )pb");
  const testing::CommandResult r =
      RunCommand(commands::Arena,
                 {"--config", kE2eConfig, "--a", "tactical", "--anchors-from",
                  anchors, "--out", (dir_ / "out").string()},
                 Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("vs tactical (elo +100): games 4/4 | A "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("skipping anchor fitted: without a fixed elo"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("tactical: elo "), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find(" (95%) on the anchors' scale of " + anchors + ", 4 games"),
      std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "vs-tactical" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "vs-fitted"));
}

TEST_F(ArenaCommandTest, AnchorsFromErrors) {
  const std::string none = Config("none.textproto", "name: \"none\"\n");
  const auto arena = [](const commands::Argv& args) {
    commands::Argv all = {"--config", kE2eConfig};
    all.insert(all.end(), args.begin(), args.end());
    return RunCommand(commands::Arena, all, Stderr::kCaptured);
  };
  testing::CommandResult r = arena({"--a", "tactical", "--anchors-from", none});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("none.textproto has no arena.anchors"),
            std::string::npos)
      << r.out;

  const std::string missing = Config("missing.textproto", R"pb(
    arena {
      anchors {
        name: "gone"
        model { path: "no/such.model" }
        elo: 0
      }
    }
  )pb");
  r = arena({"--a", "tactical", "--anchors-from", missing});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("arena.anchors[0].model.path: no checkpoint file "
                       "'no/such.model'"),
            std::string::npos)
      << r.out;

  r = arena({"--a", "tactical", "--b", "random", "--anchors-from", missing});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("give --a and either --b or --anchors-from"),
            std::string::npos)
      << r.out;
}

// Every opening rule of issue 17: a short match of the tiny trained model
// against itself finishes, and every game it wrote replays with its
// opening actions legal under the rule. One test case per rule, so that the
// suite's shards (tests/CMakeLists.txt) share the rules between them.
class ArenaOpeningRuleTest : public ArenaCommandTest,
                             public ::testing::WithParamInterface<const char*> {
};

TEST_P(ArenaOpeningRuleTest, PlaysTheRuleAndItsGamesReplay) {
  const std::string rule = GetParam();
  const fs::path out = dir_ / rule;
  const char kModel[] = "model:" RENJU_SOURCE_DIR "/tests/data/tiny-gen3.model";
  const testing::CommandResult r =
      RunCommand(commands::Arena,
                 {"--config",
                  RENJU_SOURCE_DIR "/configs/tiny.textproto",
                  "--a",
                  kModel,
                  "--b",
                  kModel,
                  "--opening-rule",
                  rule,
                  "--games",
                  "2",
                  "--concurrent",
                  "2",
                  "--visits",
                  "4",
                  "--opening-visits",
                  "2",
                  "--max-plies",
                  "40",
                  "--seed",
                  "3",
                  "--out",
                  out.string()},
                 Stderr::kCaptured);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("opening rule " + rule + ": A swapped "),
            std::string::npos)
      << r.out;
  testing::CommandResult replay;
  for (const char* name : {"game-00000.game", "game-00001.game"}) {
    const testing::CommandResult one =
        RunCommand(commands::Replay, {"--jsonl", (out / name).string()},
                   Stderr::kCaptured);
    ASSERT_EQ(one.exit_code, 0) << one.out;
    EXPECT_NE(one.out.find("\"illegal_openings\":0"), std::string::npos)
        << one.out;
    replay.out += one.out;
  }
  size_t games = 0;
  for (size_t at = replay.out.find("\"opening_rule\":\"" + rule + "\"");
       at != std::string::npos;
       at = replay.out.find("\"opening_rule\":\"" + rule + "\"", at + 1)) {
    ++games;
  }
  EXPECT_EQ(games, 2u) << replay.out;
  EXPECT_NE(replay.out.find("\"opening_actions\":[\"Place("), std::string::npos)
      << replay.out;
  EXPECT_EQ(replay.out.find("\"illegal_opening\":\""), std::string::npos)
      << replay.out;
  EXPECT_EQ(replay.out.find("\"illegal\":{"), std::string::npos) << replay.out;
}

INSTANTIATE_TEST_SUITE_P(EveryRule, ArenaOpeningRuleTest,
                         ::testing::Values("rif", "yamaguchi", "tarannikov",
                                           "taraguchi10", "swap1", "swap3",
                                           "swap2"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           return std::string(p.param);
                         });

TEST_F(ArenaCommandTest, EnginesTakeTheRuleDefaultsInTheOpening) {
  const testing::CommandResult r =
      RunCommand(commands::Arena,
                 {"--config", kE2eConfig, "--a", "tactical", "--b", "random",
                  "--opening-rule", "taraguchi10", "--games", "2", "--out",
                  (dir_ / "t").string()},
                 Stderr::kCaptured);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // Players without opening judgement never swap.
  EXPECT_NE(r.out.find("opening rule taraguchi10: A swapped 0 of 4 times, B "
                       "0 of 4\n"),
            std::string::npos)
      << r.out;
  const testing::CommandResult replay =
      RunCommand(commands::Replay, {(dir_ / "t" / "game-00001.game").string()},
                 Stderr::kCaptured);
  EXPECT_EQ(replay.exit_code, 0) << replay.out;
  EXPECT_NE(replay.out.find("opening taraguchi10: Place(h8) KeepColours"),
            std::string::npos)
      << replay.out;
  EXPECT_EQ(replay.out.find("illegal opening"), std::string::npos)
      << replay.out;

  const testing::CommandResult bad =
      RunCommand(commands::Arena,
                 {"--config", kE2eConfig, "--a", "tactical", "--b", "random",
                  "--opening-rule", "speedy", "--out", ""},
                 Stderr::kCaptured);
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("arena: --opening-rule: unknown opening rule "
                         "'speedy'"),
            std::string::npos)
      << bad.out;
}

}  // namespace
}  // namespace renju
