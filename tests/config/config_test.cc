// Config files: every file in configs/ loads and validates; bad files get
// errors naming the line or the field path and value.
#include "config/config.h"

#include <filesystem>

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
  EXPECT_EQ(ToNetworkConfig(*config).encoding_version, 1);
}

TEST(ConfigTest, EncodingVersionReachesTheNetworkConfig) {
  absl::StatusOr<pb::RunConfig> config =
      ParseRunConfig("network { encoding_version: 2 }", "v2");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ToNetworkConfig(*config).encoding_version, 2);
  for (const char* bad : {"0", "3"}) {
    config = ParseRunConfig(
        absl::StrCat("network { encoding_version: ", bad, " }"), "v");
    EXPECT_EQ(std::string(config.status().message()),
              absl::StrCat("config v: network.encoding_version = ", bad,
                           " is outside 1..2"));
  }
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

TEST(ConfigTest, MissingFileIsAClearError) {
  auto config = LoadRunConfig("/nonexistent/x.textproto");
  EXPECT_EQ(std::string(config.status().message()),
            "config /nonexistent/x.textproto: cannot read");
}

}  // namespace
}  // namespace renju
