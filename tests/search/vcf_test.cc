// The VCF solver on hand-made positions, each checked against the rules
// core first so a test fails for the right reason.
#include "search/vcf.h"

#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Points;
using testing::Pt;

VcfResult SolveVcf(Game& game, Color attacker, int64_t max_nodes = 100000) {
  VcfSolver solver;
  const uint64_t hash = game.board().hash();
  VcfResult r =
      solver.Solve(game.mutable_board(), attacker, VcfLimits{max_nodes, 30});
  EXPECT_EQ(game.board().hash(), hash) << "the solver must restore the board";
  return r;
}

// Plays the line on a copy and checks that it is a real forced win: every
// attacker move is a four or a five, every defender move is the only block.
void ExpectLineWins(Game game, Color attacker, const std::vector<Point>& line) {
  ASSERT_FALSE(line.empty());
  Board& board = game.mutable_board();
  for (size_t i = 0; i < line.size(); ++i) {
    const Color mover = i % 2 == 0 ? attacker : Opponent(attacker);
    const Point p = line[i];
    ASSERT_TRUE(board.IsEmpty(p)) << PointName(p);
    if (mover == attacker) {
      const bool five = board.FivePoints(attacker).Contains(p);
      ASSERT_TRUE(five || board.FourPoints(attacker).Contains(p))
          << PointName(p) << " is neither a five nor a four";
      if (attacker == kBlack && !five) {
        ASSERT_FALSE(IsForbidden(board, p));
      }
      if (five) {
        EXPECT_EQ(i, line.size() - 1) << "the five ends the line";
        return;
      }
    } else {
      ASSERT_EQ(board.FivePoints(attacker).size(), 1);
      ASSERT_EQ(board.FivePoints(attacker).First(), p);
    }
    board.Place(p, mover);
  }
  // The line ended on a four the defender cannot meet.
  const PointSet& fives = board.FivePoints(attacker);
  const bool blocked_by_forbidden = attacker == kWhite && fives.size() == 1 &&
                                    IsForbidden(board, fives.First());
  EXPECT_TRUE(fives.size() >= 2 || blocked_by_forbidden);
  EXPECT_TRUE(board.FivePoints(Opponent(attacker)).empty());
}

// Black f8 g8 h8 (white e8) and j9 k10: i8 is a four plus a live three.
constexpr char kFourThreeBlack[] = "f8 g8 h8 j9 k10";
constexpr char kFourThreeWhite[] = "e8";

TEST(VcfTest, WinInOneIsALineOfOneFive) {
  Game game = MakeGame("d8 e8 f8 g8", "d9 e9 f9 g9");
  VcfResult r = SolveVcf(game, kBlack);
  EXPECT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line, Points("c8"));  // cell order: c8 before h8
}

TEST(VcfTest, FindsFourThree) {
  Game game = MakeGame(kFourThreeBlack, kFourThreeWhite);
  VcfResult r = SolveVcf(game, kBlack);
  ASSERT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line.front(), Pt("i8"));
  EXPECT_EQ(r.line[1], Pt("j8"));
  ExpectLineWins(game, kBlack, r.line);
}

TEST(VcfTest, FindsFourOnASplitLine) {
  // d4 e5 . g7 with c3 white: f6 is a four too, but white's reply h8 kills
  // the row; only the split four h8 (five point f6) plus the three h8 i8 j8
  // wins.
  Game game = MakeGame("d4 e5 g7 i8 j8", "c3");
  VcfResult r = SolveVcf(game, kBlack);
  ASSERT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line.front(), Pt("h8"));
  EXPECT_EQ(r.line[1], Pt("f6"));
  ExpectLineWins(game, kBlack, r.line);
}

TEST(VcfTest, BlackMayNotMakeAFourOnAForbiddenPoint) {
  // i8 would make the row four f8-i8 and the column four i8-i11: a
  // double-four, forbidden for black. The other fours (j8, i7) let white
  // block on i8, which kills both lines.
  const char* black = "f8 g8 h8 i9 i10 i11";
  const char* white = "e8 i12";
  Game renju = MakeGame(black, white);
  ASSERT_EQ(ForbiddenAt(renju.mutable_board(), Pt("i8")),
            ForbiddenKind::kDoubleFour);
  EXPECT_EQ(SolveVcf(renju, kBlack).outcome, VcfOutcome::kNoWin);

  // Without forbidden moves the double-four wins at once.
  Game freestyle = MakeGame(black, white, kBlack, Variant::kFreestyle);
  VcfResult r = SolveVcf(freestyle, kBlack);
  ASSERT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line, Points("i8"));
  // White may make the same double-four.
  Game white_attacks = MakeGame(white, black, kWhite);
  EXPECT_EQ(SolveVcf(white_attacks, kWhite).outcome, VcfOutcome::kWin);
}

TEST(VcfTest, BlackFourWhoseFivePointIsAnOverlineIsNoThreat) {
  // h8 would give e8-h8, but its five point i8 makes e8-j8, an overline:
  // in renju h8 is no four, so h8's vertical three h8 h9 h10 is no 4-3.
  const char* black = "e8 f8 g8 j8 h9 h10";
  const char* white = "d8";
  Game renju = MakeGame(black, white);
  ASSERT_FALSE(renju.board().FourPoints(kBlack).Contains(Pt("h8")));
  EXPECT_EQ(SolveVcf(renju, kBlack).outcome, VcfOutcome::kNoWin);

  // In freestyle six in a row wins, so the same shape is a VCF.
  Game freestyle = MakeGame(black, white, kBlack, Variant::kFreestyle);
  VcfResult r = SolveVcf(freestyle, kBlack);
  ASSERT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line.front(), Pt("h8"));
}

TEST(VcfTest, WhiteWinsWhenBlacksOnlyBlockIsForbidden) {
  // White g9 makes d9-g9 (c9 is black); the five point h9 is a
  // double-three for black (g10 h9 i8 and h10 h9 . h7).
  const char* black = "g10 h10 i8 h7 c9";
  const char* white = "d9 e9 f9";
  Game game = MakeGame(black, white, kWhite);
  {
    ScopedStone g9(game.mutable_board(), Pt("g9"), kWhite);
    ASSERT_EQ(ForbiddenAt(game.mutable_board(), Pt("h9")),
              ForbiddenKind::kDoubleThree);
  }
  VcfResult r = SolveVcf(game, kWhite);
  ASSERT_EQ(r.outcome, VcfOutcome::kWin);
  EXPECT_EQ(r.line, Points("g9"));
  ExpectLineWins(game, kWhite, r.line);

  // Where black may block (no forbidden points), white has nothing.
  Game standard = MakeGame(black, white, kWhite, Variant::kStandard);
  EXPECT_EQ(SolveVcf(standard, kWhite).outcome, VcfOutcome::kNoWin);
}

TEST(VcfTest, DefenderFiveThreatMustBeBlockedFirst) {
  // The 4-3 of FindsFourThree, but white threatens five on j8 (j4-j7, j3
  // black): black must block j8, and after white's i8 nothing is left.
  Game game = MakeGame(std::string(kFourThreeBlack) + " j3",
                       std::string(kFourThreeWhite) + " j4 j5 j6 j7");
  EXPECT_EQ(SolveVcf(game, kBlack).outcome, VcfOutcome::kNoWin);
}

TEST(VcfTest, DefenderReplyThatMakesAFourStopsTheLine) {
  // White's forced reply j8 makes white's j5-j8 four (j9 black), so black
  // must block j4 instead of making the straight four.
  Game game =
      MakeGame(kFourThreeBlack, std::string(kFourThreeWhite) + " j5 j6 j7");
  EXPECT_EQ(SolveVcf(game, kBlack).outcome, VcfOutcome::kNoWin);
}

TEST(VcfTest, QuietPositionHasNoVcf) {
  Game game = MakeGame("h8 i9", "h9 g8");
  VcfResult r = SolveVcf(game, kBlack);
  EXPECT_EQ(r.outcome, VcfOutcome::kNoWin);
  EXPECT_EQ(r.nodes, 0);
  EXPECT_TRUE(r.line.empty());
}

TEST(VcfTest, NodeLimitGivesUnknown) {
  Game game = MakeGame("d4 e5 g7 i8 j8", "c3");
  // f6 is tried first and fails; one node is not enough for h8.
  EXPECT_EQ(SolveVcf(game, kBlack, /*max_nodes=*/1).outcome,
            VcfOutcome::kUnknown);
}

}  // namespace
}  // namespace renju
