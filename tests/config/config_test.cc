// Config files: every file in configs/ loads and validates; bad files get
// errors naming the line or the field path and value.
#include "config/config.h"

#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

TEST(ConfigTest, EveryConfigInTheRepositoryIsValid) {
  int n = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(RENJU_SOURCE_DIR) / "configs")) {
    if (entry.path().extension() != ".textproto") continue;
    absl::StatusOr<pb::RunConfig> config = LoadRunConfig(entry.path().string());
    EXPECT_TRUE(config.ok()) << config.status();
    ++n;
  }
  EXPECT_GE(n, 1);
}

TEST(ConfigTest, DefaultsComeFromTheSchema) {
  absl::StatusOr<pb::RunConfig> config = ParseRunConfig("", "empty");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->board_size(), 15);
  EXPECT_EQ(config->selfplay().search().visits(), 800);
  const SearchParams params = ToSearchParams(config->selfplay().search());
  EXPECT_EQ(params.max_visits, 800);
  EXPECT_TRUE(params.Validate().ok());
  EXPECT_TRUE(ToNetworkConfig(*config).Validate().ok());
}

TEST(ConfigTest, UnknownFieldsAndSyntaxErrorsNameTheLine) {
  auto config = ParseRunConfig("name: \"x\"\nselfplay { visits: 3 }\n", "a.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(std::string(config.status().message()),
            "config a.textproto: line 2, column 18: Message type "
            "\"renju.pb.SelfplayConfig\" has no field named \"visits\".");
  config = ParseRunConfig("name: \"x\"\nboard_size: fifteen\n", "b.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("config b.textproto: line 2"),
            std::string::npos)
      << config.status();
}

TEST(ConfigTest, OutOfRangeFieldsNameThePathAndValue) {
  auto config = ParseRunConfig("selfplay { search { visits: -3 } }", "c");
  EXPECT_EQ(std::string(config.status().message()),
            "config c: selfplay.search.visits = -3 is outside 0..10000000");
  config = ParseRunConfig("arena { games: 41 }", "d");
  EXPECT_EQ(std::string(config.status().message()),
            "config d: arena.games: 41 is odd: each opening is played twice");
  config = ParseRunConfig("variant: \"gomoku\"", "e");
  EXPECT_EQ(std::string(config.status().message()),
            "config e: variant: unknown rule 'gomoku': expected renju, "
            "standard or freestyle");
  config = ParseRunConfig("board_size: 19", "f");
  EXPECT_EQ(std::string(config.status().message()),
            "config f: board_size: renju is played on 15 x 15 only, not 19 x 19");
  config = ParseRunConfig("trainer { device: \"tpu\" }", "g");
  EXPECT_EQ(std::string(config.status().message()),
            "config g: trainer.device: 'tpu' is not auto, cpu, cuda or cuda:N");
  EXPECT_TRUE(ParseRunConfig("trainer { device: \"cuda:1\" }", "g2").ok());
  config = ParseRunConfig("trainer { device: \"cuda:01\" }", "g3");
  EXPECT_EQ(std::string(config.status().message()),
            "config g3: trainer.device: 'cuda:01' is not auto, cpu, cuda or "
            "cuda:N");
  config = ParseRunConfig(
      "selfplay { evaluator { device: \"cpu\" precision: \"bf16\" } }", "p");
  EXPECT_EQ(std::string(config.status().message()),
            "config p: selfplay.evaluator.precision: bf16 needs a CUDA device, "
            "not cpu");
  config = ParseRunConfig("server { evaluator { precision: \"int8\" } }", "q");
  EXPECT_EQ(std::string(config.status().message()),
            "config q: server.evaluator.precision: 'int8' is not fp32, bf16 or "
            "fp16");
  EXPECT_TRUE(ParseRunConfig(
      "selfplay { evaluator { device: \"cuda\" precision: \"bf16\" } }", "r")
                  .ok());
  config = ParseRunConfig("selfplay { search { visits: 0 time_ms: 0 } }", "h");
  EXPECT_EQ(std::string(config.status().message()),
            "config h: selfplay.search: visits and time_ms are both 0: no "
            "budget");
  config = ParseRunConfig("network { blocks: 0 }", "i");
  EXPECT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("network"), std::string::npos);
}

TEST(ConfigTest, AnchorsAreCheckedByFieldPath) {
  // Each case: the arena block and the error it must give.
  const std::pair<const char*, const char*> cases[] = {
      {"anchors { name: \"t\" }",
       "arena.anchors[0]: set one of tactical, model or engine"},
      {"anchors { name: \"t\" tactical {} }",
       "arena.anchors: no anchor has a fixed elo: give at least one an elo "
       "so the ratings have a scale"},
      {"anchors { name: \"t\" tactical {} elo: 0 } "
       "anchors { name: \"t\" tactical {} }",
       "arena.anchors[1].name: 't' is used twice"},
      {"anchors { name: \"a/b\" tactical {} elo: 0 }",
       "arena.anchors[0].name: 'a/b' must be 1..64 letters, digits or "
       "._@+-"},
      {"anchors { tactical {} elo: 0 }",
       "arena.anchors[0].name: '' must be 1..64 letters, digits or ._@+-"},
      {"anchors { name: \"m\" model { visits: 8 } elo: 0 }",
       "arena.anchors[0].model.path: must name a checkpoint"},
      {"anchors { name: \"m\" model { path: \"x\" visits: 0 } elo: 0 }",
       "arena.anchors[0].model.visits = 0 is outside 1..10000000"},
      {"anchors { name: \"e\" engine { command: \" \" } elo: 0 }",
       "arena.anchors[0].engine.command: must be a command line"},
      {"anchors { name: \"e\" engine { command: \"x\" turn_time_ms: -1 } "
       "elo: 0 }",
       "arena.anchors[0].engine.turn_time_ms = -1 is outside 0..3600000"},
      {"anchors { name: \"t\" tactical {} elo: 200000 }",
       "arena.anchors[0].elo = 200000 is outside -100000..100000"},
      {"anchor_games: 7",
       "arena.anchor_games: 7 is odd: each opening is played twice"},
      {"anchor_every_generations: 0",
       "arena.anchor_every_generations = 0 is outside 1..100000"},
  };
  for (const auto& [arena, error] : cases) {
    auto config =
        ParseRunConfig(absl::StrCat("arena { ", arena, " }"), "anchors");
    EXPECT_EQ(std::string(config.status().message()),
              absl::StrCat("config anchors: ", error))
        << arena;
  }
  auto config = ParseRunConfig(
      "arena { anchors { name: \"tactical\" tactical {} elo: 0 } "
      "anchors { name: \"tiny-gen3@32\" model { path: \"m.model\" visits: "
      "32 } } anchors { name: \"pbrain\" engine { command: \"pbrain-x -v\" "
      "} elo: 1500 } }",
      "good");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->arena().anchor_games(), 20);
  EXPECT_EQ(config->arena().anchor_every_generations(), 1);
  EXPECT_FALSE(config->arena().anchors(1).has_elo());
  EXPECT_EQ(config->arena().anchors(2).engine().turn_time_ms(), 1000);
}

TEST(ConfigTest, MissingFileIsAClearError) {
  auto config = LoadRunConfig("/nonexistent/x.textproto");
  EXPECT_EQ(std::string(config.status().message()),
            "config /nonexistent/x.textproto: cannot read");
}

}  // namespace
}  // namespace renju
