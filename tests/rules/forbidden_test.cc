// Forbidden points: every worked example of RULES.md §3-4, then the labelled
// public positions in ../shared/data.
#include "rules/forbidden.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "rules/game.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::MakeBoard;
using testing::Pt;

ForbiddenKind KindAt(Board& board, const std::string& point) {
  return ForbiddenAt(board, Pt(point));
}

// --- RULES.md §4: the classic shapes (seeds/003) -------------------------

TEST(ForbiddenTest, SplitThreeAndDiagonalThreeIsDoubleThree) {
  Board board = MakeBoard("g10 h10 i8 h7");
  EXPECT_EQ(KindAt(board, "h9"), ForbiddenKind::kDoubleThree);
}

TEST(ForbiddenTest, CrossOfTwoThreesIsDoubleThree) {
  Board board = MakeBoard("h9 g8 i8 h7");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kDoubleThree);
}

TEST(ForbiddenTest, HorizontalAndSplitDiagonalThreeIsDoubleThree) {
  Board board = MakeBoard("g10 h10 g8 f7");
  EXPECT_EQ(KindAt(board, "i10"), ForbiddenKind::kDoubleThree);
}

TEST(ForbiddenTest, HorizontalAndDiagonalFoursAreDoubleFour) {
  Board board = MakeBoard("g9 h9 i9 g8 h7 i6");
  EXPECT_EQ(KindAt(board, "f9"), ForbiddenKind::kDoubleFour);
}

TEST(ForbiddenTest, SplitVerticalFourAndHorizontalFourAreDoubleFour) {
  Board board = MakeBoard("h10 h7 h6 f8 g8 i8");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kDoubleFour);
}

TEST(ForbiddenTest, SixInARowIsOverline) {
  Board board = MakeBoard("f8 g8 i8 j8 k8");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kOverline);
}

TEST(ForbiddenTest, FiveFirstWinsDespiteFourAndThree) {
  Board board = MakeBoard("d8 e8 f8 g8 h9 h10 h11 i7 j6");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kNone);
  EXPECT_TRUE(board.FivePoints(Color::kBlack).Contains(Pt("h8")));
  absl::StatusOr<Game> game = Game::Create(Variant::kRenju, 15);
  ASSERT_TRUE(game.ok());
  // Replaying the stones with white elsewhere, h8 wins for black.
  const std::vector<std::string> black = {"d8",  "e8",  "f8", "g8", "h9",
                                          "h10", "h11", "i7", "j6"};
  const std::vector<std::string> white = {"a1", "c1", "e1", "g1", "i1",
                                          "k1", "m1", "o1", "a3"};
  for (size_t i = 0; i < black.size(); ++i) {
    ASSERT_TRUE(game->Play(Move::At(Pt(black[i]))).ok());
    ASSERT_TRUE(game->Play(Move::At(Pt(white[i]))).ok());
  }
  ASSERT_TRUE(game->Play(Move::At(Pt("h8"))).ok());
  EXPECT_EQ(game->result(), GameResult::kBlackWin);
  EXPECT_EQ(game->end_reason(), EndReason::kFive);
}

TEST(ForbiddenTest, OverlineFirstThenDoubleFourThenDoubleThree) {
  // h8 makes an overline (f8..k8) and a vertical four: overline is named.
  Board board = MakeBoard("f8 g8 i8 j8 k8 h9 h10 h11");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kOverline);
  // h8 makes two fours and a three: double-four is named.
  Board four_four_three = MakeBoard("e8 f8 g8 h10 h11 h12 i9 j10");
  EXPECT_EQ(KindAt(four_four_three, "h8"), ForbiddenKind::kDoubleFour);
}

// --- RULES.md §3: definitions ---------------------------------------------

TEST(ForbiddenTest, TwoFoursOnOneLineAreDoubleFour) {
  // X.XXX.X with the middle stone placed: e8 . g8 [h8] i8 . k8.
  Board board = MakeBoard("e8 g8 i8 k8");
  EXPECT_EQ(board.ShapeAt(Pt("h8"), Color::kBlack, Direction::kHorizontal),
            LineShape::kDoubleFour);
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kDoubleFour);
}

TEST(ForbiddenTest, StraightFourIsOneFour) {
  Board board = MakeBoard("f8 g8 i8 h10 h11");
  // h8 makes a straight four f8..i8 and a three on the h column: a 4-3.
  EXPECT_EQ(board.ShapeAt(Pt("h8"), Color::kBlack, Direction::kHorizontal),
            LineShape::kStraightFour);
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kNone);
}

TEST(ForbiddenTest, FourWhoseFivePointMakesAnOverlineIsNoFour) {
  // c8 d8 . f8 g8 [h8]: the only point that fills the gap, e8, makes
  // c8..h8, six in a row, so h8 makes no four (and no three) here.
  Board board = MakeBoard("c8 d8 f8 g8");
  EXPECT_EQ(board.ShapeAt(Pt("h8"), Color::kBlack, Direction::kHorizontal),
            LineShape::kNone);
}

TEST(ForbiddenTest, ThreeBlockedByWhiteIsNotLive) {
  // The cross h9 g8 i8 h7, with white on h10 and h5: the vertical three can
  // only become h6..h9, whose end h10 is white, so it is not a three.
  Board board = MakeBoard("h9 g8 i8 h7", "h10 h5");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kNone);
}

TEST(ForbiddenTest, ThreeBlockedByTheEdgeIsNotLive) {
  // a1 a2 [a3]: the only four it can become is a1..a4, whose lower end is
  // the edge (a wall), so it is never straight: no three.
  Board board = MakeBoard("a1 a2 c3 d3");
  EXPECT_EQ(board.ShapeAt(Pt("a3"), Color::kBlack, Direction::kVertical),
            LineShape::kNone);
  // [b3] c3 d3 can become b3..e3 with a3 and f3 empty: a three.
  EXPECT_EQ(board.ShapeAt(Pt("b3"), Color::kBlack, Direction::kHorizontal),
            LineShape::kThree);
}

TEST(ForbiddenTest, LiteralReadingStraightFourPointThatMakesFiveIsNoThree) {
  // RULES.md §3 example: h8 is not forbidden, because the straight-four
  // point g8 of one of its threes also completes g4-g8.
  Board board = MakeBoard("e10 f9 h9 f8 i8 g7 h7 g6 g5 g4");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kNone);
}

TEST(ForbiddenTest, ThreeWhoseOnlyStraightFourPointIsForbiddenIsFalse) {
  // Horizontal h8 i8 [j8] has two straight-four points, g8 and k8. Columns
  // g4..g7 + g9 and k4..k7 + k9 make both of them overline points, so the
  // horizontal three is false and j8, with its vertical three j8 j9 j10, is
  // no double-three.
  Board board = MakeBoard("h8 i8 j9 j10 g4 g5 g6 g7 g9 k4 k5 k6 k7 k9");
  // Sanity: g8 and k8 are overline points for black.
  EXPECT_EQ(KindAt(board, "g8"), ForbiddenKind::kOverline);
  EXPECT_EQ(KindAt(board, "k8"), ForbiddenKind::kOverline);
  EXPECT_EQ(KindAt(board, "j8"), ForbiddenKind::kNone);
  EXPECT_FALSE(MakesLiveThree(board, Pt("j8"), Direction::kHorizontal));
  // Without the overline traps, j8 is a double-three.
  Board open = MakeBoard("h8 i8 j9 j10");
  EXPECT_EQ(KindAt(open, "j8"), ForbiddenKind::kDoubleThree);
  EXPECT_TRUE(MakesLiveThree(open, Pt("j8"), Direction::kHorizontal));
  EXPECT_TRUE(MakesLiveThree(open, Pt("j8"), Direction::kVertical));
}

// Line 1142 of the public positions: deciding h8 and j11 needs the
// recursion three levels deep (a straight-four point whose own threes depend
// on another straight-four point, and so on). A solver that stops at depth
// one or two calls them forbidden; the labels, and RULES.md §3, say neither
// is, while j10 is a real double-three.
TEST(ForbiddenTest, DeepRecursionDecidesThreeLevelsDown) {
  Board board = MakeBoard("h9 h12 i8 i9 i10 j9 j12 k8 k11 l10", "g10");
  EXPECT_EQ(KindAt(board, "h8"), ForbiddenKind::kNone);
  EXPECT_EQ(KindAt(board, "j11"), ForbiddenKind::kNone);
  EXPECT_EQ(KindAt(board, "j10"), ForbiddenKind::kDoubleThree);
  const std::vector<ForbiddenPoint> all = ForbiddenPoints(board);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].point, Pt("j10"));
}

TEST(ForbiddenTest, WhiteAndOtherVariantsHaveNoForbiddenPoints) {
  Board renju = MakeBoard("h9 g8 i8 h7");
  Board standard = MakeBoard("h9 g8 i8 h7", "", Variant::kStandard);
  Board freestyle = MakeBoard("h9 g8 i8 h7", "", Variant::kFreestyle);
  EXPECT_EQ(ForbiddenPoints(renju).size(), 1u);
  EXPECT_TRUE(ForbiddenPoints(standard).empty());
  EXPECT_TRUE(ForbiddenPoints(freestyle).empty());
}

TEST(ForbiddenTest, ProbesLeaveTheBoardUnchanged) {
  Board board =
      MakeBoard("h8 i8 j9 j10 g4 g5 g6 g7 g9 k4 k5 k6 k7 k9", "a1 b2");
  const uint64_t hash = board.hash();
  ForbiddenPoints(board);
  EXPECT_EQ(board.hash(), hash);
  EXPECT_TRUE(board.IsConsistent());
}

TEST(ForbiddenTest, ExplainNamesTheLines) {
  Board board = MakeBoard("h9 g8 i8 h7");
  const ForbiddenPoint f = ExplainForbidden(board, Pt("h8"));
  EXPECT_EQ(f.kind, ForbiddenKind::kDoubleThree);
  EXPECT_EQ(f.lines, (1 << static_cast<int>(Direction::kHorizontal)) |
                         (1 << static_cast<int>(Direction::kVertical)));
}

}  // namespace
}  // namespace renju
