// The fast board: shapes, point sets, hash, and incremental == from scratch.
#include "rules/board.h"

#include <random>

#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "rules/symmetry.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::MakeBoard;
using testing::Pt;

TEST(BoardTest, EmptyBoardHasNoShapes) {
  Board board;
  EXPECT_EQ(board.num_stones(), 0);
  EXPECT_TRUE(board.FivePoints(Color::kBlack).empty());
  EXPECT_TRUE(board.FourPoints(Color::kWhite).empty());
  EXPECT_TRUE(board.ForbiddenCandidates().empty());
  EXPECT_TRUE(board.IsConsistent());
}

TEST(BoardTest, PlaceAndRemoveRestoreHash) {
  Board board;
  const uint64_t empty_hash = board.hash();
  board.Place(Pt("h8"), Color::kBlack);
  board.Place(Pt("h9"), Color::kWhite);
  EXPECT_NE(board.hash(), empty_hash);
  board.Remove(Pt("h9"));
  board.Remove(Pt("h8"));
  EXPECT_EQ(board.hash(), empty_hash);
  EXPECT_TRUE(board.IsConsistent());
}

TEST(BoardTest, FivePointsFollowEachVariantsRule) {
  // Black d8 e8 f8 g8 with i8: h8 makes five-or-more d8..i8 (six).
  const char* black = "d8 e8 f8 g8 i8";
  Board renju = MakeBoard(black);
  Board standard = MakeBoard(black, "", Variant::kStandard);
  Board freestyle = MakeBoard(black, "", Variant::kFreestyle);
  EXPECT_FALSE(renju.FivePoints(Color::kBlack).Contains(Pt("h8")));
  EXPECT_FALSE(standard.FivePoints(Color::kBlack).Contains(Pt("h8")));
  EXPECT_TRUE(freestyle.FivePoints(Color::kBlack).Contains(Pt("h8")));
  // c8 still makes an exact five c8..g8 in renju.
  EXPECT_TRUE(renju.FivePoints(Color::kBlack).Contains(Pt("c8")));
}

TEST(BoardTest, WhiteOverlineWinsInRenjuButNotInStandard) {
  Board renju = MakeBoard("", "d8 e8 f8 g8 i8");
  Board standard = MakeBoard("", "d8 e8 f8 g8 i8", Variant::kStandard);
  EXPECT_TRUE(renju.FivePoints(Color::kWhite).Contains(Pt("h8")));
  EXPECT_FALSE(standard.FivePoints(Color::kWhite).Contains(Pt("h8")));
}

TEST(BoardTest, FourPointsOfAnOpenThree) {
  Board board = MakeBoard("g8 h8 i8");
  const PointSet& fours = board.FourPoints(Color::kBlack);
  for (const char* p : {"e8", "f8", "j8", "k8"}) {
    EXPECT_TRUE(fours.Contains(Pt(p))) << p;
  }
  EXPECT_EQ(fours.size(), 4);
  EXPECT_EQ(board.ShapeAt(Pt("f8"), Color::kBlack, Direction::kHorizontal),
            LineShape::kStraightFour);
  EXPECT_EQ(board.ShapeAt(Pt("e8"), Color::kBlack, Direction::kHorizontal),
            LineShape::kFour);
}

TEST(BoardTest, LargeFreestyleBoard) {
  Board board(Variant::kFreestyle, 20);
  board.Place(Point(19, 19), Color::kBlack);
  board.Place(Point(18, 18), Color::kBlack);
  board.Place(Point(17, 17), Color::kBlack);
  board.Place(Point(16, 16), Color::kBlack);
  EXPECT_TRUE(board.FivePoints(Color::kBlack).Contains(Point(15, 15)));
  EXPECT_EQ(board.FivePoints(Color::kBlack).size(), 1);
  EXPECT_TRUE(board.IsConsistent());
}

}  // namespace
}  // namespace renju
