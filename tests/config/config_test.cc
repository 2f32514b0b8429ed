// Config files: every file in configs/ loads and validates; bad files get
// errors naming the line or the field path and value.
#include "config/config.h"

#include <filesystem>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

TEST(ConfigTest, EveryConfigInTheRepositoryIsValid) {
  int n = 0;
  // configs/ and the benchmarks' anchors (bench/strength.sh).
  for (const char* folder : {"configs", "bench"}) {
    for (const auto& entry :
         fs::directory_iterator(fs::path(RENJU_SOURCE_DIR) / folder)) {
      if (entry.path().extension() != ".textproto") continue;
      absl::StatusOr<pb::RunConfig> config =
          LoadRunConfig(entry.path().string());
      EXPECT_TRUE(config.ok()) << entry.path() << ": " << config.status();
      ++n;
    }
  }
  EXPECT_GE(n, 2);
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
  auto config =
      ParseRunConfig("name: \"x\"\nselfplay { visits: 3 }\n", "a.textproto");
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
  EXPECT_EQ(
      std::string(config.status().message()),
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
      "selfplay { evaluator { device: \"cpu\" precision: \"fp16\" } }", "p");
  EXPECT_EQ(std::string(config.status().message()),
            "config p: selfplay.evaluator.precision: fp16 needs a CUDA device, "
            "not cpu");
  // bf16 on a CPU is the model's to refuse where the CPU lacks it.
  EXPECT_TRUE(
      ParseRunConfig(
          "server { evaluator { device: \"cpu\" precision: \"bf16\" } }", "p2")
          .ok());
  config = ParseRunConfig("server { evaluator { precision: \"int8\" } }", "q");
  EXPECT_EQ(std::string(config.status().message()),
            "config q: server.evaluator.precision: 'int8' is not fp32, bf16, "
            "fp16 or auto");
  EXPECT_TRUE(
      ParseRunConfig(
          "selfplay { evaluator { device: \"cuda\" precision: \"bf16\" } }",
          "r")
          .ok());
  config = ParseRunConfig("selfplay { search { visits: 0 time_ms: 0 } }", "h");
  EXPECT_EQ(std::string(config.status().message()),
            "config h: selfplay.search: visits and time_ms are both 0: no "
            "budget");
  config = ParseRunConfig("network { blocks: 0 }", "i");
  EXPECT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("network"), std::string::npos);
}

// Minibatch gathering: one leaf per call for self-play unless set, the
// play-time default for the server and the engine, ranges named.
TEST(ConfigTest, MinibatchSizeDefaultsByUse) {
  EXPECT_EQ(ToSearchParams(pb::SearchConfig()).minibatch_size, 1);
  EXPECT_EQ(ToPlayTimeSearchParams(pb::SearchConfig()).minibatch_size,
            kPlayTimeMinibatchSize);
  auto config = ParseRunConfig(
      "server { search { minibatch_size: 4 max_collisions: 3 } }", "m1");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ToPlayTimeSearchParams(config->server().search()).minibatch_size,
            4);
  EXPECT_EQ(ToSearchParams(config->server().search()).max_collisions, 3);
  config = ParseRunConfig("selfplay { search { minibatch_size: 0 } }", "m2");
  EXPECT_EQ(std::string(config.status().message()),
            "config m2: selfplay.search.minibatch_size = 0 is outside 1..1024");
  config = ParseRunConfig("arena { search { max_collisions: -1 } }", "m3");
  EXPECT_EQ(std::string(config.status().message()),
            "config m3: arena.search.max_collisions = -1 is outside 0..100000");
}

// Play picks its precision by the CPU unless told; the rest stay fp32.
TEST(ConfigTest, PrecisionDefaultsByUse) {
  EXPECT_EQ(pb::EvaluatorConfig().precision(), "fp32");
  EXPECT_EQ(ToPlayTimeEvaluatorConfig(pb::EvaluatorConfig()).precision(),
            "auto");
  auto config =
      ParseRunConfig("server { evaluator { precision: \"fp32\" } }", "f1");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ToPlayTimeEvaluatorConfig(config->server().evaluator()).precision(),
            "fp32");
  EXPECT_EQ(config->selfplay().evaluator().precision(), "fp32");
}

// The root VCT (search/vct.h): off by default, ranges named, converted.
TEST(ConfigTest, VctFieldsAreCheckedAndConverted) {
  EXPECT_EQ(ToSearchParams(pb::SearchConfig()).vct_max_nodes_root, 0);
  auto config = ParseRunConfig("server { search { vct_time_share: 0 } }", "v1");
  EXPECT_EQ(std::string(config.status().message()),
            "config v1: server.search.vct_time_share = 0 is outside 0..1 (0 "
            "excluded)");
  config = ParseRunConfig("server { search { vct_max_depth: 61 } }", "v2");
  EXPECT_EQ(std::string(config.status().message()),
            "config v2: server.search.vct_max_depth = 61 is outside 1..60");
  config = ParseRunConfig("server { search { vct_max_nodes_root: -1 } }", "v3");
  EXPECT_EQ(std::string(config.status().message()),
            "config v3: server.search.vct_max_nodes_root = -1 is outside "
            "0..1000000000");
  config = ParseRunConfig(
      "server { search { vct_max_nodes_root: 50000 vct_max_depth: 8 "
      "vct_time_share: 0.5 defend_vct: false } }",
      "v4");
  ASSERT_TRUE(config.ok()) << config.status();
  const SearchParams p = ToSearchParams(config->server().search());
  EXPECT_EQ(p.vct_max_nodes_root, 50000);
  EXPECT_EQ(p.vct_max_depth, 8);
  EXPECT_FLOAT_EQ(p.vct_time_share, 0.5f);
  EXPECT_FALSE(p.defend_vct);
}

// `renju train --override`: named fields change, the rest stay, and the
// result is validated like a file.
TEST(ConfigTest, OverridesChangeOnlyTheNamedFields) {
  absl::StatusOr<pb::RunConfig> base = ParseRunConfig(
      "name: \"x\" trainer { learning_rate: 0.05 batch_size: 64 }", "base");
  ASSERT_TRUE(base.ok()) << base.status();
  absl::StatusOr<pb::RunConfig> changed = OverrideRunConfig(
      *base, "trainer { learning_rate: 0.01 selfplay_lead_positions: 4000 }",
      "--override");
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(changed->name(), "x");
  EXPECT_FLOAT_EQ(changed->trainer().learning_rate(), 0.01f);
  EXPECT_EQ(changed->trainer().batch_size(), 64);
  EXPECT_EQ(changed->trainer().selfplay_lead_positions(), 4000);

  auto bad =
      OverrideRunConfig(*base, "trainer { batch_size: 0 }", "--override");
  EXPECT_EQ(std::string(bad.status().message()),
            "config override --override: trainer.batch_size = 0 is outside "
            "1..65536");
  bad = OverrideRunConfig(
      *base, "trainer { learning_rate: 1 learning_rate: 2 }", "--override");
  EXPECT_NE(bad.status().message().find("config override --override: line 1"),
            std::string::npos)
      << bad.status();
}

TEST(ConfigTest, GumbelRootFieldsAreCheckedAndConverted) {
  auto config = ParseRunConfig(
      "selfplay { search { gumbel_root: true gumbel_considered_moves: 8 "
      "gumbel_c_visit: 20 gumbel_c_scale: 0.5 } }",
      "a");
  ASSERT_TRUE(config.ok()) << config.status();
  const SearchParams params = ToSearchParams(config->selfplay().search());
  EXPECT_TRUE(params.gumbel_root);
  EXPECT_EQ(params.gumbel_considered_moves, 8);
  EXPECT_EQ(params.gumbel_c_visit, 20.0f);
  EXPECT_EQ(params.gumbel_c_scale, 0.5f);
  // Off by default, with the paper's constants.
  const SearchParams defaults = ToSearchParams(pb::SearchConfig());
  EXPECT_FALSE(defaults.gumbel_root);
  EXPECT_EQ(defaults.gumbel_considered_moves, 16);
  EXPECT_EQ(defaults.gumbel_c_visit, 50.0f);
  EXPECT_EQ(defaults.gumbel_c_scale, 1.0f);

  config =
      ParseRunConfig("selfplay { search { gumbel_considered_moves: 1 } }", "b");
  EXPECT_EQ(std::string(config.status().message()),
            "config b: selfplay.search.gumbel_considered_moves = 1 is outside "
            "2..225");
  config = ParseRunConfig("arena { search { gumbel_c_visit: -1 } }", "c");
  EXPECT_EQ(std::string(config.status().message()),
            "config c: arena.search.gumbel_c_visit = -1 is outside 0..1e+06");
  config = ParseRunConfig("server { search { gumbel_c_scale: 101 } }", "d");
  EXPECT_EQ(std::string(config.status().message()),
            "config d: server.search.gumbel_c_scale = 101 is outside 0..100");
}

TEST(ConfigTest, OpeningPlayerFieldsAreCheckedAndConverted) {
  auto config = ParseRunConfig(
      "arena { search { opening_candidate_visits: 16 "
      "opening_max_candidates: 12 opening_swap2_place_two: 0.25 } }",
      "a");
  ASSERT_TRUE(config.ok()) << config.status();
  const OpeningParams params = ToOpeningParams(config->arena().search());
  EXPECT_EQ(params.candidate_visits, 16);
  EXPECT_EQ(params.max_candidates, 12);
  EXPECT_EQ(params.swap2_place_two_share, 0.25);
  const OpeningParams defaults = ToOpeningParams(pb::SearchConfig());
  EXPECT_EQ(defaults.candidate_visits, 64);
  EXPECT_EQ(defaults.max_candidates, 8);
  EXPECT_EQ(defaults.swap2_place_two_share, 0);
  EXPECT_TRUE(defaults.Validate().ok());

  config =
      ParseRunConfig("arena { search { opening_candidate_visits: 0 } }", "b");
  EXPECT_EQ(std::string(config.status().message()),
            "config b: arena.search.opening_candidate_visits = 0 is outside "
            "1..1000000");
  config = ParseRunConfig("server { max_searches_per_client: 0 }", "s");
  EXPECT_EQ(std::string(config.status().message()),
            "config s: server.max_searches_per_client = 0 is outside 1..1024");
  config = ParseRunConfig("server { max_searches: 4097 }", "t");
  EXPECT_EQ(std::string(config.status().message()),
            "config t: server.max_searches = 4097 is outside 1..4096");
  config = ParseRunConfig("selfplay { search { opening_max_candidates: 226 } }",
                          "c");
  EXPECT_EQ(std::string(config.status().message()),
            "config c: selfplay.search.opening_max_candidates = 226 is outside "
            "1..225");
  config = ParseRunConfig(
      "selfplay { search { opening_swap2_place_two: 1.5 } }", "d");
  EXPECT_NE(std::string(config.status().message())
                .find("config d: selfplay.search.opening_swap2_place_two = "
                      "1.5 is outside 0"),
            std::string::npos)
      << config.status();
}

TEST(ConfigTest, OpeningRulesInTheSelfplayMixAreChecked) {
  absl::StatusOr<pb::RunConfig> config = ParseRunConfig("", "empty");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->selfplay().openings().rules_size(), 0);

  config = ParseRunConfig(
      "selfplay { openings { empty: 0 canonical: 0 balanced: 0 "
      "rules { rule: \"rif\" weight: 0.3 } rules { rule: \"Taraguchi10\" } "
      "rules { rule: \"swap2\" weight: 0 } } }",
      "a");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->selfplay().openings().rules(1).weight(), 1.0f);

  const struct {
    const char* text;
    const char* error;
  } kBad[] = {
      {"selfplay { openings { rules { rule: \"rif\" weight: -1 } } }",
       "config b: selfplay.openings.rules[0].weight = -1 is outside 0..1e+06"},
      {"selfplay { openings { rules { rule: \"rif\" } rules { rule: \"RIF\" "
       "} } }",
       "config b: selfplay.openings.rules[1].rule: rif is in the mix twice"},
      {"selfplay { openings { empty: 0 canonical: 0 balanced: 0 rules { "
       "rule: \"rif\" weight: 0 } } }",
       "config b: selfplay.openings: all weights are 0"},
      {"variant: \"freestyle\" board_size: 13 selfplay { openings { rules { "
       "rule: \"swap2\" } rules { rule: \"tarannikov\" } } }",
       "config b: selfplay.openings.rules[1].rule: the Tarannikov opening "
       "rule uses the central areas of the 15 x 15 board; it cannot be "
       "played on 13 x 13"},
  };
  for (const auto& bad : kBad) {
    config = ParseRunConfig(bad.text, "b");
    EXPECT_EQ(std::string(config.status().message()), bad.error) << bad.text;
  }
  config =
      ParseRunConfig("selfplay { openings { rules { rule: \"rfi\" } } }", "c");
  EXPECT_TRUE(absl::StartsWith(config.status().message(),
                               "config c: selfplay.openings.rules[0].rule: "))
      << config.status();
}

TEST(ConfigTest, AuxHeadsAndWeightAverageAreOffByDefault) {
  absl::StatusOr<pb::RunConfig> config = ParseRunConfig("", "empty");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(ToNetworkConfig(*config).aux_heads);
  EXPECT_EQ(config->trainer().ema_decay(), 0.0f);
  EXPECT_FLOAT_EQ(config->trainer().opponent_policy_loss_weight(), 0.15f);
  EXPECT_FLOAT_EQ(config->trainer().short_value_horizon_plies(), 6.0f);

  config = ParseRunConfig(
      "network { aux_heads: true }\n"
      "trainer { ema_decay: 0.999 short_value_horizon_plies: 12 }",
      "a");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(ToNetworkConfig(*config).aux_heads);

  const std::pair<const char*, const char*> bad[] = {
      {"trainer { ema_decay: 1 }",
       "trainer.ema_decay = 1 is outside 0..0.99999"},
      {"trainer { ema_decay: -0.5 }",
       "trainer.ema_decay = -0.5 is outside 0..0.99999"},
      {"trainer { short_value_horizon_plies: 0.5 }",
       "trainer.short_value_horizon_plies = 0.5 is outside 1..1000"},
      {"trainer { opponent_policy_loss_weight: -1 }",
       "trainer.opponent_policy_loss_weight = -1 is outside 0..100"},
      {"trainer { short_value_loss_weight: 101 }",
       "trainer.short_value_loss_weight = 101 is outside 0..100"},
  };
  for (const auto& [text, message] : bad) {
    config = ParseRunConfig(text, "b");
    EXPECT_EQ(std::string(config.status().message()),
              std::string("config b: ") + message);
  }
}

TEST(ConfigTest, SprtErrorRatesLieStrictlyBetweenZeroAndOneHalf) {
  // At 0.5 both SPRT bounds are ln 1 = 0 and the first pair would decide.
  const std::pair<const char*, const char*> bad[] = {
      {"arena { sprt_alpha: 0.5 }",
       "arena.sprt_alpha = 0.5 is outside (0, 0.5)"},
      {"arena { sprt_beta: 0.5 }", "arena.sprt_beta = 0.5 is outside (0, 0.5)"},
      {"arena { sprt_alpha: 0 }", "arena.sprt_alpha = 0 is outside (0, 0.5)"},
      {"arena { sprt_beta: -0.1 }",
       "arena.sprt_beta = -0.1 is outside (0, 0.5)"},
  };
  for (const auto& [text, message] : bad) {
    absl::StatusOr<pb::RunConfig> config = ParseRunConfig(text, "s");
    EXPECT_EQ(std::string(config.status().message()),
              std::string("config s: ") + message);
  }
  EXPECT_TRUE(
      ParseRunConfig("arena { sprt_alpha: 0.499 sprt_beta: 1e-9 }", "s").ok());
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
