// Arena matches between real players, and what the run builds on them: a
// fresh tiny network with search and a trained one against a random mover,
// a checkpoint against itself, gating decisions and matches, the tactical
// player, and anchor matches. Matches between fake players and engines:
// arena_test.cc.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "arena/anchor_rating.h"
#include "arena/anchors.h"
#include "arena/arena.h"
#include "arena/gating.h"
#include "base/file_util.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "nn/model.h"
#include "tests/arena/arena_test_util.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::EnginePath;
using testing::GameLog;
using testing::SmallOptions;
using testing::TempDir;

// A small network and search settings that keep these tests to seconds.
pb::RunConfig TinyConfig() {
  absl::StatusOr<pb::RunConfig> config =
      ParseRunConfig(R"pb(
                       network {
                         blocks: 1
                         channels: 16
                         global_pool_every: 0
                         policy_channels: 4
                         value_channels: 4
                         value_hidden: 16
                       }
                       selfplay {
                         evaluator {
                           max_batch_size: 1
                           max_wait_us: 0
                           torch_threads: 1
                           random_symmetry: false
                           device: "cpu"
                         }
                       }
                       arena {
                         games: 4
                         concurrent_games: 2
                         search {
                           visits: 16
                           temperature_early: 1.0
                           temperature_final: 0.3
                           temperature_halflife_plies: 6
                         }
                       }
                     )pb",
                     "arena_test");
  EXPECT_TRUE(config.ok()) << config.status();
  return config.ok() ? *config : pb::RunConfig();
}

TEST(ArenaModelTest, FreshTinyNetworkWithSearchBeatsRandomMover) {
  const pb::RunConfig config = TinyConfig();
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      CreateEvaluatorStack(config, config.selfplay().evaluator(), "",
                           /*seed=*/3);
  ASSERT_TRUE(stack.ok()) << stack.status();
  ModelPlayer model("model", std::move(*stack),
                    ToSearchParams(config.arena().search()));
  RandomPlayer random;
  ArenaOptions options = SmallOptions(40);
  options.openings = CanonicalArenaOpenings(3);
  options.concurrent_games = 4;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, model, random, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 40);
  const int64_t wins = summary->a_black.wins + summary->a_white.wins;
  RecordProperty("model_wins", static_cast<int>(wins));
  EXPECT_GE(wins, 38) << ArenaReport(*summary);
}

// The issue's acceptance: a tiny *trained* model (generation 3 of a
// configs/tiny run, tests/data/tiny-gen3.model) with search beats a
// uniformly random legal mover in at least 95% of 40 games.
TEST(ArenaModelTest, TrainedTinyModelBeatsRandomMover) {
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(std::string(RENJU_SOURCE_DIR) + "/configs/tiny.textproto");
  ASSERT_TRUE(config.ok()) << config.status();
  pb::EvaluatorConfig evaluator = config->selfplay().evaluator();
  evaluator.set_device("cpu");
  evaluator.set_max_wait_us(200);
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack = CreateEvaluatorStack(
      *config, evaluator,
      std::string(RENJU_SOURCE_DIR) + "/tests/data/tiny-gen3.model",
      /*seed=*/4);
  ASSERT_TRUE(stack.ok()) << stack.status();
  EXPECT_EQ((*stack)->generation(), 3);
  SearchParams search = ToSearchParams(config->arena().search());
  search.max_visits = 16;
  ModelPlayer model("trained", std::move(*stack), search);
  RandomPlayer random;
  ArenaOptions options = SmallOptions(40);
  options.openings = CanonicalArenaOpenings(4);
  options.concurrent_games = 8;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, model, random, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 40);
  const int64_t wins = summary->a_black.wins + summary->a_white.wins;
  RecordProperty("trained_model_wins", static_cast<int>(wins));
  EXPECT_GE(wins, 38) << ArenaReport(*summary);
}

TEST(ArenaModelTest, CheckpointAgainstItselfIsWithinItsIntervalOfZero) {
  const pb::RunConfig config = TinyConfig();
  const fs::path dir = TempDir("self");
  fs::create_directories(dir);
  const std::string checkpoint = (dir / "net.ckpt").string();
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(ToNetworkConfig(config), ModelOptions{}, /*seed=*/5);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_TRUE((*model)->Save(checkpoint).ok());

  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      CreateEvaluatorStack(config, config.selfplay().evaluator(), checkpoint,
                           /*seed=*/5);
  ASSERT_TRUE(stack.ok()) << stack.status();
  ModelPlayer player("self", std::move(*stack),
                     ToSearchParams(config.arena().search()));
  ArenaOptions options = SmallOptions(20);
  options.openings = CanonicalArenaOpenings(5);
  options.concurrent_games = 4;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, player, player, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 20);
  RecordProperty("elo",
                 absl::StrFormat("%.1f [%.1f, %.1f]", summary->elo.elo,
                                 summary->elo.elo_low, summary->elo.elo_high));
  EXPECT_LE(summary->elo.elo_low, 0.0) << ArenaReport(*summary);
  EXPECT_GE(summary->elo.elo_high, 0.0) << ArenaReport(*summary);
}

TEST(GatingTest, DecisionFollowsSprtThenScore) {
  pb::ArenaConfig arena;  // promote_score 0.55
  ArenaSummary summary;
  summary.games = 10;
  summary.a_black.wins = 3;
  summary.a_white.wins = 3;  // score 0.6
  EXPECT_TRUE(GateDecision(summary, arena).promote);
  EXPECT_EQ(GateDecision(summary, arena).rule, GateRule::kPromoteScore);
  summary.a_white.wins = 2;
  summary.a_white.losses = 1;  // score 0.5
  EXPECT_FALSE(GateDecision(summary, arena).promote);
  EXPECT_EQ(GateDecision(summary, arena).rule, GateRule::kPromoteScore);
  summary.decision = SprtDecision::kAcceptH1;
  EXPECT_TRUE(GateDecision(summary, arena).promote);
  EXPECT_EQ(GateDecision(summary, arena).rule, GateRule::kSprt);
  summary.a_white.wins = 5;  // a high score does not overrule H0
  summary.decision = SprtDecision::kAcceptH0;
  EXPECT_FALSE(GateDecision(summary, arena).promote);
  EXPECT_EQ(GateDecision(summary, arena).rule, GateRule::kSprt);
  summary.decision = SprtDecision::kContinue;
  summary.stop_reason = "interrupted";
  EXPECT_FALSE(GateDecision(summary, arena).promote);
  EXPECT_EQ(GateDecision(summary, arena).rule, GateRule::kInterrupted);
}

TEST(GatingTest, TheRegistryJsonSaysWhichRuleDecided) {
  pb::ArenaConfig arena;
  ArenaSummary summary;
  summary.games = 2;
  summary.a_black.wins = 1;
  summary.a_white.wins = 1;
  summary.pentanomial.AddPair(1, 1);
  summary.elo = EstimateElo(summary.pentanomial);
  GateResult gate = GateDecision(summary, arena);
  const nlohmann::json json = nlohmann::json::parse(GateResultJson(gate));
  EXPECT_EQ(json["gate"]["rule"], "promote_score");
  EXPECT_EQ(json["gate"]["promote"], true);
  EXPECT_EQ(json["games"], 2);
  // One won pair: the interval has no upper end.
  EXPECT_TRUE(json["elo_high"].is_null());
  EXPECT_TRUE(json["elo_error"].is_null());
  EXPECT_EQ(json["elo_interval"], "small_sample");
}

TEST(GatingTest, EveryShippedConfigAndTheDefaultsCanDecide) {
  // The schema's defaults: gating on, SPRT (0, 35) at alpha = beta = 0.05.
  absl::StatusOr<pb::RunConfig> defaults = ParseRunConfig("", "defaults");
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  ASSERT_TRUE(defaults->arena().gating());
  EXPECT_TRUE(CheckGatingCanDecide(defaults->arena()).ok())
      << CheckGatingCanDecide(defaults->arena());
  int n = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(RENJU_SOURCE_DIR) / "configs")) {
    if (entry.path().extension() != ".textproto") continue;
    absl::StatusOr<pb::RunConfig> config = LoadRunConfig(entry.path().string());
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_TRUE(CheckGatingCanDecide(config->arena()).ok())
        << entry.path() << ": " << CheckGatingCanDecide(config->arena());
    // With gating turned on, each still decides, or says what would.
    pb::ArenaConfig on = config->arena();
    on.set_gating(true);
    const absl::Status s = CheckGatingCanDecide(on);
    if (!s.ok()) {
      EXPECT_NE(s.message().find("the smallest arena.games that can decide"),
                std::string::npos)
          << s;
    }
    ++n;
  }
  EXPECT_GE(n, 3);
}

TEST(GatingTest, AGatingMatchThatCannotDecideIsAnError) {
  // 40 games at (0, 35), alpha = beta = 0.05 (bounds +-ln 19 = +-2.944):
  // every result lies in [-2.12, +1.91] (GSPRT LLR_logistic of 20 pairs
  // all lost / all won); all won first reaches 2.944 at 31 pairs, 62
  // games (30 pairs: 2.870, 31: 2.966).
  pb::ArenaConfig arena;
  arena.set_gating(true);
  arena.set_games(40);
  arena.set_sprt_elo0(0);
  arena.set_sprt_elo1(35);
  const absl::Status s = CheckGatingCanDecide(arena);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("arena.games = 40 cannot decide the gating SPRT "
                             "(arena.sprt_elo0 0, sprt_elo1 35"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("LLR in [-2.12, 1.91], inside the bounds "
                             "[-2.94, 2.94]"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("the smallest arena.games that can decide is 62"),
            std::string::npos)
      << s;
  arena.set_games(62);
  EXPECT_TRUE(CheckGatingCanDecide(arena).ok());
  arena.set_games(60);
  EXPECT_FALSE(CheckGatingCanDecide(arena).ok());
  arena.set_gating(false);  // no gating match: nothing to decide
  EXPECT_TRUE(CheckGatingCanDecide(arena).ok());
}

TEST(GatingTest, GatingOffPromotesWithoutPlaying) {
  pb::RunConfig config = TinyConfig();
  config.mutable_arena()->set_gating(false);
  absl::StatusOr<GateResult> gate =
      RunGatingMatch(config, "no-such-candidate", "no-such-best", {});
  ASSERT_TRUE(gate.ok()) << gate.status();
  EXPECT_TRUE(gate->promote);
  EXPECT_FALSE(gate->played);
}

TEST(GatingTest, GatingMatchPlaysAndWritesItsSummary) {
  // An SPRT that 4 games can end (CheckGatingCanDecide): at (-150, +150),
  // alpha = beta = 0.2 the bounds are +-ln 4 = +-1.386, one pair all won or
  // lost reaches +-0.865 and two pairs +-1.729 (GSPRT LLR_logistic).
  pb::RunConfig config = TinyConfig();
  config.mutable_arena()->set_sprt_elo0(-150);
  config.mutable_arena()->set_sprt_elo1(150);
  config.mutable_arena()->set_sprt_alpha(0.2);
  config.mutable_arena()->set_sprt_beta(0.2);
  CheckpointMatchOptions options;
  options.out_dir = TempDir("gating").string();
  absl::StatusOr<GateResult> gate = RunGatingMatch(config, "", "", options);
  ASSERT_TRUE(gate.ok()) << gate.status();
  EXPECT_TRUE(gate->played);
  EXPECT_EQ(gate->summary.games, 4);
  EXPECT_EQ(gate->promote, GateDecision(gate->summary, config.arena()).promote);
  absl::StatusOr<std::string> json =
      ReadFile(options.out_dir + "/summary.json");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(*json, gate->summary_json);
  EXPECT_NE(json->find("\"pentanomial\""), std::string::npos);
  EXPECT_TRUE(fs::exists(options.out_dir + "/game-00003.psq"));

  absl::StatusOr<GateResult> missing =
      RunGatingMatch(config, "/no/such/file.ckpt", "", options);
  EXPECT_FALSE(missing.ok());
}

Game GameOf(const std::string& moves) {
  absl::StatusOr<std::vector<Move>> parsed =
      ParseMoveList(moves, kRenjuBoardSize);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<Game> game =
      Game::FromMoves(Variant::kRenju, kRenjuBoardSize, *parsed);
  EXPECT_TRUE(game.ok()) << game.status();
  return *game;
}

// The tactical brain's move in `moves`, played.
Game TacticalReply(const std::string& moves, uint64_t seed) {
  TacticalPlayer tactical;
  Game game = GameOf(moves);
  absl::StatusOr<std::unique_ptr<GamePlayer>> player =
      tactical.NewGame(Game(), seed);
  EXPECT_TRUE(player.ok()) << player.status();
  absl::StatusOr<PlayerMove> answer = (*player)->Play(game, nullptr);
  EXPECT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->fault, EngineFault::kNone);
  EXPECT_TRUE(game.Play(answer->move).ok()) << moves;
  return game;
}

TEST(TacticalPlayerTest, WinsInOneBeforeBlocking) {
  // Both sides have an open four; black, to move, makes its five.
  for (uint64_t seed : {1, 2, 3}) {
    const Game game = TacticalReply("h8 h10 i8 i10 j8 j10 k8 k10", seed);
    EXPECT_EQ(game.result(), GameResult::kBlackWin) << seed;
    EXPECT_EQ(game.end_reason(), EndReason::kFive);
  }
  // Black has only a three: it blocks white's four at g8 or l8.
  for (uint64_t seed : {1, 2, 3}) {
    const Game game = TacticalReply("h10 h8 i10 i8 j10 j8 a1 k8", seed);
    EXPECT_FALSE(game.over());
    const std::string last = PointName(game.moves().back().point());
    EXPECT_TRUE(last == "g8" || last == "l8") << last;
  }
}

TEST(TacticalPlayerTest, PlaysLegalMovesAndBeatsTheRandomMover) {
  TacticalPlayer tactical;
  RandomPlayer random;
  ArenaOptions options = SmallOptions(40);
  options.openings = CanonicalArenaOpenings(11);
  options.concurrent_games = 4;
  GameLog log;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, tactical, random, log.Callbacks(), nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 40);
  EXPECT_GE(summary->a_black.wins + summary->a_white.wins, 38)
      << ArenaReport(*summary);
  for (const auto& [index, game] : log.games) {
    // Black's forbidden point ends the game; never the tactical player's.
    EXPECT_FALSE(game.a_is_black &&
                 game.record.end_reason() == pb::FORBIDDEN_MOVE)
        << "game " << index;
  }
}

// A config with one anchor of each kind; the model anchor is the trained
// 4x32 tiny network, whose shape differs from TinyConfig's 1x16.
pb::RunConfig AnchorConfig(const std::string& model_path) {
  pb::RunConfig config = TinyConfig();
  pb::ArenaConfig& arena = *config.mutable_arena();
  arena.set_anchor_games(4);
  pb::AnchorPlayer* tactical = arena.add_anchors();
  tactical->set_name("tactical");
  tactical->mutable_tactical();
  tactical->set_elo(0);
  pb::AnchorPlayer* model = arena.add_anchors();
  model->set_name("tiny-gen3@8");
  model->mutable_model()->set_path(model_path);
  model->mutable_model()->set_visits(8);
  pb::AnchorPlayer* engine = arena.add_anchors();
  engine->set_name("legal");
  engine->mutable_engine()->set_command(EnginePath("legal_engine.sh"));
  EXPECT_TRUE(ValidateRunConfig(config).ok()) << ValidateRunConfig(config);
  return config;
}

const std::string kTinyGen3 =
    std::string(RENJU_SOURCE_DIR) + "/tests/data/tiny-gen3.model";

TEST(AnchorsTest, PlayersComeFromTheConfig) {
  const pb::RunConfig config = AnchorConfig(kTinyGen3);
  EXPECT_TRUE(CheckAnchorFiles(config.arena()).ok());
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<std::unique_ptr<ArenaPlayer>> player =
        MakeAnchorPlayer(config, i, /*seed=*/1);
    ASSERT_TRUE(player.ok()) << player.status();
    EXPECT_EQ((*player)->name(), config.arena().anchors(i).name());
  }
  EXPECT_TRUE(AnchorsDue(config.arena(), 0));
  EXPECT_TRUE(AnchorsDue(config.arena(), 7));
  pb::ArenaConfig every_third = config.arena();
  every_third.set_anchor_every_generations(3);
  EXPECT_TRUE(AnchorsDue(every_third, 6));
  EXPECT_FALSE(AnchorsDue(every_third, 7));
  EXPECT_FALSE(AnchorsDue(pb::ArenaConfig(), 0));
}

TEST(AnchorsTest, MissingOrMisfitCheckpointsNameTheField) {
  const pb::RunConfig config = AnchorConfig("no/such.model");
  absl::Status missing = CheckAnchorFiles(config.arena());
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("arena.anchors[1].model.path: no "
                                   "checkpoint file 'no/such.model' (relative "
                                   "to the working directory "),
            std::string::npos)
      << missing;
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> player =
      MakeAnchorPlayer(config, 1, 1);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.status().message().find("arena.anchors[1].model.path"),
            std::string::npos)
      << player.status();

  pb::RunConfig small = AnchorConfig(kTinyGen3);
  small.set_variant("freestyle");
  small.set_board_size(9);
  player = MakeAnchorPlayer(small, 1, 1);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.status().message().find(
                "is a network for 15 x 15 boards; the run plays 9 x 9"),
            std::string::npos)
      << player.status();
}

// bench/anchors.textproto is the scale every strength figure is on:
// it loads for the CPU recipe, each anchor has a held Elo, the held Elos
// rise in the order listed (the strongest last), and every anchor's
// player can be made from the checked-in checkpoints.
struct InSourceDir {  // anchor paths are relative to the working directory
  const std::filesystem::path before = std::filesystem::current_path();
  InSourceDir() { std::filesystem::current_path(RENJU_SOURCE_DIR); }
  ~InSourceDir() { std::filesystem::current_path(before); }
};

TEST(AnchorsTest, TheBenchYardsticksLoadInRisingOrder) {
  const InSourceDir in_source_dir;
  absl::StatusOr<pb::RunConfig> recipe = LoadRunConfig("configs/cpu.textproto");
  ASSERT_TRUE(recipe.ok()) << recipe.status();
  absl::StatusOr<pb::RunConfig> anchors =
      LoadAnchorConfig(*recipe, "bench/anchors.textproto");
  ASSERT_TRUE(anchors.ok()) << anchors.status();
  ASSERT_GE(anchors->arena().anchors_size(), 4);
  double previous_elo = -1e9;
  for (int i = 0; i < anchors->arena().anchors_size(); ++i) {
    const pb::AnchorPlayer& anchor = anchors->arena().anchors(i);
    ASSERT_TRUE(anchor.has_elo()) << anchor.name();
    EXPECT_GT(anchor.elo(), previous_elo) << anchor.name();
    previous_elo = anchor.elo();
    absl::StatusOr<std::unique_ptr<ArenaPlayer>> player =
        MakeAnchorPlayer(*anchors, i, /*seed=*/1);
    EXPECT_TRUE(player.ok()) << anchor.name() << ": " << player.status();
  }
  EXPECT_EQ(
      anchors->arena().anchors(anchors->arena().anchors_size() - 1).name(),
      "recipe100@100");
}

TEST(AnchorsTest, AnchorMatchPlaysEveryGameAndSavesThem) {
  const pb::RunConfig config = AnchorConfig(kTinyGen3);
  absl::StatusOr<std::unique_ptr<ModelPlayer>> fresh =
      MakeCheckpointPlayer(config, "", /*seed=*/2);
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<std::unique_ptr<ArenaPlayer>> anchor =
        MakeAnchorPlayer(config, i, 3);
    ASSERT_TRUE(anchor.ok()) << anchor.status();
    CheckpointMatchOptions options;
    options.out_dir = TempDir("anchor" + std::to_string(i)).string();
    options.seed = 5;
    absl::StatusOr<ArenaSummary> summary =
        RunAnchorMatch(config, **fresh, **anchor, options);
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_EQ(summary->games, 4);  // arena.anchor_games, not arena.games
    EXPECT_FALSE(summary->sprt.has_value());
    EXPECT_EQ(summary->player_b, config.arena().anchors(i).name());
    EXPECT_TRUE(fs::exists(options.out_dir + "/summary.json"));
    EXPECT_TRUE(fs::exists(options.out_dir + "/game-00003.psq"));
  }
}

}  // namespace
}  // namespace renju
