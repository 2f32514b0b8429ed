// The manager side of the Gomocup protocol: scripted fake engines in
// tests/data/gomocup/ for each way an engine can fail, and full games
// between two `renju gomocup` processes.
#include "gomocup/gomocup_client.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gomocup/gomocup_protocol.h"
#include "gomocup/swap2.h"
#include "gtest/gtest.h"
#include "rules/game.h"

namespace renju {
namespace {

std::string FakeEngine(const std::string& name) {
  return std::string(RENJU_SOURCE_DIR) + "/tests/data/gomocup/" + name;
}

GomocupClientOptions ScriptOptions(const std::string& script,
                                   std::vector<std::string> args = {}) {
  GomocupClientOptions options;
  options.argv = {"/bin/bash", FakeEngine(script)};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.turn_time_ms = 300;
  options.grace_ms = 100;
  // Bash starts in milliseconds: the scripts need no start-up allowance,
  // so a move's limit is exactly turn + grace. Answers that need no thinking
  // get a limit no busy machine reaches; it only matters when a test fails.
  options.startup_ms = 0;
  options.command_timeout_ms = 60000;
  return options;
}

std::unique_ptr<GomocupClient> LaunchOrDie(GomocupClientOptions options) {
  absl::StatusOr<std::unique_ptr<GomocupClient>> client =
      GomocupClient::Launch(std::move(options));
  EXPECT_TRUE(client.ok()) << client.status();
  return client.ok() ? *std::move(client) : nullptr;
}

Game GameOf(const std::string& moves) {
  absl::StatusOr<std::vector<Move>> parsed = ParseMoveList(moves, 15);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<Game> game = Game::FromMoves(
      Variant::kRenju, 15, parsed.ok() ? *parsed : std::vector<Move>{});
  EXPECT_TRUE(game.ok()) << game.status();
  return *game;
}

// True once the process has been reaped (by the client).
bool Reaped(pid_t pid) {
  return waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD;
}

int64_t MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now() - start)
      .count();
}

TEST(GomocupClientTest, AProgramThatCannotRunIsAnError) {
  GomocupClientOptions options;
  options.argv = {"/nonexistent/pbrain-nothing"};
  const absl::Status status = GomocupClient::Launch(options).status();
  EXPECT_TRUE(absl::IsNotFound(status)) << status;
  EXPECT_TRUE(
      absl::StrContains(status.message(), "/nonexistent/pbrain-nothing"));
  options.argv.clear();
  EXPECT_FALSE(GomocupClient::Launch(options).ok());
}

TEST(GomocupClientTest, PlaysThroughBeginTurnAndBoard) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("legal_engine.sh"));
  ASSERT_NE(client, nullptr);
  absl::StatusOr<std::string> about = client->About();
  ASSERT_TRUE(about.ok()) << about.status();
  EXPECT_EQ(*about, "name=\"fake-legal\", version=\"1.0\"");
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());

  // BEGIN: the engine takes its first point, 0,0 = a15; MESSAGE and DEBUG
  // lines before it are skipped.
  Game game(Variant::kRenju, 15);
  absl::StatusOr<Move> move = client->GetMove(game);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "a15");
  ASSERT_TRUE(game.Play(*move).ok());
  // TURN with our reply b15 (1,0): the engine answers c15 (2,0).
  ASSERT_TRUE(game.Play(Move::At(*ParsePoint("b15", 15))).ok());
  move = client->GetMove(game);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "c15");
  EXPECT_EQ(client->fault(), EngineFault::kNone);

  // A position the engine has not followed goes as BOARD: a15 is taken.
  const pid_t pid = client->pid();
  Game other = GameOf("h8 a15");
  move = client->GetMove(other);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "b15");

  client->Quit();
  EXPECT_FALSE(client->running());
  EXPECT_TRUE(Reaped(pid));
}

TEST(GomocupClientTest, SendsTheNodeLimitOnlyWhenGiven) {
  for (int64_t max_nodes : {0, 7}) {
    GomocupClientOptions options = ScriptOptions("info_engine.sh");
    options.max_nodes = max_nodes;
    std::unique_ptr<GomocupClient> client = LaunchOrDie(options);
    ASSERT_NE(client, nullptr);
    ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
    Game game(Variant::kRenju, 15);
    absl::StatusOr<Move> move = client->GetMove(game);
    ASSERT_TRUE(move.ok()) << move.status();
    // The engine answers x = the max_node it saw (0: none was sent).
    EXPECT_EQ(move->point().x, max_nodes);
    client->Quit();
  }
}

// A swap2 opening after the stones of `moves` (Gomocup "x,y", in order).
OpeningState Swap2After(const std::vector<std::string>& moves) {
  std::vector<Point> stones;
  for (const std::string& m : moves) {
    stones.push_back(*ParseGomocupPoint(m, 15));
  }
  absl::StatusOr<OpeningState> state =
      Swap2StateOf(stones, Variant::kRenju, 15);
  EXPECT_TRUE(state.ok()) << state.status();
  return *state;
}

TEST(GomocupClientTest, ReadsSwap2AnswersAsTheRulesActions) {
  std::unique_ptr<GomocupClient> client = LaunchOrDie(
      ScriptOptions("legal_engine.sh", {"7,7 8,7 9,9", "SWAP", "10,10"}));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  absl::StatusOr<Swap2Turn> turn = client->Swap2Board(Swap2After({}));
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_EQ(turn->actions.size(), 3u);
  turn = client->Swap2Board(Swap2After({"7,7", "8,7", "9,9"}));
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_EQ(turn->actions, std::vector<OpeningAction>{OpeningAction::Swap()});
  turn = client->Swap2Board(Swap2After({"7,7", "8,7", "9,9", "8,8", "8,6"}));
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_EQ(turn->actions, std::vector<OpeningAction>{OpeningAction::Swap()});
  EXPECT_EQ(turn->move, *ParseGomocupPoint("10,10", 15));
  // The next move request sends the whole position: a15 is taken.
  absl::StatusOr<Move> move = client->GetMove(GameOf("a15 h8"));
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "b15");
}

TEST(GomocupClientTest, AnEngineWithoutSwap2RefusesAndPlaysOn) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("legal_engine.sh"));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  const absl::Status refused = client->Swap2Board(Swap2After({})).status();
  EXPECT_TRUE(absl::IsUnimplemented(refused)) << refused;
  EXPECT_TRUE(absl::StrContains(
      refused.message(),
      "answered 'SWAP2BOARD (0 stones)' with 'UNKNOWN SWAP2BOARD'"))
      << refused;
  EXPECT_EQ(client->fault(), EngineFault::kRefused);
  EXPECT_TRUE(client->running());
  absl::StatusOr<Move> move = client->GetMove(Game(Variant::kRenju, 15));
  ASSERT_TRUE(move.ok()) << move.status();
}

TEST(GomocupClientTest, ABadSwap2AnswerIsAFault) {
  struct Case {
    std::string answer;
    EngineFault fault;
    std::string says;
  };
  for (const Case& c :
       {Case{"7,7 7,7 9,9", EngineFault::kIllegalMove, "point 2 of 3 (7,7)"},
        Case{"7,7 8,7", EngineFault::kIllegalMove, "too few points (2)"},
        Case{"three stones", EngineFault::kGarbage, "is not a point"}}) {
    std::unique_ptr<GomocupClient> client =
        LaunchOrDie(ScriptOptions("legal_engine.sh", {c.answer, "", ""}));
    ASSERT_NE(client, nullptr);
    ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
    const pid_t pid = client->pid();
    const absl::Status status = client->Swap2Board(Swap2After({})).status();
    EXPECT_FALSE(status.ok()) << c.answer;
    EXPECT_TRUE(absl::StrContains(status.message(), c.says)) << status;
    EXPECT_EQ(client->fault(), c.fault) << c.answer;
    EXPECT_FALSE(client->running());
    EXPECT_TRUE(Reaped(pid));
  }
}

TEST(GomocupClientTest, AnEngineThatSleepsTimesOutAndIsKilled) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("slow_engine.sh"));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  const pid_t pid = client->pid();
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status =
      client->GetMove(Game(Variant::kRenju, 15)).status();
  const int64_t elapsed_ms = MillisSince(start);
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  EXPECT_TRUE(absl::StrContains(status.message(),
                                "did not answer 'BEGIN' within 400 ms"))
      << status;
  EXPECT_EQ(client->fault(), EngineFault::kTimedOut);
  EXPECT_GE(elapsed_ms, 400);
  // The engine would answer after 30 s: the client gave up long before.
  EXPECT_LT(elapsed_ms, 20000);
  EXPECT_FALSE(client->running());
  EXPECT_TRUE(Reaped(pid));
  // Nothing more can be asked of it.
  EXPECT_TRUE(absl::IsFailedPrecondition(client->NewGame(Variant::kRenju, 15)));
}

TEST(GomocupClientTest, TheMatchClockLimitsAMove) {
  GomocupClientOptions options = ScriptOptions("slow_engine.sh");
  options.turn_time_ms = 600000;
  options.match_time_ms = 200;
  std::unique_ptr<GomocupClient> client = LaunchOrDie(options);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kFreestyle, 20).ok());
  const absl::Status status =
      client->GetMove(Game(Variant::kFreestyle, 20)).status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  // The limit was the match time left plus the grace, not the turn time.
  EXPECT_TRUE(absl::StrContains(status.message(), "within 300 ms")) << status;
  EXPECT_LT(*client->time_left_ms(), 0);
}

TEST(GomocupClientTest, AFreshEnginesFirstMoveGetsTheStartUpAllowance) {
  // The engine takes a second over its first move, far past turn + grace
  // (400 ms), then never answers again.
  GomocupClientOptions options = ScriptOptions("slow_start_engine.sh", {"1"});
  options.startup_ms = 600000;
  options.match_time_ms = 30000;
  std::unique_ptr<GomocupClient> client = LaunchOrDie(options);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  Game game(Variant::kRenju, 15);
  absl::StatusOr<Move> move = client->GetMove(game);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "h8");
  // The match clock is charged the turn limit, not the start-up.
  EXPECT_EQ(*client->time_left_ms(), 30000 - 300);

  // From the second move on, the turn limit alone.
  ASSERT_TRUE(game.Play(*move).ok());
  ASSERT_TRUE(game.Play(Move::At(*ParsePoint("h9", 15))).ok());
  const absl::Status status = client->GetMove(game).status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), "within 400 ms")) << status;
  EXPECT_EQ(client->fault(), EngineFault::kTimedOut);
}

TEST(GomocupClientTest, WithoutTheAllowanceASlowStartIsATimeout) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("slow_start_engine.sh", {"1"}));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  const absl::Status status =
      client->GetMove(Game(Variant::kRenju, 15)).status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), "within 400 ms")) << status;
}

TEST(GomocupClientTest, GarbageLosesTheGame) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("garbage_engine.sh"));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  const absl::Status status =
      client->GetMove(Game(Variant::kRenju, 15)).status();
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(client->fault(), EngineFault::kGarbage);
  EXPECT_TRUE(absl::StrContains(status.message(),
                                "answered 'I resign, human' instead of a move"))
      << status;
  EXPECT_FALSE(client->running());
}

TEST(GomocupClientTest, AnEngineThatExitsHasCrashed) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("exit_engine.sh"));
  ASSERT_NE(client, nullptr);
  const pid_t pid = client->pid();
  const absl::Status status = client->NewGame(Variant::kRenju, 15);
  EXPECT_TRUE(absl::IsUnavailable(status)) << status;
  EXPECT_EQ(client->fault(), EngineFault::kCrashed);
  EXPECT_TRUE(absl::StrContains(status.message(), "exited with status 3"))
      << status;
  EXPECT_TRUE(Reaped(pid));
}

TEST(GomocupClientTest, AnOccupiedPointIsIllegal) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("occupied_engine.sh"));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  const absl::Status status = client->GetMove(GameOf("h8")).status();
  EXPECT_EQ(client->fault(), EngineFault::kIllegalMove);
  EXPECT_TRUE(
      absl::StrContains(status.message(), "played 7,7 (h8), an occupied point"))
      << status;
}

TEST(GomocupClientTest, OffBoardAndForbiddenPointsAreIllegal) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("fixed_engine.sh", {"15,3"}));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  absl::Status status = client->GetMove(GameOf("h8")).status();
  EXPECT_EQ(client->fault(), EngineFault::kIllegalMove);
  EXPECT_TRUE(
      absl::StrContains(status.message(), "played 15,3, off the 15x15 board"))
      << status;

  // Black to move; h9 (7,6) is a double-three (RULES.md §4).
  const Game game = GameOf("g10 e9 h10 f9 i8 g9 h7 i9");
  client = LaunchOrDie(ScriptOptions("fixed_engine.sh", {"7,6"}));
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  status = client->GetMove(game).status();
  EXPECT_EQ(client->fault(), EngineFault::kIllegalMove);
  EXPECT_TRUE(absl::StrContains(status.message(),
                                "(h9), forbidden for black (double-three)"))
      << status;

  // The same point is fine under freestyle.
  absl::StatusOr<Game> freestyle =
      Game::FromMoves(Variant::kFreestyle, 15, game.moves());
  ASSERT_TRUE(freestyle.ok());
  client = LaunchOrDie(ScriptOptions("fixed_engine.sh", {"7,6"}));
  ASSERT_TRUE(client->NewGame(Variant::kFreestyle, 15).ok());
  absl::StatusOr<Move> move = client->GetMove(*freestyle);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(MoveName(*move), "h9");
}

TEST(GomocupClientTest, AnEngineThatRefusesStartIsReported) {
  std::unique_ptr<GomocupClient> client = LaunchOrDie(
      ScriptOptions("fixed_engine.sh", {"7,7", "ERROR only 20x20"}));
  ASSERT_NE(client, nullptr);
  const absl::Status status = client->NewGame(Variant::kRenju, 15);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(client->fault(), EngineFault::kRefused);
  EXPECT_TRUE(absl::StrContains(status.message(), "'ERROR only 20x20'"))
      << status;
  EXPECT_TRUE(client->running());
}

TEST(GomocupClientTest, LinesThatCameUnaskedAreNotAnswers) {
  // The engine writes to this FIFO once "UNKNOWN late" is on its output.
  const std::string fifo = ::testing::TempDir() + "/fixed_engine_" +
                           std::to_string(getpid()) + ".fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << fifo;
  std::unique_ptr<GomocupClient> client = LaunchOrDie(
      ScriptOptions("fixed_engine.sh", {"7,7", "OK", "UNKNOWN late", fifo}));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  ASSERT_TRUE(client->GetMove(Game(Variant::kRenju, 15)).ok());
  // Blocks until the engine has written "UNKNOWN late" after its move.
  std::ifstream written(fifo);
  std::string line;
  ASSERT_TRUE(std::getline(written, line));
  EXPECT_EQ(line, "written");
  unlink(fifo.c_str());
  const absl::Status status = client->NewGame(Variant::kRenju, 15);
  EXPECT_TRUE(status.ok()) << status;
}

TEST(GomocupClientTest, CallerMistakesAreNotTheEnginesFault) {
  std::unique_ptr<GomocupClient> client =
      LaunchOrDie(ScriptOptions("legal_engine.sh"));
  ASSERT_NE(client, nullptr);
  EXPECT_TRUE(absl::IsFailedPrecondition(client->GetMove(Game()).status()));
  ASSERT_TRUE(client->NewGame(Variant::kRenju, 15).ok());
  Game with_pass(Variant::kRenju, 15);
  ASSERT_TRUE(with_pass.Play(Move::Pass()).ok());
  EXPECT_TRUE(absl::IsInvalidArgument(client->GetMove(with_pass).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      client->GetMove(Game(Variant::kFreestyle, 15)).status()));
  EXPECT_EQ(client->fault(), EngineFault::kNone);
  EXPECT_TRUE(client->running());
}

// Two `renju gomocup` engines (one started as pbrain-renju) play a whole
// game through the client, as the arena will.
void PlayFullGame(Variant variant, int size) {
  const std::string bin = RENJU_BINARY_DIR;
  GomocupClientOptions black_options;
  black_options.argv = {bin + "/renju", "gomocup", "--brain",
                        "tactical",     "--seed",  "1"};
  black_options.turn_time_ms = 500;
  // Start-up (loading LibTorch) is not under test: on a loaded machine it
  // can take several seconds before the first answer.
  black_options.command_timeout_ms = 30000;
  GomocupClientOptions white_options = black_options;
  white_options.argv = {bin + "/pbrain-renju", "--brain", "tactical", "--seed",
                        "2"};
  std::unique_ptr<GomocupClient> black = LaunchOrDie(black_options);
  std::unique_ptr<GomocupClient> white = LaunchOrDie(white_options);
  ASSERT_TRUE(black != nullptr && white != nullptr);
  absl::StatusOr<std::string> about = white->About();
  ASSERT_TRUE(about.ok()) << about.status();
  EXPECT_TRUE(absl::StartsWith(*about, "name=\"renju-zero\"")) << *about;
  ASSERT_TRUE(black->NewGame(variant, size).ok());
  ASSERT_TRUE(white->NewGame(variant, size).ok());

  Game game(variant, size);
  while (!game.over()) {
    GomocupClient& engine =
        game.side_to_move() == Color::kBlack ? *black : *white;
    absl::StatusOr<Move> move = engine.GetMove(game);
    ASSERT_TRUE(move.ok()) << "move " << game.ply() + 1 << ": "
                           << move.status();
    ASSERT_TRUE(game.Play(*move).ok());
  }
  EXPECT_TRUE(game.forbidden_played().empty());
  EXPECT_NE(game.end_reason(), EndReason::kForbidden);
  EXPECT_GE(game.ply(), 9);
}

TEST(GomocupClientTest, TwoRenjuGomocupEnginesPlayAFullRenjuGame) {
  PlayFullGame(Variant::kRenju, 15);
}

TEST(GomocupClientTest, TwoRenjuGomocupEnginesPlayAFullFreestyleGame) {
  PlayFullGame(Variant::kFreestyle, 20);
}

}  // namespace
}  // namespace renju
