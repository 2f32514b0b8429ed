// Game flow and results (RULES.md §2, §5), notation and symmetries.
#include "rules/game.h"

#include <set>

#include "gtest/gtest.h"
#include "rules/symmetry.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::Pt;

Move M(const std::string& name, int size = kRenjuBoardSize) {
  return Move::At(Pt(name, size));
}

absl::Status PlayAll(Game& game, const std::string& moves) {
  absl::StatusOr<std::vector<Move>> list = ParseMoveList(moves, game.size());
  if (!list.ok()) return list.status();
  for (Move m : *list) {
    if (absl::Status s = game.Play(m); !s.ok()) return s;
  }
  return absl::OkStatus();
}

TEST(NotationTest, ParsesCaseInsensitivelyAndPrintsLowerCase) {
  EXPECT_EQ(ParsePoint("H8", 15)->x, 7);
  EXPECT_EQ(ParsePoint("h8", 15)->y, 7);
  EXPECT_EQ(PointName(*ParsePoint("O15", 15)), "o15");
  EXPECT_EQ(PointName(Point(0, 0)), "a1");
  EXPECT_EQ(PointName(*ParsePoint("t20", 20)), "t20");
}

TEST(NotationTest, ErrorsNameTheBadToken) {
  EXPECT_EQ(ParsePoint("p8", 15).status().message(),
            "bad point 'p8': column 'p' is not in a..o");
  EXPECT_EQ(ParsePoint("h16", 15).status().message(),
            "bad point 'h16': row 16 is not in 1..15");
  EXPECT_EQ(ParsePoint("h0", 15).status().message(),
            "bad point 'h0': row 0 is not in 1..15");
  EXPECT_EQ(ParsePoint("hh", 15).status().message(),
            "bad point 'hh': row 'h' is not a number");
  EXPECT_EQ(
      ParsePoint("h", 15).status().message(),
      "bad point 'h': expected a column letter and a row number, like h8");
  EXPECT_EQ(ParseMoveList("h8 h9 x1", 15).status().message(),
            "move 3: bad point 'x1': column 'x' is not in a..o");
}

TEST(NotationTest, MoveListsWithPasses) {
  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList("h8, pass --\ti9", 15);
  ASSERT_TRUE(moves.ok());
  ASSERT_EQ(moves->size(), 4u);
  EXPECT_TRUE((*moves)[1].is_pass());
  EXPECT_TRUE((*moves)[2].is_pass());
  EXPECT_EQ(MoveListString(*moves), "h8 pass pass i9");
}

TEST(NotationTest, VariantsAndSizes) {
  EXPECT_EQ(*ParseVariant("Renju"), Variant::kRenju);
  EXPECT_EQ(*ParseVariant("freestyle"), Variant::kFreestyle);
  EXPECT_FALSE(ParseVariant("caro").ok());
  EXPECT_TRUE(ValidateBoardSize(Variant::kFreestyle, 20).ok());
  EXPECT_FALSE(ValidateBoardSize(Variant::kRenju, 19).ok());
  EXPECT_FALSE(ValidateBoardSize(Variant::kStandard, 21).ok());
  EXPECT_FALSE(Game::Create(Variant::kRenju, 20).ok());
}

TEST(GameTest, BlackMovesFirstAndMovesAlternate) {
  Game game;
  EXPECT_EQ(game.side_to_move(), Color::kBlack);
  ASSERT_TRUE(game.Play(M("h8")).ok());
  EXPECT_EQ(game.side_to_move(), Color::kWhite);
  EXPECT_EQ(game.board().at(Pt("h8")), Cell::kBlack);
  ASSERT_TRUE(game.Play(M("h9")).ok());
  EXPECT_EQ(game.board().at(Pt("h9")), Cell::kWhite);
  EXPECT_EQ(game.ply(), 2);
}

TEST(GameTest, OccupiedOffBoardAndAfterTheEndAreErrorsThatChangeNothing) {
  Game game;
  ASSERT_TRUE(game.Play(M("h8")).ok());
  const uint64_t hash = game.hash();
  EXPECT_EQ(game.Play(M("h8")).message(),
            "move 2 (h8) is on an occupied point");
  EXPECT_EQ(game.Play(Move::At(Point(15, 3))).message(),
            "move 2 is off the 15x15 board");
  EXPECT_EQ(game.hash(), hash);
  EXPECT_EQ(game.ply(), 1);
  ASSERT_TRUE(PlayAll(game, "a1 i8 a2 j8 a3 k8 a4 l8").ok());
  EXPECT_EQ(game.result(), GameResult::kBlackWin);
  EXPECT_EQ(game.Play(M("o15")).message(),
            "move 10 (o15) comes after the end of the game (black by five)");
}

TEST(GameTest, WhiteOverlineWinsInRenjuButBlackOverlineIsForbidden) {
  Game white_overline;
  ASSERT_TRUE(
      PlayAll(white_overline, "a1 d8 a3 e8 a5 f8 a7 g8 a9 i8 a11 h8").ok());
  EXPECT_EQ(white_overline.result(), GameResult::kWhiteWin);
  EXPECT_EQ(white_overline.end_reason(), EndReason::kFive);

  Game black_overline;
  ASSERT_TRUE(PlayAll(black_overline, "d8 a1 e8 a3 f8 a5 g8 a7 i8 a9 h8").ok());
  EXPECT_EQ(black_overline.result(), GameResult::kWhiteWin);
  EXPECT_EQ(black_overline.end_reason(), EndReason::kForbidden);
  ASSERT_EQ(black_overline.forbidden_played().size(), 1u);
  EXPECT_EQ(black_overline.forbidden_played()[0].kind,
            ForbiddenKind::kOverline);
  EXPECT_EQ(black_overline.forbidden_played()[0].ply, 11);
}

TEST(GameTest, StandardOverlineWinsForNobody) {
  Game game(Variant::kStandard, 15);
  ASSERT_TRUE(PlayAll(game, "d8 a1 e8 a3 f8 a5 g8 a7 i8 a9 h8").ok());
  EXPECT_EQ(game.result(), GameResult::kOngoing);
  EXPECT_TRUE(game.forbidden_played().empty());
}

TEST(GameTest, FreestyleOverlineWins) {
  Game game(Variant::kFreestyle, 15);
  ASSERT_TRUE(PlayAll(game, "d8 a1 e8 a3 f8 a5 g8 a7 i8 a9 h8").ok());
  EXPECT_EQ(game.result(), GameResult::kBlackWin);
}

TEST(GameTest, ForgivenForbiddenMoveIsFlaggedAndPlayGoesOn) {
  Game game;
  ASSERT_TRUE(PlayAll(game, "h9 a1 g8 a2 i8 a3 h7 a4").ok());
  ASSERT_TRUE(game.Play(M("h8"), ForbiddenMovePolicy::kForgiven).ok());
  EXPECT_FALSE(game.over());
  ASSERT_EQ(game.forbidden_played().size(), 1u);
  EXPECT_EQ(game.forbidden_played()[0].kind, ForbiddenKind::kDoubleThree);
  game.Undo();
  EXPECT_TRUE(game.forbidden_played().empty());
}

TEST(GameTest, TwoPassesInARowDraw) {
  Game game;
  ASSERT_TRUE(game.Play(Move::Pass()).ok());
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.side_to_move(), Color::kWhite);
  ASSERT_TRUE(game.Play(M("h8")).ok());  // white may play after black passed
  ASSERT_TRUE(game.Play(Move::Pass()).ok());
  EXPECT_FALSE(game.over());  // the passes are not consecutive
  ASSERT_TRUE(game.Play(Move::Pass()).ok());
  EXPECT_EQ(game.result(), GameResult::kDraw);
  EXPECT_EQ(game.end_reason(), EndReason::kTwoPasses);
  game.Undo();
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.consecutive_passes(), 1);
}

TEST(GameTest, FullBoardIsADraw) {
  // Fill a 5x5 freestyle board in a pattern with no five: rows alternate
  // XXOOX / OOXXO shifted so no line has five of one colour.
  Game game(Variant::kFreestyle, 5);
  const char* rows[5] = {"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"};
  std::vector<Point> black, white;
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x) {
      (rows[y][x] == 'X' ? black : white).push_back(Point(x, y));
    }
  }
  // 13 black, 12 white: alternate, black first. No five is possible long
  // before the board fills (RULES.md §5), so play on past that point.
  ASSERT_EQ(black.size(), 13u);
  for (size_t i = 0; i < black.size(); ++i) {
    ASSERT_TRUE(game.Play(Move::At(black[i]), ForbiddenMovePolicy::kLoses,
                          NoFivePolicy::kPlaysOn)
                    .ok())
        << i;
    if (i < white.size()) {
      ASSERT_TRUE(game.Play(Move::At(white[i]), ForbiddenMovePolicy::kLoses,
                            NoFivePolicy::kPlaysOn)
                      .ok())
          << i;
    }
  }
  EXPECT_EQ(game.result(), GameResult::kDraw);
  EXPECT_EQ(game.end_reason(), EndReason::kFullBoard);
  const int no_five_ply = game.no_five_ply();
  EXPECT_GT(no_five_ply, 0);
  EXPECT_LT(no_five_ply, 25);

  // By default the same moves end the game there.
  Game drawn(Variant::kFreestyle, 5);
  for (int i = 0; i < no_five_ply; ++i) {
    ASSERT_TRUE(drawn.Play(game.moves()[i]).ok()) << i;
  }
  EXPECT_EQ(drawn.result(), GameResult::kDraw);
  EXPECT_EQ(drawn.end_reason(), EndReason::kNoFivePossible);
}

TEST(GameTest, UndoRestoresEverything) {
  Game game;
  const uint64_t empty = game.hash();
  ASSERT_TRUE(PlayAll(game, "h8 a1 i8 a2 j8 a3 k8 a4 l8").ok());
  EXPECT_TRUE(game.over());
  while (game.ply() > 0) game.Undo();
  EXPECT_EQ(game.hash(), empty);
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.side_to_move(), Color::kBlack);
  EXPECT_TRUE(game.board().IsConsistent());
}

TEST(GameTest, SideToMoveIsPartOfTheHash) {
  Game a;
  Game b;
  ASSERT_TRUE(PlayAll(a, "h8 h9").ok());
  ASSERT_TRUE(PlayAll(b, "h8 pass").ok());
  EXPECT_NE(a.hash(), b.hash());
}

TEST(GameTest, ResignationAndTime) {
  Game game;
  game.Resign(Color::kBlack);
  EXPECT_EQ(game.result(), GameResult::kWhiteWin);
  EXPECT_EQ(game.end_reason(), EndReason::kResignation);
  Game timed;
  timed.LoseOnTime(Color::kWhite);
  EXPECT_EQ(timed.result(), GameResult::kBlackWin);
  EXPECT_EQ(timed.end_reason(), EndReason::kTimeout);
}

TEST(GameTest, LegalPointsExcludeForbiddenForBlackOnly) {
  Game game;
  ASSERT_TRUE(PlayAll(game, "h9 a1 g8 a2 i8 a3 h7 a4").ok());
  EXPECT_FALSE(game.IsLegal(Pt("h8")));
  EXPECT_FALSE(game.IsLegal(Pt("a1")));
  EXPECT_EQ(game.LegalPoints().size(), 225u - 8u - 1u);
  ASSERT_TRUE(game.Play(M("o15")).ok());
  EXPECT_TRUE(game.IsLegal(Pt("h8")));  // white may play there
}

TEST(SymmetryTest, EightDistinctMapsThatInvert) {
  const Point p(2, 5);
  std::set<std::pair<int, int>> images;
  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    const Point q = ApplySymmetry(s, p, 15);
    images.insert({q.x, q.y});
    EXPECT_EQ(ApplySymmetry(InverseSymmetry(s), q, 15), p) << int(s);
  }
  EXPECT_EQ(images.size(), 8u);
  EXPECT_EQ(ApplySymmetry(kIdentity, p, 15), p);
  // The centre is fixed by every symmetry.
  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    EXPECT_EQ(ApplySymmetry(s, Point(7, 7), 15), Point(7, 7));
  }
}

}  // namespace
}  // namespace renju
