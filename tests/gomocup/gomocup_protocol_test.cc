// The engine side of the Gomocup protocol: scripted sessions in-process
// through a pipe, and the `renju gomocup` / `pbrain-renju` binary.
#include "gomocup/gomocup_protocol.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/notification.h"
#include "gomocup/swap2.h"
#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "tests/gomocup/harness.h"

namespace renju {
namespace {

using testing::Harness;

// A renju position with black to move: white's e9 f9 g9 . i9 needs h9, and
// h9 is a double-three for black (RULES.md §4 shape g10 h10 i8 h7), so
// black cannot block. Gomocup coordinates, in move order.
constexpr const char* kForbiddenBlockBoard[] = {
    "6,5,1", "4,6,2", "7,5,1", "5,6,2", "8,7,1", "6,6,2", "7,8,1", "8,6,2"};
constexpr const char* kH9 = "7,6";

std::vector<std::string> RunScript(
    const std::vector<std::string>& script,
    std::unique_ptr<GomocupBrain> brain = std::make_unique<TacticalBrain>(1)) {
  Harness harness(std::move(brain));
  for (const std::string& line : script) harness.Send(line);
  return harness.Finish();
}

std::vector<std::string> WithBoard(std::vector<std::string> script,
                                   const char* command) {
  script.push_back(command);
  for (const char* line : kForbiddenBlockBoard) script.push_back(line);
  script.push_back("DONE");
  return script;
}

// What a StopWaitingBrain was given; read `limits` and `stopped` after the
// session has ended. `thinking` is notified when the first move's thinking
// has begun, so a test can send a command that must arrive during it.
struct Seen {
  MoveLimits limits;
  bool stopped = false;
  Notification thinking;
};

// Ignores the budget: thinks until told to stop (or a minute, which only a
// failing test reaches), then plays the first legal point. It looks at the
// stop flag every millisecond, as a real brain's search does between
// playouts: the flag is what the protocol gives a brain.
class StopWaitingBrain : public GomocupBrain {
 public:
  explicit StopWaitingBrain(Seen* seen) : seen_(seen) {}
  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                  const std::atomic<bool>* stop) override {
    seen_->limits = limits;
    seen_->thinking.Notify();
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (!stop->load() && absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    seen_->stopped = stop->load();
    return Move::At(game.LegalPoints().front());
  }

 private:
  Seen* seen_;
};

// Always answers the same point, legal or not.
class FixedBrain : public GomocupBrain {
 public:
  explicit FixedBrain(Point p) : p_(p) {}
  absl::StatusOr<Move> ChooseMove(Game&, const MoveLimits&,
                                  const std::atomic<bool>*) override {
    return Move::At(p_);
  }

 private:
  Point p_;
};

int64_t MillisSince(absl::Time start) {
  return absl::ToInt64Milliseconds(absl::Now() - start);
}

// --- Helpers -----------------------------------------------------------------

TEST(GomocupCoordinatesTest, RowsCountFromTheTop) {
  EXPECT_EQ(FromGomocup(7, 7, 15), Point(7, 7));  // h8
  EXPECT_EQ(PointName(FromGomocup(8, 6, 15)), "i9");
  EXPECT_EQ(PointName(FromGomocup(0, 0, 15)), "a15");
  EXPECT_EQ(GomocupPointText(Point(8, 8), 15), "8,6");
  EXPECT_EQ(*ParseGomocupPoint(" 3 , 4", 15), FromGomocup(3, 4, 15));
}

TEST(GomocupCoordinatesTest, RejectsMalformedAndOffBoardPoints) {
  for (const char* text : {"7", "a,b", "1,2,3", "", "7,7x"}) {
    EXPECT_TRUE(absl::IsInvalidArgument(ParseGomocupPoint(text, 15).status()))
        << text;
  }
  EXPECT_TRUE(absl::IsOutOfRange(ParseGomocupPoint("15,0", 15).status()));
  EXPECT_TRUE(absl::IsOutOfRange(ParseGomocupPoint("-1,3", 15).status()));
}

TEST(GomocupRuleTest, MapsTheBitmaskAndYixinsRenjuCode) {
  EXPECT_EQ(*VariantFromGomocupRule(0), Variant::kFreestyle);
  EXPECT_EQ(*VariantFromGomocupRule(1), Variant::kStandard);
  EXPECT_EQ(*VariantFromGomocupRule(3), Variant::kStandard);
  EXPECT_EQ(*VariantFromGomocupRule(2), Variant::kRenju);
  EXPECT_EQ(*VariantFromGomocupRule(4), Variant::kRenju);
  EXPECT_EQ(*VariantFromGomocupRule(5), Variant::kRenju);
  EXPECT_FALSE(VariantFromGomocupRule(8).ok());
  EXPECT_FALSE(VariantFromGomocupRule(-1).ok());
  EXPECT_FALSE(VariantFromGomocupRule(16).ok());
  EXPECT_EQ(GomocupRuleOf(Variant::kRenju), 4);
  EXPECT_EQ(GomocupRuleOf(Variant::kStandard), 1);
  EXPECT_EQ(GomocupRuleOf(Variant::kFreestyle), 0);
}

TEST(GomocupBudgetTest, KeepsAMarginAndAShareOfTheMatchTime) {
  EXPECT_EQ(MoveBudgetMs(5000, std::nullopt), 5000 - 30 - 250);
  EXPECT_EQ(MoveBudgetMs(60000, 3000), 200 - 30 - 10);
  EXPECT_EQ(MoveBudgetMs(5000, -20), 0);
  EXPECT_EQ(MoveBudgetMs(0, std::nullopt), 0);
  EXPECT_EQ(MoveBudgetMs(20, std::nullopt), 0);
}

// --- Scripted sessions -------------------------------------------------------

TEST(GomocupProtocolTest, PlaysAScriptedGame) {
  const std::vector<std::string> replies =
      RunScript({"START 15", "INFO rule 4", "INFO timeout_turn 1000", "ABOUT",
                 "BEGIN", "TURN 8,6", "END", "ABOUT"});
  ASSERT_EQ(replies.size(), 4u);
  EXPECT_EQ(replies[0], "OK");
  EXPECT_TRUE(absl::StartsWith(replies[1], "name=\"renju-zero\", version="))
      << replies[1];
  EXPECT_EQ(replies[2], "7,7");
  absl::StatusOr<Point> reply = ParseGomocupPoint(replies[3], 15);
  ASSERT_TRUE(reply.ok()) << replies[3];
  EXPECT_NE(*reply, FromGomocup(7, 7, 15));
  EXPECT_NE(*reply, FromGomocup(8, 6, 15));
}

TEST(GomocupProtocolTest, AnswersBadLinesAndKeepsRunning) {
  const std::vector<std::string> replies = RunScript({
      "TURN 7,7",                // before START
      "START abc",               //
      "START 30",                //
      "start 15",                // commands are case-insensitive
      "FOO bar",                 //
      "INFO timeout_turn soon",  //
      "INFO rule 8",             // caro
      "INFO colour blue",        // unknown keys are ignored
      "TURN 7",                  //
      "TURN 15,3",               //
      "",                        // blank lines are ignored
      "BEGIN",                   //
      "TURN 7,7",                // occupied
      "TAKEBACK 1,1",            // not the last move
      "RECTSTART 15,20",         //
      "SWAP2BOARD",
      "7,7,1",
      "DONE",
      "PLAY 1,1",  //
      "ABOUT",
  });
  const std::vector<std::string> expected_prefixes = {
      "ERROR no board yet: send START first",
      "ERROR START expects a board size, got 'abc'",
      "ERROR unsupported board size 30",
      "OK",
      "UNKNOWN command 'FOO'",
      "ERROR INFO timeout_turn: expected a non-negative integer, got 'soon'",
      "ERROR INFO rule 8: caro (8) is not supported",
      "ERROR TURN: '7' is not a point",
      "ERROR TURN: point 15,3 is off the 15x15 board",
      "7,7",
      "ERROR TURN 7,7: move 2 (h8) is on an occupied point",
      "ERROR TAKEBACK 1,1: the last move is 7,7",
      "ERROR rectangular boards (15x20) are not supported",
      "ERROR SWAP2BOARD: line 1 '7,7,1' of the position: '7,7,1' is not a "
      "point",
      "UNKNOWN command 'PLAY'",
      "name=\"renju-zero\"",
  };
  ASSERT_EQ(replies.size(), expected_prefixes.size());
  for (size_t i = 0; i < replies.size(); ++i) {
    EXPECT_TRUE(absl::StartsWith(replies[i], expected_prefixes[i]))
        << "reply " << i << ": " << replies[i];
  }
}

// Answers the swap2 decisions it is given, in order (the rule's default
// once they run out), and moves on the first legal point.
class ScriptedOpeningBrain : public GomocupBrain {
 public:
  explicit ScriptedOpeningBrain(std::vector<OpeningAction> actions)
      : actions_(std::move(actions)) {}
  absl::StatusOr<OpeningAction> ChooseOpeningAction(
      const OpeningState& state, const MoveLimits& limits,
      const std::atomic<bool>* stop) override {
    if (next_ == actions_.size()) {
      return GomocupBrain::ChooseOpeningAction(state, limits, stop);
    }
    return actions_[next_++];
  }
  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits&,
                                  const std::atomic<bool>*) override {
    return Move::At(game.LegalPoints().front());
  }

 private:
  std::vector<OpeningAction> actions_;
  size_t next_ = 0;
};

// SWAP2BOARD with the stones (Gomocup "x,y") of `stones`.
std::vector<std::string> Swap2Board(std::vector<std::string> stones) {
  stones.insert(stones.begin(), "SWAP2BOARD");
  stones.push_back("DONE");
  return stones;
}

std::vector<std::string> Concat(
    const std::vector<std::vector<std::string>>& parts) {
  std::vector<std::string> out;
  for (const auto& part : parts)
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

// What `answer` stands for after `stones`, checked against the rule.
absl::StatusOr<Swap2Turn> TurnOf(const std::vector<std::string>& stones,
                                 const std::string& answer) {
  std::vector<Point> points;
  for (const std::string& s : stones)
    points.push_back(*ParseGomocupPoint(s, 15));
  absl::StatusOr<OpeningState> state =
      Swap2StateOf(points, Variant::kFreestyle, 15);
  if (!state.ok()) return state.status();
  absl::StatusOr<Swap2Answer> parsed = ParseSwap2Answer(answer, 15);
  if (!parsed.ok()) return parsed.status();
  return Swap2TurnOf(*state, *parsed);
}

const std::vector<std::string> kThree = {"7,7", "8,7", "9,9"};
const std::vector<std::string> kFive = {"7,7", "8,7", "9,9", "8,8", "8,6"};

TEST(GomocupSwap2Test, ABrainWithoutJudgementTakesTheRuleDefaults) {
  // The tactical brain places three stones near the centre, keeps white
  // and plays move 4, and keeps black after five stones.
  const std::vector<std::string> replies = RunScript(Concat(
      {{"START 15"}, Swap2Board({}), Swap2Board(kThree), Swap2Board(kFive)}));
  ASSERT_EQ(replies.size(), 4u);
  absl::StatusOr<Swap2Turn> placed = TurnOf({}, replies[1]);
  ASSERT_TRUE(placed.ok()) << replies[1] << ": " << placed.status();
  EXPECT_EQ(placed->actions.size(), 3u);
  absl::StatusOr<Swap2Turn> kept = TurnOf(kThree, replies[2]);
  ASSERT_TRUE(kept.ok()) << replies[2] << ": " << kept.status();
  EXPECT_EQ(kept->actions[0], OpeningAction::KeepColours());
  EXPECT_TRUE(kept->move.has_value());
  EXPECT_EQ(replies[3], "SWAP");
}

TEST(GomocupSwap2Test, AnswersEachDecisionByTheConvention) {
  const Point e5 = *ParseGomocupPoint("4,10", 15);
  const Point f5 = *ParseGomocupPoint("5,10", 15);
  auto brain =
      std::make_unique<ScriptedOpeningBrain>(std::vector<OpeningAction>{
          OpeningAction::Swap(),                               // after 3: black
          OpeningAction::Place(e5), OpeningAction::Place(f5),  // after 3: two
          OpeningAction::Swap(),                               // after 5: white
          OpeningAction::Place(e5),  // refused after 5: the default instead
      });
  const std::vector<std::string> replies = RunScript(
      Concat({{"START 15"},
              Swap2Board(kThree),
              // The first player, now white, plays move 4; we answer move 5.
              {"TURN 10,10"},
              Swap2Board(kThree),
              Swap2Board(kFive),
              Swap2Board(kFive)}),
      std::move(brain));
  ASSERT_EQ(replies.size(), 6u);
  EXPECT_EQ(replies[1], "SWAP");
  absl::StatusOr<Point> fifth = ParseGomocupPoint(replies[2], 15);
  ASSERT_TRUE(fifth.ok()) << replies[2];
  EXPECT_EQ(replies[3], "4,10 5,10");
  // Move 6, taking white: the brain's first legal point, a1.
  EXPECT_EQ(replies[4], "0,14");
  EXPECT_EQ(replies[5], "SWAP");  // the default keeps black
}

TEST(GomocupSwap2Test, RejectsBadBlocksAndKeepsRunning) {
  const std::vector<std::string> replies = RunScript(Concat({
      Swap2Board({}),  // before START
      {"START 15"},
      Swap2Board({"7,7", "8,7", "9,9", "8,8"}),
      Swap2Board({"7,7", "7,7", "9,9"}),
      Swap2Board({"7,7", "8,7", "9;9"}),
      Swap2Board({"7,7", "8,7", "19,9"}),
      {"INFO rule 4", "START 20"},
      Swap2Board({}),  // renju on 20x20
      {"START 15"},
      Swap2Board(kThree),
  }));
  const std::vector<std::string> expected_prefixes = {
      "ERROR SWAP2BOARD: no board yet: send START first",
      "OK",
      "ERROR SWAP2BOARD: 4 stones; swap2 asks after 0, 3 or 5",
      "ERROR SWAP2BOARD: stone 2 (7,7): ",
      "ERROR SWAP2BOARD: line 3 '9;9' of the position: '9;9' is not a point",
      "ERROR SWAP2BOARD: line 3 '19,9' of the position: point 19,9 is off",
      "OK",
      "ERROR SWAP2BOARD: ",
      "OK",
      "",
  };
  ASSERT_EQ(replies.size(), expected_prefixes.size());
  for (size_t i = 0; i + 1 < replies.size(); ++i) {
    EXPECT_TRUE(absl::StartsWith(replies[i], expected_prefixes[i]))
        << "reply " << i << ": " << replies[i];
  }
  EXPECT_TRUE(TurnOf(kThree, replies.back()).ok()) << replies.back();
}

TEST(GomocupProtocolTest, RejectsBadPositionBlocks) {
  const std::vector<std::string> replies = RunScript({
      "START 15", "BOARD", "7,7,1", "7,8,3", "DONE",  //
      "BOARD",    "7,7,1", "8,8,1", "DONE",           //
      "BOARD",    "7,7,1", "7,7,2", "DONE",           //
      "BOARD",    "seven", "DONE",                    //
      "BOARD",    "7,7,2", "DONE",                    // white to move
  });
  ASSERT_EQ(replies.size(), 6u);
  EXPECT_EQ(replies[0], "OK");
  EXPECT_EQ(replies[1],
            "ERROR BOARD: line 2 '7,8,3' of the position: field 3 (a "
            "continuous-game stone) is not supported");
  EXPECT_TRUE(absl::StrContains(replies[2], "2 own and 0 opponent stones"))
      << replies[2];
  EXPECT_TRUE(absl::StrContains(replies[3], "stone 7,7:")) << replies[3];
  EXPECT_TRUE(absl::StrContains(replies[4], "expected x,y,field"))
      << replies[4];
  absl::StatusOr<Point> reply = ParseGomocupPoint(replies[5], 15);
  EXPECT_TRUE(reply.ok()) << replies[5];
}

TEST(GomocupProtocolTest, ShowsForbiddenPointsUnderBothRenjuCodes) {
  for (const char* rule : {"INFO rule 4", "INFO rule 2"}) {
    std::vector<std::string> script = {"START 15", rule};
    script = WithBoard(script, "YXBOARD");  // sets the position, no reply
    script.push_back("YXSHOWFORBID");
    script.push_back("INFO rule 0");
    script.push_back("YXSHOWFORBID");
    EXPECT_EQ(RunScript(script),
              (std::vector<std::string>{"OK", "FORBID 0706.", "FORBID ."}))
        << rule;
  }
}

TEST(GomocupProtocolTest, NeverPlaysAForbiddenPoint) {
  // The tactical brain would block white's five, but h9 is forbidden.
  std::vector<std::string> replies =
      RunScript(WithBoard({"START 15", "INFO rule 4"}, "BOARD"));
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_NE(replies[1], kH9);
  EXPECT_TRUE(ParseGomocupPoint(replies[1], 15).ok()) << replies[1];

  // A brain that insists on h9 is overruled.
  replies = RunScript(WithBoard({"START 15", "INFO rule 4"}, "BOARD"),
                      std::make_unique<FixedBrain>(FromGomocup(7, 6, 15)));
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_NE(replies[1], kH9);

  // Under freestyle h9 is black's only defence.
  replies = RunScript(WithBoard({"START 15", "INFO rule 0"}, "BOARD"));
  EXPECT_EQ(replies, (std::vector<std::string>{"OK", kH9}));
}

TEST(GomocupProtocolTest, SaysWhenNoFiveIsPossibleAndPlaysOn) {
  // 5x5 freestyle, rows XXOOX / OOXXO filled in order: after white's c5
  // (move 22) every window of five holds both colours (RULES.md §5). The
  // manager does not know the rule and asks for a move: the engine says
  // the game is drawn and still answers with a legal point.
  const char* moves[] = {"a1", "c1", "b1", "d1", "e1", "a2", "c2", "b2",
                         "d2", "e2", "a3", "c3", "b3", "d3", "e3", "a4",
                         "c4", "b4", "d4", "e4", "a5", "c5"};
  std::vector<std::string> script = {"START 5", "INFO rule 0", "BOARD"};
  for (int i = 0; i < 22; ++i) {
    const Point p = *ParsePoint(moves[i], 5);
    // The engine is black, to play move 23: field 1 is its own stone.
    script.push_back(absl::StrCat(p.x, ",", 4 - p.y, ",", i % 2 == 0 ? 1 : 2));
  }
  script.push_back("DONE");
  const std::vector<std::string> replies = RunScript(script);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[1],
            "MESSAGE draw: no five possible for either side after move 22; "
            "playing on");
  absl::StatusOr<Point> reply = ParseGomocupPoint(replies[2], 5);
  ASSERT_TRUE(reply.ok()) << replies[2];
  EXPECT_TRUE(*reply == *ParsePoint("b5", 5) ||
              *reply == *ParsePoint("d5", 5) || *reply == *ParsePoint("e5", 5))
      << replies[2];
}

TEST(GomocupProtocolTest, TakesBackMoves) {
  const std::vector<std::string> replies =
      RunScript({"START 15", "BEGIN", "TURN 8,8", "RESTART", "BEGIN",
                 "TAKEBACK 7,7", "TAKEBACK 7,7", "BEGIN"});
  ASSERT_EQ(replies.size(), 8u);
  EXPECT_EQ(replies[1], "7,7");
  EXPECT_EQ(replies[3], "OK");
  EXPECT_EQ(replies[4], "7,7");
  EXPECT_EQ(replies[5], "OK");
  EXPECT_EQ(replies[6], "ERROR TAKEBACK: there is no move to take back");
  EXPECT_EQ(replies[7], "7,7");
}

TEST(GomocupProtocolTest, RenjuNeedsFifteenByFifteen) {
  const std::vector<std::string> replies =
      RunScript({"START 20", "INFO rule 4", "BEGIN", "INFO rule 0", "BEGIN"});
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[0], "OK");
  EXPECT_TRUE(
      absl::StartsWith(replies[1], "ERROR renju is played on 15 x 15 only"))
      << replies[1];
  EXPECT_EQ(replies[2], "10,10");
}

// --- Time and stopping -------------------------------------------------------

TEST(GomocupProtocolTest, StopsThinkingAtTheTurnLimit) {
  Seen seen;
  Harness harness(std::make_unique<StopWaitingBrain>(&seen));
  harness.Send(
      "START 15\nINFO timeout_turn 300\nINFO max_node 5000\n"
      "INFO thread_num 3");
  ASSERT_EQ(harness.WaitForLines(1).size(), 1u);
  const absl::Time start = absl::Now();
  harness.Send("BEGIN");
  const std::vector<std::string> replies = harness.WaitForLines(2);
  const int64_t elapsed_ms = MillisSince(start);
  ASSERT_EQ(replies.size(), 2u);
  // The watchdog does not stop the brain before the budget is spent; that it
  // stopped it at all shows in `stopped` (the brain would think a minute).
  EXPECT_GE(elapsed_ms, MoveBudgetMs(300, std::nullopt));
  harness.Finish();
  EXPECT_TRUE(seen.stopped);
  EXPECT_EQ(seen.limits.budget_ms, MoveBudgetMs(300, std::nullopt));
  EXPECT_EQ(seen.limits.max_nodes, 5000u);
  EXPECT_EQ(seen.limits.threads, 3);
}

TEST(GomocupProtocolTest, TimeLeftShortensTheBudget) {
  Seen seen;
  RunScript(
      {"START 15", "INFO timeout_turn 60000", "INFO time_left 3000", "BEGIN"},
      std::make_unique<StopWaitingBrain>(&seen));
  EXPECT_EQ(seen.limits.budget_ms, MoveBudgetMs(60000, 3000));
  EXPECT_TRUE(seen.stopped);
}

TEST(GomocupProtocolTest, YxStopEndsThinkingEarly) {
  Seen seen;
  Harness harness(std::make_unique<StopWaitingBrain>(&seen));
  harness.Send("START 15\nINFO timeout_turn 60000\nBEGIN");
  ASSERT_TRUE(
      seen.thinking.WaitForNotificationWithTimeout(std::chrono::seconds(60)));
  harness.Send("YXSTOP");
  const std::vector<std::string> replies = harness.WaitForLines(2);
  ASSERT_EQ(replies.size(), 2u);
  // The move is still answered: YXSTOP asks for the best move so far.
  EXPECT_TRUE(ParseGomocupPoint(replies[1], 15).ok()) << replies[1];
  // A YXSTOP with nothing to stop gets no reply.
  harness.Send("YXSTOP\nABOUT");
  EXPECT_EQ(harness.WaitForLines(3).size(), 3u);
  harness.Finish();
  // Stopped by YXSTOP, long before the minute-long turn was spent.
  EXPECT_TRUE(seen.stopped);
}

TEST(GomocupProtocolTest, StopReadBeforeTheThinkingStartsStillCounts) {
  Seen seen;
  const std::vector<std::string> replies =
      RunScript({"START 15", "INFO timeout_turn 60000", "BEGIN", "YXSTOP"},
                std::make_unique<StopWaitingBrain>(&seen));
  EXPECT_EQ(replies.size(), 2u);
  EXPECT_TRUE(seen.stopped);
}

TEST(GomocupProtocolTest, EndWhileThinkingStopsAndQuits) {
  Seen seen;
  Harness harness(std::make_unique<StopWaitingBrain>(&seen));
  harness.Send("START 15\nINFO timeout_turn 60000\nBEGIN");
  ASSERT_TRUE(
      seen.thinking.WaitForNotificationWithTimeout(std::chrono::seconds(60)));
  harness.Send("END");
  EXPECT_TRUE(harness.WaitForFinish(absl::Seconds(60)));
  EXPECT_TRUE(seen.stopped);
  EXPECT_EQ(harness.Finish().size(), 2u);  // OK, and the interrupted move
}

// --- The binary --------------------------------------------------------------

std::string RunShell(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  pclose(pipe);
  return out;
}

TEST(GomocupCommandTest, RunsAsRenjuGomocupAndAsPbrainRenju) {
  // Managers end lines with CRLF.
  const std::string script =
      "printf 'START 15\\r\\nINFO rule 4\\r\\nBEGIN\\r\\nTURN "
      "8,6\\r\\nEND\\r\\n'";
  const std::string bin = RENJU_BINARY_DIR;
  for (const std::string& engine :
       {bin + "/renju gomocup --brain tactical --seed 7",
        bin + "/pbrain-renju --brain tactical --seed 7"}) {
    const std::string out = RunShell(script + " | " + engine + " 2>/dev/null");
    EXPECT_TRUE(absl::StartsWith(out, "OK\n7,7\n")) << engine << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << out;
  }
  EXPECT_EQ(RunShell(script + " | " + bin +
                     "/renju gomocup --brain tactical --seed 7"),
            RunShell(script + " | " + bin +
                     "/pbrain-renju --brain tactical --seed 7"));
}

}  // namespace
}  // namespace renju
