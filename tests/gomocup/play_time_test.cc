// The Gomocup engine under real time controls: the time manager's plan,
// the search brain's tree reuse, threads and pondering, through the
// protocol in-process (tests/gomocup/harness.h) with fake evaluators.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gomocup/gomocup_protocol.h"
#include "gomocup/search_brain.h"
#include "gomocup/swap2.h"
#include "gomocup/time_manager.h"
#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "tests/gomocup/harness.h"

namespace renju {
namespace {

using testing::Harness;

// A FixedEvaluator that lets a test wait for a number of evaluations (the
// pondering thread's progress) without sleeping.
class CountingEvaluator : public Evaluator {
 public:
  explicit CountingEvaluator(std::vector<float> priors)
      : inner_(std::move(priors), 0.4f, 0.2f, 0.4f) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    absl::Status s = inner_.Evaluate(game, out);
    absl::MutexLock lock(&mu_);
    ++count_;
    return s;
  }
  int64_t count() {
    absl::MutexLock lock(&mu_);
    return count_;
  }
  // True once `n` evaluations have been made (false after a minute, which
  // only a failing test reaches).
  bool WaitFor(int64_t n) {
    absl::MutexLock lock(&mu_);
    auto reached = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return count_ >= n;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&reached), absl::Seconds(60));
  }

 private:
  FixedEvaluator inner_;
  absl::Mutex mu_;
  int64_t count_ ABSL_GUARDED_BY(mu_) = 0;
};

// Priors that make black open at h8 and white answer i9 (Gomocup 7,7 and
// 8,6): a fixed line, so a test knows which subtree is searched most.
std::vector<float> OpeningPriors() {
  std::vector<float> priors(225, 1.0f);
  priors[7 * 15 + 7] = 2000.0f;  // h8
  priors[8 * 15 + 8] = 1000.0f;  // i9
  return priors;
}

// The tests' priors choose the first stone themselves, so that BEGIN
// searches a tree the next turn can reuse.
SearchParams FastParams() {
  SearchParams params;
  params.vcf_max_nodes_root = 2000;
  params.centre_first_stone = false;
  return params;
}

// The value of `key=` in a brain's MESSAGE summary; -1 when absent.
int64_t SummaryValue(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return -1;
  const std::string rest = line.substr(at + key.size() + 2);
  int64_t v = -1;
  if (!absl::SimpleAtoi(rest.substr(0, rest.find(' ')), &v)) return -1;
  return v;
}

// --- The time manager --------------------------------------------------------

TEST(TimeManagerTest, MostOfTheTurnWithoutAMatchClock) {
  TimeControl control;
  control.turn_ms = 5000;
  const MoveTime t = PlanMoveTime(control, 10);
  EXPECT_EQ(TurnReserveMs(5000), 50 + 500);
  EXPECT_EQ(t.optimum_ms, 5000 - 550);
  EXPECT_EQ(t.maximum_ms, 5000 - 550);
  // timeout_match 0 means no match limit: time_left is ignored.
  control.match_ms = 0;
  control.time_left_ms = 1000;
  EXPECT_EQ(PlanMoveTime(control, 10).maximum_ms, 5000 - 550);
}

TEST(TimeManagerTest, AShareOfTheMatchTimeLeft) {
  TimeControl control;
  control.turn_ms = 60000;
  control.match_ms = 180000;
  control.time_left_ms = 100050;
  // 100000 ms over the 50 moves an opening expects: 2000, up to 4x.
  MoveTime t = PlanMoveTime(control, 0);
  EXPECT_EQ(t.optimum_ms, 2000);
  EXPECT_EQ(t.maximum_ms, 8000);
  // Late in a long game at least 12 moves are still expected.
  t = PlanMoveTime(control, 150);
  EXPECT_EQ(t.optimum_ms, 100000 / 12);
  EXPECT_EQ(t.maximum_ms, 100000 / 5);
  // The turn limit caps both.
  control.turn_ms = 1000;
  t = PlanMoveTime(control, 0);
  EXPECT_EQ(t.optimum_ms, 1000 - 150);
  EXPECT_EQ(t.maximum_ms, 1000 - 150);
}

TEST(TimeManagerTest, NothingLeftMeansAsFastAsPossible) {
  TimeControl control;
  control.turn_ms = 0;
  EXPECT_EQ(PlanMoveTime(control, 0).maximum_ms, 0);
  control.turn_ms = 50;  // less than the reserve
  EXPECT_EQ(PlanMoveTime(control, 0).maximum_ms, 0);
  control.turn_ms = 5000;
  control.time_left_ms = -50;
  const MoveTime t = PlanMoveTime(control, 0);
  EXPECT_EQ(t.optimum_ms, 0);
  EXPECT_EQ(t.maximum_ms, 0);
}

// --- The engine --------------------------------------------------------------

// Options of a search-brain engine with every play-time feature on.
GomocupOptions PlayTimeOptions() {
  GomocupOptions options;
  options.default_variant = Variant::kRenju;
  options.time_management = true;
  return options;
}

SearchBrainOptions Reuse(bool on) {
  SearchBrainOptions options;
  options.reuse_tree = on;
  return options;
}

// `options` with a clock that moves 1 ms each time it is read: a search's
// time is then the count of its readings, the same however busy the machine.
SearchBrainOptions Ticking(SearchBrainOptions options) {
  auto ticks = std::make_shared<std::atomic<int64_t>>(0);
  options.clock = [ticks] {
    return std::chrono::steady_clock::time_point(
        std::chrono::milliseconds(++*ticks));
  };
  return options;
}

// Passes every call on to `inner`, noting the time each call was given.
class BudgetRecordingBrain : public GomocupBrain {
 public:
  BudgetRecordingBrain(std::unique_ptr<GomocupBrain> inner,
                       std::vector<int64_t>* budgets)
      : inner_(std::move(inner)), budgets_(budgets) {}
  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                  const std::atomic<bool>* stop) override {
    budgets_->push_back(limits.budget_ms);
    return inner_->ChooseMove(game, limits, stop);
  }
  absl::StatusOr<OpeningAction> ChooseOpeningAction(
      const OpeningState& state, const MoveLimits& limits,
      const std::atomic<bool>* stop) override {
    budgets_->push_back(limits.budget_ms);
    return inner_->ChooseOpeningAction(state, limits, stop);
  }
  std::string LastMoveSummary() const override {
    return inner_->LastMoveSummary();
  }
  void StartPondering(const Game& game, const MoveLimits& limits) override {
    inner_->StartPondering(game, limits);
  }
  void StopPondering() override { inner_->StopPondering(); }

 private:
  std::unique_ptr<GomocupBrain> inner_;
  std::vector<int64_t>* budgets_;  // not owned
};

// The brain's summary and move after `n` replies, the move the last line.
struct Answer {
  std::string summary;
  std::string move;
};
Answer LastAnswer(const std::vector<std::string>& lines) {
  Answer a;
  if (lines.size() >= 2) {
    a.summary = lines[lines.size() - 2];
    a.move = lines.back();
  }
  return a;
}

TEST(PlayTimeTest, NeverExceedsA200MsTurnByMoreThanTheReserve) {
  // 100 moves of the engine (black) against the tactical brain (white), in
  // as many games as it takes, with tree reuse, on one search thread. The
  // brain reads a ticking clock: each move's search stops on that clock
  // within the turn less the reserve, the same on any machine. What a busy
  // machine adds on the wall clock (a thread waiting for a core) is
  // measured by bench/move_time_overrun.sh, not bet on here.
  RandomEvaluator evaluator(3);
  Harness harness(
      MakeSearchBrain(FastParams(), Ticking(Reuse(true)), evaluator, 15, 1),
      PlayTimeOptions());
  constexpr int64_t kTurnMs = 200;
  const int64_t maximum_ms = kTurnMs - TurnReserveMs(kTurnMs);
  harness.Send(absl::StrCat("START 15\nINFO rule 4\nINFO timeout_turn ",
                            kTurnMs, "\nINFO thread_num 1"));
  size_t lines = 1;
  ASSERT_EQ(harness.WaitForLines(lines).size(), lines);
  TacticalBrain opponent(5);
  int64_t longest_ms = 0;
  int moves = 0;
  while (moves < 100) {
    Game game(Variant::kRenju, 15);
    std::string command = "BEGIN";
    while (moves < 100) {
      harness.Send(command);
      lines += 2;  // the MESSAGE summary, then the move
      const std::vector<std::string> replies = harness.WaitForLines(lines);
      ASSERT_EQ(replies.size(), lines) << "move " << moves;
      const Answer answer = LastAnswer(replies);
      const int64_t search_ms = SummaryValue(answer.summary, "ms");
      ASSERT_GE(search_ms, 0) << answer.summary;
      longest_ms = std::max(longest_ms, search_ms);
      EXPECT_LE(search_ms, maximum_ms)
          << "move " << moves << ": " << answer.summary;
      EXPECT_EQ(SummaryValue(answer.summary, "threads"), 1) << answer.summary;
      absl::StatusOr<Point> p = ParseGomocupPoint(answer.move, 15);
      ASSERT_TRUE(p.ok()) << answer.move;
      ASSERT_TRUE(game.Play(Move::At(*p)).ok()) << answer.move;
      ++moves;
      if (game.over()) break;
      absl::StatusOr<Move> reply =
          opponent.ChooseMove(game, MoveLimits{}, nullptr);
      ASSERT_TRUE(reply.ok()) << reply.status();
      ASSERT_TRUE(game.Play(*reply).ok());
      if (game.over() || game.LegalPoints().empty()) break;
      command = "TURN " + GomocupPointText(reply->point(), 15);
    }
    harness.Send("RESTART");
    ASSERT_EQ(harness.WaitForLines(++lines).back(), "OK");
  }
  // Some move searched to its maximum: the clock, not the visits, stopped it.
  EXPECT_GE(longest_ms, maximum_ms);
  harness.Finish();
}

TEST(PlayTimeTest, BeginOpensOnTheCentreWhateverTheNetworkPrefers) {
  // Priors that put black's first stone on f8, two points off the centre.
  std::vector<float> priors(225, 1.0f);
  priors[7 * 15 + 5] = 5000.0f;
  CountingEvaluator evaluator(priors);
  SearchParams params = FastParams();
  params.centre_first_stone = true;
  Harness harness(MakeSearchBrain(params, Reuse(true), evaluator, 15, 1),
                  PlayTimeOptions());
  harness.Send("START 15\nINFO rule 4\nINFO timeout_turn 1000\nBEGIN");
  const std::vector<std::string> replies = harness.WaitForLines(3);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[2], "7,7");  // h8
  harness.Finish();
}

TEST(PlayTimeTest, TheNextTurnReusesTheTreeAndSaysSo) {
  for (const bool reuse : {false, true}) {
    CountingEvaluator evaluator(OpeningPriors());
    // Without time management the node budget is spent whole.
    GomocupOptions options = PlayTimeOptions();
    options.time_management = false;
    Harness harness(
        MakeSearchBrain(FastParams(), Reuse(reuse), evaluator, 15, 1), options);
    harness.Send("START 15\nINFO rule 4\nINFO max_node 300\nBEGIN");
    std::vector<std::string> replies = harness.WaitForLines(3);
    ASSERT_EQ(replies.size(), 3u);
    EXPECT_EQ(replies[2], "7,7");  // h8
    EXPECT_EQ(SummaryValue(replies[1], "reused"), 0) << replies[1];
    harness.Send("TURN 8,6");  // i9, the reply the tree searched most
    replies = harness.WaitForLines(5);
    ASSERT_EQ(replies.size(), 5u);
    const int64_t reused = SummaryValue(replies[3], "reused");
    if (reuse) {
      EXPECT_GT(reused, 10) << replies[3];
    } else {
      EXPECT_EQ(reused, 0) << replies[3];
    }
    // The node budget counts the reused visits: the tree holds 300 again.
    EXPECT_EQ(SummaryValue(replies[3], "visits"), 300) << replies[3];
    EXPECT_EQ(SummaryValue(replies[3], "playouts"), 300 - reused);
    harness.Finish();
  }
}

TEST(PlayTimeTest, ThreadNumChoosesTheSearchThreads) {
  RandomEvaluator evaluator(3);
  Harness harness(MakeSearchBrain(FastParams(), Reuse(false), evaluator, 15, 1),
                  PlayTimeOptions());
  harness.Send("START 15\nINFO rule 4\nINFO max_node 100\nBEGIN");
  std::vector<std::string> replies = harness.WaitForLines(3);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(SummaryValue(replies[1], "threads"), 1) << replies[1];
  harness.Send("INFO thread_num 3\nTURN 8,6");
  replies = harness.WaitForLines(5);
  ASSERT_EQ(replies.size(), 5u);
  EXPECT_EQ(SummaryValue(replies[3], "threads"), 3) << replies[3];
  harness.Finish();
}

TEST(PlayTimeTest, PonderingKeepsTheTreeForTheNextTurn) {
  CountingEvaluator evaluator(OpeningPriors());
  // Tree reuse off: pondering keeps its tree anyway.
  Harness harness(
      MakeSearchBrain(FastParams(), Ticking(Reuse(false)), evaluator, 15, 1),
      PlayTimeOptions());
  constexpr int64_t kTurnMs = 500;
  harness.Send(absl::StrCat("START 15\nINFO rule 4\nINFO timeout_turn ",
                            kTurnMs, "\nINFO pondering 1\nBEGIN"));
  std::vector<std::string> replies = harness.WaitForLines(3);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[2], "7,7");
  // The engine thinks on: wait for 2,000 more evaluations on white's turn.
  ASSERT_TRUE(evaluator.WaitFor(evaluator.count() + 2000));
  harness.Send("TURN 8,6");
  replies = harness.WaitForLines(5);
  ASSERT_EQ(replies.size(), 5u);
  // The move's search stops on the brain's (ticking) clock within the turn
  // less the reserve, pondered tree or not.
  EXPECT_LE(SummaryValue(replies[3], "ms"), kTurnMs - TurnReserveMs(kTurnMs))
      << replies[3];
  EXPECT_GE(SummaryValue(replies[3], "pondered"), 2000) << replies[3];
  // Most of the pondering went below i9, the expected answer.
  EXPECT_GT(SummaryValue(replies[3], "reused"), 1000) << replies[3];

  // Any command stops the pondering at once: ABOUT is answered while the
  // engine would otherwise ponder up to 200,000 visits.
  ASSERT_TRUE(evaluator.WaitFor(evaluator.count() + 100));
  harness.Send("ABOUT");
  replies = harness.WaitForLines(6);
  ASSERT_EQ(replies.size(), 6u);
  EXPECT_TRUE(absl::StartsWith(replies[5], "name=")) << replies[5];
  // And END ends the session, pondering or not.
  harness.Send(replies[4] == "14,0" ? "TURN 13,0" : "TURN 14,0");
  ASSERT_EQ(harness.WaitForLines(8).size(), 8u);
  harness.Send("END");
  EXPECT_TRUE(harness.WaitForFinish(absl::Seconds(60)));
  harness.Finish();
}

TEST(PlayTimeTest, WithoutTimeManagementTheBudgetIsSpent) {
  // Without the time manager the brain is given the whole turn less the
  // reserve, and its search runs on until its clock (a ticking one, so the
  // machine's load does not matter) reaches that budget less at most the
  // one gathered batch the time rules leave room for.
  RandomEvaluator evaluator(3);
  GomocupOptions options = PlayTimeOptions();
  options.time_management = false;
  std::vector<int64_t> budgets;  // read after the harness has finished
  Harness harness(std::make_unique<BudgetRecordingBrain>(
                      MakeSearchBrain(FastParams(), Ticking(Reuse(false)),
                                      evaluator, 15, 1),
                      &budgets),
                  options);
  harness.Send("START 15\nINFO rule 4\nINFO timeout_turn 300");
  ASSERT_EQ(harness.WaitForLines(1).size(), 1u);
  harness.Send("BEGIN");
  const std::vector<std::string> replies = harness.WaitForLines(3);
  ASSERT_EQ(replies.size(), 3u);
  const int64_t budget_ms = MoveBudgetMs(300, std::nullopt);
  const int64_t search_ms = SummaryValue(LastAnswer(replies).summary, "ms");
  EXPECT_LE(search_ms, budget_ms) << replies[1];
  EXPECT_GE(search_ms, budget_ms / 2) << replies[1];
  harness.Finish();
  ASSERT_EQ(budgets.size(), 1u);
  EXPECT_EQ(budgets[0], budget_ms);
}

// SWAP2BOARD with the search brain: the opening player's decisions, each
// summarised in a MESSAGE, within the turn's time.
TEST(PlayTimeTest, SearchBrainAnswersSwap2WithTheOpeningPlayer) {
  RandomEvaluator evaluator(3);
  SearchBrainOptions brain = Reuse(false);
  brain.opening.candidate_visits = 8;
  brain.opening.max_candidates = 3;
  std::vector<int64_t> budgets;  // read after the harness has finished
  Harness harness(
      std::make_unique<BudgetRecordingBrain>(
          MakeSearchBrain(FastParams(), brain, evaluator, 15, 1), &budgets),
      PlayTimeOptions());
  harness.Send("START 15\nINFO timeout_turn 2000\nINFO max_node 64");
  harness.Send("SWAP2BOARD\nDONE");
  // Three decisions, three MESSAGE lines, then the stones.
  std::vector<std::string> replies = harness.WaitForLines(5);
  ASSERT_EQ(replies.size(), 5u);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_TRUE(absl::StartsWith(replies[i], "MESSAGE opening Place("))
        << replies[i];
  }
  absl::StatusOr<Swap2Answer> stones = ParseSwap2Answer(replies[4], 15);
  ASSERT_TRUE(stones.ok()) << stones.status();
  absl::StatusOr<OpeningState> empty = Swap2StateOf({}, Variant::kRenju, 15);
  ASSERT_TRUE(empty.ok());
  ASSERT_TRUE(Swap2TurnOf(*empty, *stones).ok()) << replies[4];

  // The second player's choice on those stones: SWAP, or a point (move 4,
  // after the search's own MESSAGE); the opening player never places two.
  std::string command = "SWAP2BOARD";
  for (absl::string_view p : absl::StrSplit(replies[4], ' ')) {
    absl::StrAppend(&command, "\n", p);
  }
  harness.Send(command + "\nDONE");
  replies = harness.Finish();
  // Within the turn: the three placements shared one move's time, each
  // given at most what the turn less the reserve leaves (the session's
  // split; each search stops on its clock, as the tests above check).
  ASSERT_GE(budgets.size(), 4u);
  for (size_t i = 0; i < budgets.size(); ++i) {
    EXPECT_LE(budgets[i], 2000 - TurnReserveMs(2000)) << "call " << i;
  }
  EXPECT_LE(budgets[0], (2000 - TurnReserveMs(2000)) / 3);
  ASSERT_GE(replies.size(), 7u);
  EXPECT_TRUE(absl::StartsWith(replies[5], "MESSAGE opening ")) << replies[5];
  absl::StatusOr<OpeningState> three =
      Swap2StateOf(stones->points, Variant::kRenju, 15);
  ASSERT_TRUE(three.ok()) << three.status();
  absl::StatusOr<Swap2Answer> choice = ParseSwap2Answer(replies.back(), 15);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_LE(choice->points.size(), 1u) << replies.back();
  EXPECT_TRUE(Swap2TurnOf(*three, *choice).ok()) << replies.back();
}

}  // namespace
}  // namespace renju
