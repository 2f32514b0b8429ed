// RULES.md §5, the seeds' basic rule 4: a game is drawn as soon as neither
// side can still make a five. Hand-built positions for each variant, undo,
// and a property test of the incremental window counts (FiveWindows, kept
// by Game) against a plain scan.
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/five_windows.h"
#include "rules/game.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::Pt;

// A filling of the whole board in which every window of five, on every
// line, holds stones of both colours: colour = floor((x + 2y) / 2) mod 2.
// Along a row or an anti-diagonal x + 2y moves by 1, along a diagonal by 3,
// along a column by 2, so five consecutive points always cover both halves
// of a residue class mod 4. Emptying or changing one point keeps every
// window through it in the other three directions blocked for both sides
// (its other four points still hold both colours). `overrides` maps point
// names to 'X' (black), 'O' (white) or '.' (empty).
struct Stones {
  std::vector<Point> black;
  std::vector<Point> white;
};
Stones BlockedFilling(const std::map<std::string, char>& overrides) {
  std::map<std::pair<int, int>, char> at;
  for (const auto& [name, c] : overrides) {
    const Point p = Pt(name);
    at[{p.x, p.y}] = c;
  }
  Stones out;
  for (int y = 0; y < kRenjuBoardSize; ++y) {
    for (int x = 0; x < kRenjuBoardSize; ++x) {
      char c = ((x + 2 * y) / 2) % 2 == 0 ? 'X' : 'O';
      if (auto it = at.find({x, y}); it != at.end()) c = it->second;
      if (c == 'X') out.black.push_back(Point(x, y));
      if (c == 'O') out.white.push_back(Point(x, y));
    }
  }
  return out;
}

// A board and its window counts, both kept stone by stone as Game does.
struct Built {
  explicit Built(Variant variant)
      : board(variant, kRenjuBoardSize), windows(board) {}
  void Place(Point p, Color c) {
    board.Place(p, c);
    windows.Place(p, c);
  }
  void Remove(Point p) {
    windows.Remove(p,
                   board.at(p) == Cell::kBlack ? Color::kBlack : Color::kWhite);
    board.Remove(p);
  }
  bool IsConsistent() const {
    return board.IsConsistent() && windows.IsConsistent(board);
  }
  int OpenWindows(Color c) const { return windows.OpenWindows(c); }
  bool CanMakeFive(Color c) const { return windows.CanMakeFive(c); }

  Board board;
  FiveWindows windows;
};

Built BoardOf(const Stones& stones, Variant variant) {
  Built built(variant);
  for (Point p : stones.black) built.Place(p, Color::kBlack);
  for (Point p : stones.white) built.Place(p, Color::kWhite);
  return built;
}

TEST(NoFiveTest, TheFillingLeavesNoWindowToAnyone) {
  for (Variant v : {Variant::kRenju, Variant::kStandard, Variant::kFreestyle}) {
    const Built board = BoardOf(BlockedFilling({}), v);
    EXPECT_TRUE(board.board.full());
    EXPECT_EQ(board.OpenWindows(Color::kBlack), 0) << VariantName(v);
    EXPECT_EQ(board.OpenWindows(Color::kWhite), 0) << VariantName(v);
  }
}

TEST(NoFiveTest, EmptyBoardCountsEveryWindow) {
  // 15 x 15: 11 starts per row, per column, 11 x 11 per diagonal direction.
  const Built board(Variant::kRenju);
  EXPECT_EQ(board.OpenWindows(Color::kBlack), 2 * 11 * 15 + 2 * 11 * 11);
  EXPECT_EQ(FiveWindows::CountByScan(board.board, Color::kBlack),
            2 * 11 * 15 + 2 * 11 * 11);
  EXPECT_EQ(board.OpenWindows(Color::kWhite), 2 * 11 * 15 + 2 * 11 * 11);
}

// Row 8 reads X . . . . X O from a8: the only windows without a white stone
// are a8-e8 and b8-f8, and each is flanked by a black stone (f8, a8), so
// completing either makes six. a1, i1 and a15 are emptied too (far from
// row 8, so no window opens) to give black as many stones as white.
Stones FlankedBlackWindow() {
  return BlockedFilling({{"a1", '.'},
                         {"i1", '.'},
                         {"a15", '.'},
                         {"a8", 'X'},
                         {"b8", '.'},
                         {"c8", '.'},
                         {"d8", '.'},
                         {"e8", '.'},
                         {"f8", 'X'},
                         {"g8", 'O'}});
}

TEST(NoFiveTest, WindowFlankedByOwnStoneIsClosedOnlyForAnExactFive) {
  const Stones stones = FlankedBlackWindow();
  // Black's five must be exact under renju and standard: nobody can win.
  for (Variant v : {Variant::kRenju, Variant::kStandard}) {
    const Built board = BoardOf(stones, v);
    EXPECT_FALSE(board.CanMakeFive(Color::kBlack)) << VariantName(v);
    EXPECT_FALSE(board.CanMakeFive(Color::kWhite)) << VariantName(v);
    EXPECT_TRUE(board.IsConsistent());
  }
  // Freestyle: an overline wins, so both windows stay open for black.
  const Built freestyle = BoardOf(stones, Variant::kFreestyle);
  EXPECT_EQ(freestyle.OpenWindows(Color::kBlack), 2);
  EXPECT_EQ(freestyle.OpenWindows(Color::kWhite), 0);
  EXPECT_TRUE(freestyle.IsConsistent());

  // As a game: renju is drawn on the spot, freestyle goes on.
  absl::StatusOr<Game> renju = Game::FromStones(
      Variant::kRenju, 15, stones.black, stones.white, Color::kBlack);
  ASSERT_TRUE(renju.ok()) << renju.status();
  EXPECT_EQ(renju->result(), GameResult::kDraw);
  EXPECT_EQ(renju->end_reason(), EndReason::kNoFivePossible);
  absl::StatusOr<Game> freestyle_game = Game::FromStones(
      Variant::kFreestyle, 15, stones.black, stones.white, Color::kBlack);
  ASSERT_TRUE(freestyle_game.ok()) << freestyle_game.status();
  EXPECT_FALSE(freestyle_game->over());
}

TEST(NoFiveTest, WhiteWindowClosedByOneBlackStone) {
  // Row 8 from a8: . . . . . X X X O: white's only window is a8-e8 (b8-f8
  // holds f8); black keeps d8-h8 (flanks c8 empty, i8 white). Black b8
  // closes white's window and flanks no window black still needs.
  Built board = BoardOf(BlockedFilling({{"a8", '.'},
                                        {"b8", '.'},
                                        {"c8", '.'},
                                        {"d8", '.'},
                                        {"e8", '.'},
                                        {"f8", 'X'}}),
                        Variant::kRenju);
  EXPECT_EQ(board.OpenWindows(Color::kWhite), 1);
  EXPECT_TRUE(board.CanMakeFive(Color::kBlack));
  board.Place(Pt("b8"), Color::kBlack);
  EXPECT_EQ(board.OpenWindows(Color::kWhite), 0);
  EXPECT_TRUE(board.CanMakeFive(Color::kBlack));
  EXPECT_TRUE(board.IsConsistent());
  board.Remove(Pt("b8"));
  EXPECT_EQ(board.OpenWindows(Color::kWhite), 1);
  EXPECT_TRUE(board.IsConsistent());
}

// The flanked-window position with a8 still empty: white keeps a8-e8 and
// black keeps b8-f8 (flanks a8 empty, g8 white). Black a8 closes both.
// a1 and i1 are emptied too (far from row 8, so no window opens) to give
// black as many stones as white, black to move.
Stones OneMoveBeforeTheDraw() {
  return BlockedFilling({{"a8", '.'},
                         {"b8", '.'},
                         {"c8", '.'},
                         {"d8", '.'},
                         {"e8", '.'},
                         {"f8", 'X'},
                         {"g8", 'O'},
                         {"a1", '.'},
                         {"i1", '.'}});
}

TEST(NoFiveTest, DrawnExactlyOnTheMoveThatClosesTheLastWindowAndUndo) {
  const Stones stones = OneMoveBeforeTheDraw();
  absl::StatusOr<Game> game = Game::FromStones(
      Variant::kRenju, 15, stones.black, stones.white, Color::kBlack);
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_FALSE(game->over());
  EXPECT_EQ(game->five_windows().OpenWindows(Color::kBlack), 1);
  EXPECT_EQ(game->five_windows().OpenWindows(Color::kWhite), 1);

  ASSERT_TRUE(game->Play(Move::At(Pt("a8"))).ok());
  EXPECT_EQ(game->result(), GameResult::kDraw);
  EXPECT_EQ(game->end_reason(), EndReason::kNoFivePossible);
  EXPECT_EQ(game->no_five_ply(), 1);
  EXPECT_FALSE(game->CheckMove(Move::At(Pt("b8"))).ok());

  game->Undo();
  EXPECT_FALSE(game->over());
  EXPECT_EQ(game->end_reason(), EndReason::kNone);
  EXPECT_EQ(game->no_five_ply(), 0);
  EXPECT_EQ(game->five_windows().OpenWindows(Color::kBlack), 1);
  EXPECT_EQ(game->five_windows().OpenWindows(Color::kWhite), 1);
  EXPECT_TRUE(game->board().IsConsistent());
  EXPECT_TRUE(game->five_windows().IsConsistent(game->board()));

  // Another black move leaves a window to each side.
  ASSERT_TRUE(game->Play(Move::At(Pt("c8"))).ok());
  EXPECT_FALSE(game->over());
  EXPECT_EQ(game->no_five_ply(), 0);
}

TEST(NoFiveTest, FreestyleKeepsPlayingWhereRenjuDraws) {
  const Stones stones = OneMoveBeforeTheDraw();
  absl::StatusOr<Game> game = Game::FromStones(
      Variant::kFreestyle, 15, stones.black, stones.white, Color::kBlack);
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_TRUE(game->Play(Move::At(Pt("a8"))).ok());
  EXPECT_FALSE(game->over());
  EXPECT_EQ(game->five_windows().OpenWindows(Color::kBlack), 2);
}

TEST(NoFiveTest, PlaysOnPolicyNotesThePlyAndGoesOn) {
  const Stones stones = OneMoveBeforeTheDraw();
  absl::StatusOr<Game> game = Game::FromStones(
      Variant::kRenju, 15, stones.black, stones.white, Color::kBlack);
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_TRUE(game->Play(Move::At(Pt("a8")), ForbiddenMovePolicy::kForgiven,
                         NoFivePolicy::kPlaysOn)
                  .ok());
  EXPECT_FALSE(game->over());
  EXPECT_EQ(game->no_five_ply(), 1);
  ASSERT_TRUE(game->Play(Move::At(Pt("b8")), ForbiddenMovePolicy::kForgiven,
                         NoFivePolicy::kPlaysOn)
                  .ok());
  EXPECT_EQ(game->no_five_ply(), 1);
  game->Undo();
  EXPECT_EQ(game->no_five_ply(), 1);
  game->Undo();
  EXPECT_EQ(game->no_five_ply(), 0);
}

// --- Property: incremental counts equal a plain scan -----------------------

// Straight from RULES.md §5, with no help from Board beyond at().
int ReferenceOpenWindows(const Board& board, Color c) {
  const bool exact = board.variant() == Variant::kStandard ||
                     (board.variant() == Variant::kRenju && c == Color::kBlack);
  const Cell own = StoneOf(c);
  const Cell opponent = StoneOf(Opponent(c));
  const int dx[4] = {1, 0, 1, 1};
  const int dy[4] = {0, 1, 1, -1};
  const int n = board.size();
  int open = 0;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      for (int d = 0; d < 4; ++d) {
        bool ok = true;
        for (int i = 0; i < 5 && ok; ++i) {
          const Point q(x + i * dx[d], y + i * dy[d]);
          ok = board.OnBoard(q) && board.at(q) != opponent;
        }
        if (ok && exact) {
          for (int i : {-1, 5}) {
            const Point q(x + i * dx[d], y + i * dy[d]);
            if (board.OnBoard(q) && board.at(q) == own) ok = false;
          }
        }
        open += ok;
      }
    }
  }
  return open;
}

// Random games played on past the draw (NoFivePolicy::kPlaysOn) to a five
// or a full board, each variant and several sizes; the mover avoids its
// five points while it has other moves and blocks the opponent's, so many
// games get to the draw (uniform play mostly ends in a five). After every
// move, and after taking it back, the game's counts equal the reference,
// and the game's no-five ply is the first ply where the reference says
// neither side can make a five.
TEST(NoFivePropertyTest, IncrementalCountsEqualAScanOverRandomGames) {
  std::mt19937_64 rng(19);
  int games_reaching_no_five = 0;
  struct Setup {
    Variant variant;
    int size;
  };
  for (const Setup setup :
       {Setup{Variant::kRenju, 15}, Setup{Variant::kStandard, 15},
        Setup{Variant::kStandard, 7}, Setup{Variant::kFreestyle, 9},
        Setup{Variant::kFreestyle, 20}, Setup{Variant::kRenju, 15}}) {
    for (int g = 0; g < 12; ++g) {
      Game game(setup.variant, setup.size);
      int expected_no_five_ply = 0;
      while (!game.over()) {
        std::vector<Point> empty;
        std::vector<Point> quiet;   // empty and not a five for the mover
        std::vector<Point> blocks;  // quiet, and the opponent's five point
        const Color mover = game.side_to_move();
        const PointSet& fives = game.board().FivePoints(mover);
        const PointSet& threats = game.board().FivePoints(Opponent(mover));
        for (int y = 0; y < setup.size; ++y) {
          for (int x = 0; x < setup.size; ++x) {
            const Point p(x, y);
            if (!game.board().IsEmpty(p)) continue;
            empty.push_back(p);
            if (fives.Contains(p)) continue;
            quiet.push_back(p);
            if (threats.Contains(p)) blocks.push_back(p);
          }
        }
        ASSERT_FALSE(empty.empty()) << "a full board must end the game";
        if (!blocks.empty()) {
          empty = blocks;
        } else if (!quiet.empty()) {
          empty = quiet;
        }
        const Move m = Move::At(empty[rng() % empty.size()]);
        const int before[2] = {game.five_windows().OpenWindows(Color::kBlack),
                               game.five_windows().OpenWindows(Color::kWhite)};
        ASSERT_TRUE(
            game.Play(m, ForbiddenMovePolicy::kForgiven, NoFivePolicy::kPlaysOn)
                .ok());
        const Board& board = game.board();
        for (Color c : {Color::kBlack, Color::kWhite}) {
          ASSERT_EQ(game.five_windows().OpenWindows(c),
                    ReferenceOpenWindows(board, c))
              << VariantName(setup.variant) << " " << setup.size << " game "
              << g << " ply " << game.ply() << " " << ColorName(c);
          ASSERT_EQ(game.five_windows().OpenWindows(c),
                    FiveWindows::CountByScan(board, c));
        }
        if (expected_no_five_ply == 0 &&
            game.result() != GameResult::kBlackWin &&
            game.result() != GameResult::kWhiteWin &&
            ReferenceOpenWindows(board, Color::kBlack) == 0 &&
            ReferenceOpenWindows(board, Color::kWhite) == 0) {
          expected_no_five_ply = game.ply();
        }
        ASSERT_EQ(game.no_five_ply(), expected_no_five_ply);
        // Take the move back and play it again.
        game.Undo();
        ASSERT_EQ(game.five_windows().OpenWindows(Color::kBlack), before[0]);
        ASSERT_EQ(game.five_windows().OpenWindows(Color::kWhite), before[1]);
        ASSERT_TRUE(
            game.Play(m, ForbiddenMovePolicy::kForgiven, NoFivePolicy::kPlaysOn)
                .ok());
      }
      ASSERT_TRUE(game.board().IsConsistent());
      ASSERT_TRUE(game.five_windows().IsConsistent(game.board()));
      games_reaching_no_five += game.no_five_ply() > 0;
    }
  }
  // Enough games get there for the test to mean something.
  EXPECT_GT(games_reaching_no_five, 10);
}

}  // namespace
}  // namespace renju
