// Arena matches: colour-swapped pairing and the pentanomial with
// deterministic fake players, SPRT stopping, adjudication (two passes, move
// cap), saved games, faulty external engines (the scripted fakes in
// tests/data/gomocup/) and swap2 through engines. Real networks, the
// tactical player, gating and anchors: arena_players_test.cc.
#include "arena/arena.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "base/file_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "rpc/game_record.h"
#include "rules/record.h"
#include "tests/arena/arena_test_util.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::EnginePath;
using testing::GameLog;
using testing::SmallOptions;
using testing::TempDir;

// Builds its own line, ignoring the opponent: black along the bottom row,
// white along the top row, left to right. The side to move after the
// opening completes its five first.
class LinePlayer : public ArenaPlayer {
 public:
  explicit LinePlayer(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game&,
                                                      uint64_t) override {
    return std::make_unique<LineGame>();
  }

 private:
  class LineGame : public GamePlayer {
   public:
    absl::StatusOr<PlayerMove> Play(const Game& game,
                                    const std::atomic<bool>*) override {
      const int y = game.side_to_move() == Color::kBlack ? 0 : game.size() - 1;
      PlayerMove answer;
      for (int x = 0; x < game.size(); ++x) {
        if (game.board().IsEmpty(Point(x, y))) {
          answer.move = Move::At(Point(x, y));
          break;
        }
      }
      return answer;
    }
  };
  std::string name_;
};

// Always passes.
class PassPlayer : public ArenaPlayer {
 public:
  const std::string& name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game&,
                                                      uint64_t) override {
    return std::make_unique<PassGame>();
  }

 private:
  class PassGame : public GamePlayer {
   public:
    absl::StatusOr<PlayerMove> Play(const Game&,
                                    const std::atomic<bool>*) override {
      return PlayerMove{};
    }
  };
  std::string name_ = "pass";
};

std::vector<int> OpeningPlies(const pb::GameRecord& record) {
  std::vector<int> plies;
  for (int i = 0; i < record.opening_plies(); ++i) {
    plies.push_back(record.plies(i).move());
  }
  return plies;
}

TEST(ArenaTest, EachOpeningIsPlayedTwiceWithColoursSwapped) {
  LinePlayer a("a"), b("b");
  GameLog log;
  ArenaOptions options = SmallOptions(10);  // 5 pairs over 3 openings
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, a, b, log.Callbacks(), nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  ASSERT_EQ(log.games.size(), 10u);
  for (int64_t pair = 0; pair < 5; ++pair) {
    const ArenaGame& first = log.games.at(2 * pair);
    const ArenaGame& second = log.games.at(2 * pair + 1);
    EXPECT_TRUE(first.a_is_black);
    EXPECT_FALSE(second.a_is_black);
    EXPECT_EQ(first.opening, second.opening);
    EXPECT_EQ(OpeningPlies(first.record), OpeningPlies(second.record));
    EXPECT_EQ(first.record.opening_plies(), 3);
  }
  // The list, then again under another symmetry.
  EXPECT_EQ(log.games.at(0).opening, options.openings[0].name);
  EXPECT_EQ(log.games.at(6).opening, options.openings[0].name + "/s1");
  EXPECT_NE(OpeningPlies(log.games.at(0).record),
            OpeningPlies(log.games.at(6).record));

  // White moves first after a three-stone opening and wins the line race:
  // A loses with black and wins with white, so every pair scores 1.
  EXPECT_EQ(summary->games, 10);
  EXPECT_EQ(summary->a_black.losses, 5);
  EXPECT_EQ(summary->a_white.wins, 5);
  EXPECT_EQ(summary->pentanomial.counts,
            (std::array<int64_t, 5>{0, 0, 5, 0, 0}));
  EXPECT_DOUBLE_EQ(summary->a_score(), 0.5);
  EXPECT_NEAR(summary->elo.elo, 0.0, 1e-9);
  EXPECT_EQ(summary->end_reasons.at("five"), 10);
  EXPECT_EQ(summary->stop_reason, "completed");
}

TEST(ArenaTest, OneSidedMatchFillsTheTopPentanomialCell) {
  LinePlayer a("a");
  PassPlayer b;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(SmallOptions(6), a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->pentanomial.counts,
            (std::array<int64_t, 5>{0, 0, 0, 0, 3}));
  EXPECT_EQ(summary->a_black.wins, 3);
  EXPECT_EQ(summary->a_white.wins, 3);
  EXPECT_GT(summary->elo.elo_low, 0);
  // Reversed, B's view mirrors it.
  summary = RunArenaMatch(SmallOptions(6), b, a, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->pentanomial.counts,
            (std::array<int64_t, 5>{3, 0, 0, 0, 0}));
  EXPECT_LT(summary->elo.elo_high, 0);
}

TEST(ArenaTest, SprtDecisionStopsTheMatchEarly) {
  LinePlayer a("a");
  PassPlayer b;
  ArenaOptions options = SmallOptions(400);
  options.sprt = SprtParams{0, 10, 0.05, 0.05};
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(summary->stop_reason, "sprt");
  EXPECT_GE(summary->llr, options.sprt->upper_bound());
  EXPECT_LT(summary->games, 400);
  EXPECT_EQ(summary->games, 2 * summary->pentanomial.pairs());
  EXPECT_EQ(summary->pentanomial.counts[4], summary->pentanomial.pairs());
}

TEST(ArenaTest, AllWonMatchOf62GamesStopsWithH1AtPair31) {
  // SPRT (0, 35), alpha = beta = 0.05: upper bound ln(0.95 / 0.05) =
  // 2.944. Fishtest's LLR_logistic of n pairs all won (cells regularised
  // to 1e-3) is 2.870 at n = 30 and 2.966 at n = 31, so the SPRT stops
  // with H1 after pair 31, the 62nd game, and not before.
  LinePlayer a("a");
  PassPlayer b;
  ArenaOptions options = SmallOptions(62);
  options.sprt = SprtParams{0, 35, 0.05, 0.05};
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->pentanomial.counts,
            (std::array<int64_t, 5>{0, 0, 0, 0, 31}));
  EXPECT_EQ(summary->decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(summary->stop_reason, "sprt");
  EXPECT_NEAR(summary->llr, 2.966, 1e-3);
  EXPECT_NEAR(SprtLlr(Pentanomial{{0, 0, 0, 0, 30}}, *options.sprt), 2.870,
              1e-3);
}

TEST(ArenaTest, TwoPassesAndTheMoveCapAreDraws) {
  PassPlayer pass;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(SmallOptions(2), pass, pass, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->a_black.draws + summary->a_white.draws, 2);
  EXPECT_EQ(summary->end_reasons.at("two_passes"), 2);

  LinePlayer a("a"), b("b");
  ArenaOptions options = SmallOptions(4);
  options.max_plies = 7;  // opening 3 + 4 moves: nobody has five yet
  summary = RunArenaMatch(options, a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->end_reasons.at("move_cap"), 4);
  EXPECT_EQ(summary->pentanomial.counts,
            (std::array<int64_t, 5>{0, 0, 2, 0, 0}));
}

TEST(ArenaTest, SavesEveryGameAsRecordAndPsq) {
  LinePlayer a("a"), b("b");
  ArenaOptions options = SmallOptions(4);
  options.out_dir = TempDir("saves").string();
  GameLog log;
  ASSERT_TRUE(RunArenaMatch(options, a, b, log.Callbacks(), nullptr).ok());
  for (const auto& [index, game] : log.games) {
    const std::string base = options.out_dir + "/" + game.record.uid();
    absl::StatusOr<std::string> bytes = ReadFile(base + ".game");
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    pb::GameRecord stored;
    ASSERT_TRUE(stored.ParseFromString(*bytes));
    EXPECT_EQ(stored.SerializeAsString(), game.record.SerializeAsString());
    EXPECT_TRUE(ValidateGameRecord(stored).ok());
    absl::StatusOr<std::string> psq_text = ReadFile(base + ".psq");
    ASSERT_TRUE(psq_text.ok()) << psq_text.status();
    absl::StatusOr<GameRecord> psq = ReadPsq(*psq_text);
    ASSERT_TRUE(psq.ok()) << psq.status();
    ASSERT_EQ(psq->moves.size(), static_cast<size_t>(stored.plies_size()));
    for (int i = 0; i < stored.plies_size(); ++i) {
      EXPECT_EQ(MoveIndex(psq->moves[i], 15), stored.plies(i).move());
    }
  }
}

TEST(ArenaTest, OpeningFileOpeningsAreNamedByNumber) {
  const fs::path dir = TempDir("openings");
  fs::create_directories(dir);
  ASSERT_TRUE(WriteFileAtomically((dir / "book.txt").string(),
                                  "0,0, 1,-1\n\n0,0, 1,1, 2,0\n")
                  .ok());
  absl::StatusOr<std::vector<ArenaOpening>> openings =
      ArenaOpeningsFromFile((dir / "book.txt").string(), OpeningFormat{});
  ASSERT_TRUE(openings.ok()) << openings.status();
  ASSERT_EQ(openings->size(), 2u);
  EXPECT_EQ((*openings)[1].name, "book.txt#2");
  EXPECT_EQ(MoveListString((*openings)[0].moves), "h8 i9");
}

TEST(ArenaTest, OptionsAreChecked) {
  ArenaOptions options = SmallOptions(3);
  EXPECT_FALSE(options.Validate().ok());  // odd
  options = SmallOptions(4);
  options.openings.clear();
  EXPECT_FALSE(options.Validate().ok());
  options = SmallOptions(4);
  options.sprt = SprtParams{10, 0, 0.05, 0.05};
  EXPECT_FALSE(options.Validate().ok());
}

// An engine that fails every game loses all its games; the match finishes.
struct FaultCase {
  std::vector<std::string> argv;  // the script, then its arguments
  EngineFault fault;
  // Short only for the engine that must time out: the others answer at
  // once, and a busy machine must not turn their fault into a timeout.
  int64_t turn_time_ms = 60000;
};

class EngineFaultTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(EngineFaultTest, FaultyEngineLosesEveryGameAndTheMatchGoesOn) {
  GomocupClientOptions engine;
  engine.argv = GetParam().argv;
  engine.argv[0] = EnginePath(engine.argv[0]);
  engine.turn_time_ms = GetParam().turn_time_ms;
  engine.grace_ms = 100;
  // Bash scripts need no start-up allowance (the slow one would otherwise
  // sleep through it in every game); START may take what a busy machine
  // needs.
  engine.startup_ms = 0;
  engine.command_timeout_ms = 60000;
  engine.quit_timeout_ms = 100;
  EnginePlayer a("engine", engine);
  RandomPlayer b;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(SmallOptions(4), a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 4);
  EXPECT_EQ(summary->stop_reason, "completed");
  EXPECT_EQ(summary->a_black.losses + summary->a_white.losses, 4);
  EXPECT_EQ(summary->faults_a[static_cast<int>(GetParam().fault)], 4);
  EXPECT_EQ(a.launches(), 4);  // a faulty engine is relaunched every game
  const nlohmann::json json = nlohmann::json::parse(ArenaSummaryJson(*summary));
  std::string key(EngineFaultName(GetParam().fault));
  std::replace(key.begin(), key.end(), ' ', '_');
  EXPECT_EQ(json["faults"]["a"][key], 4) << json.dump();
  EXPECT_EQ(json["a_as_black"]["losses"], 2);
}

INSTANTIATE_TEST_SUITE_P(
    Engines, EngineFaultTest,
    ::testing::Values(
        FaultCase{{"slow_engine.sh"}, EngineFault::kTimedOut, 100},
        FaultCase{{"garbage_engine.sh"}, EngineFault::kGarbage},
        FaultCase{{"exit_engine.sh"}, EngineFault::kCrashed},
        // Every opening holds the centre, Gomocup 7,7.
        FaultCase{{"fixed_engine.sh", "7,7"}, EngineFault::kIllegalMove}),
    [](const auto& info) {
      const std::string& name = info.param.argv[0];
      return name.substr(0, name.find('_'));
    });

TEST(ArenaTest, WorkingEngineIsReusedBetweenGames) {
  GomocupClientOptions engine;
  engine.argv = {EnginePath("legal_engine.sh")};
  engine.turn_time_ms = 2000;
  EnginePlayer a("legal", engine);
  RandomPlayer b;
  ArenaOptions options = SmallOptions(6);
  options.concurrent_games = 2;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(options, a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 6);
  int64_t faults = 0;
  for (int64_t n : summary->faults_a) faults += n;
  // One process per game in flight, plus one per fault (a forbidden point
  // chosen by its naive scan is an illegal move).
  EXPECT_LE(a.launches(), 2 + faults);
}

// Swap2 options for engines: freestyle (Gomocup's swap2 rule, and the
// fake engines' naive moves are never forbidden), one game at a time.
ArenaOptions Swap2Options() {
  ArenaOptions options;
  options.variant = Variant::kFreestyle;
  options.opening_rule = *ParseOpeningRule("swap2");
  options.max_games = 2;
  options.concurrent_games = 1;
  options.max_plies = 30;
  return options;
}

GomocupClientOptions Swap2Engine(std::vector<std::string> answers) {
  GomocupClientOptions engine;
  engine.argv = {EnginePath("legal_engine.sh")};
  engine.argv.insert(engine.argv.end(), answers.begin(), answers.end());
  engine.turn_time_ms = 2000;
  return engine;
}

// Both engines answer SWAP2BOARD the same way: three stones, then two more
// (g9 f10), then, as the first player again, white with move 6 (k5).
TEST(ArenaSwap2Test, EnginesDecideThroughSwap2BoardAndTheGamesReplay) {
  const GomocupClientOptions engine =
      Swap2Engine({"7,7 8,7 9,9", "6,6 5,5", "10,10"});
  EnginePlayer a("a", engine);
  EnginePlayer b("b", engine);
  GameLog log;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(Swap2Options(), a, b, log.Callbacks(), nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 2);
  // Each first player swapped once, at its choice after five stones; each
  // second player passed its choice by placing two stones.
  EXPECT_EQ(summary->swaps_a.options, 2);
  EXPECT_EQ(summary->swaps_a.swaps, 1);
  EXPECT_EQ(summary->swaps_b.swaps, 1);
  EXPECT_EQ(summary->swaps_a.fallback_games, 0);
  for (const auto& [index, game] : log.games) {
    EXPECT_EQ(game.fault, EngineFault::kNone) << game.fault_message;
    // The first player took white.
    EXPECT_EQ(game.a_is_black, index == 1);
    absl::StatusOr<GameRecord> record = RecordFromProto(game.record);
    ASSERT_TRUE(record.ok()) << record.status();
    std::vector<std::string> actions;
    for (const OpeningAction& action : record->opening_actions) {
      actions.push_back(action.ToString());
    }
    EXPECT_EQ(absl::StrJoin(actions, " "),
              "Place(h8) Place(i8) Place(j6) Place(g9) Place(f10) Swap");
    ASSERT_GT(record->moves.size(), 6u);
    EXPECT_EQ(MoveName(record->moves[5]), "k5");  // the engine's move 6
    ASSERT_TRUE(record->opening_rule.has_value());
    const absl::Status replayed =
        CheckOpeningRecord(*record->opening_rule, record->opening_actions,
                           record->moves, Variant::kFreestyle, record->size)
            .status();
    EXPECT_TRUE(replayed.ok()) << replayed;
  }
}

TEST(ArenaSwap2Test, AnEngineWithoutSwap2BoardTakesTheDefaults) {
  EnginePlayer a("plain", Swap2Engine({}));
  RandomPlayer b;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(Swap2Options(), a, b, {}, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->games, 2);
  EXPECT_EQ(summary->swaps_a.fallback_games, 2);
  EXPECT_EQ(summary->swaps_b.fallback_games, 0);
  for (int64_t n : summary->faults_a) EXPECT_EQ(n, 0);
  EXPECT_TRUE(absl::StrContains(
      ArenaReport(*summary),
      "A took the swap2 defaults in 2 games: it does not know the protocol's "
      "command (SWAP2BOARD)\n"))
      << ArenaReport(*summary);
  const nlohmann::json json = nlohmann::json::parse(ArenaSummaryJson(*summary));
  EXPECT_EQ(json["swaps"]["a"]["fallback_games"], 2) << json.dump();
}

}  // namespace
}  // namespace renju
