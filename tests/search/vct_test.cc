// The VCT solver on hand-made positions, each checked against the rules
// core first so a test fails for the right reason, and against the
// brute-force reference solver on puzzles of the committed set.
#include "search/vct.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "base/random.h"
#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "search/vct_reference.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Points;
using testing::Pt;

VctResult SolveVct(Game& game, Color attacker, int max_depth = 8,
                   int64_t max_nodes = 1000000) {
  VctSolver solver;
  const uint64_t hash = game.board().hash();
  VctResult r = solver.Solve(game.mutable_board(), attacker,
                             VctLimits{max_nodes, max_depth, 0});
  EXPECT_EQ(game.board().hash(), hash) << "the solver must restore the board";
  return r;
}

// After `c` moved: can `c` win with its next move whatever the opponent
// does? That is, some four point of c leaves two five points, or one that
// black may not block. Written from the rules, not from the solver.
bool ThreatensUnstoppableFour(Board& board, Color c) {
  bool found = false;
  const PointSet fours = board.FourPoints(c);
  fours.ForEach([&](Point p) {
    if (found || (c == kBlack && IsForbidden(board, p))) return;
    ScopedStone four(board, p, c);
    const PointSet& fives = board.FivePoints(c);
    found = fives.size() >= 2 || (c == kWhite && fives.size() == 1 &&
                                  IsForbidden(board, fives.First()));
  });
  return found;
}

// Plays the line on a copy and checks that it is a real threat sequence.
// Moves alternate, attacker first (a defender's counter-four is followed by
// the attacker's block). Every move is playable; a five point of the
// opponent is blocked; after every attacker move the attacker has a five
// point or an unstoppable four to come; the line ends with the attacker's
// five or a four the defender cannot meet. Returns the number of attacker
// threes: moves that neither made a four nor blocked one.
int ExpectThreatLine(Game game, Color attacker,
                     const std::vector<Point>& line) {
  EXPECT_FALSE(line.empty());
  Board& board = game.mutable_board();
  int threes = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const Point p = line[i];
    const Color mover = i % 2 == 0 ? attacker : Opponent(attacker);
    EXPECT_TRUE(board.IsEmpty(p)) << PointName(p);
    if (!board.IsEmpty(p)) return threes;
    if (board.FivePoints(mover).Contains(p)) {
      EXPECT_EQ(mover, attacker)
          << "the defender made five at " << PointName(p);
      EXPECT_EQ(i, line.size() - 1) << "the five ends the line";
      return threes;
    }
    if (mover == kBlack) {
      EXPECT_FALSE(IsForbidden(board, p)) << PointName(p) << " is forbidden";
    }
    const PointSet& threats = board.FivePoints(Opponent(mover));
    const bool block = !threats.empty();
    if (block) {
      EXPECT_EQ(threats.ToVector(), std::vector<Point>{p})
          << PointName(p) << " does not block " << PointName(threats.First());
    }
    board.Place(p, mover);
    if (mover == attacker) {
      const bool four = !board.FivePoints(attacker).empty();
      EXPECT_TRUE(four || ThreatensUnstoppableFour(board, attacker))
          << PointName(p) << " threatens nothing";
      if (!four && !block) ++threes;
    }
  }
  EXPECT_EQ(line.size() % 2, 1u) << "the attacker moves last";
  const PointSet& fives = board.FivePoints(attacker);
  const bool caught = attacker == kWhite && fives.size() == 1 &&
                      IsForbidden(board, fives.First());
  EXPECT_TRUE(fives.size() >= 2 || caught)
      << "the line ends on a four the defender can meet";
  return threes;
}

TEST(VctTest, FindsFourThree) {
  // Black i8: the row four f8-i8 (e8 white, five point j8) and the
  // diagonal three i8 j9 k10.
  Game game = MakeGame("f8 g8 h8 j9 k10", "e8");
  VctResult r = SolveVct(game, kBlack);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.line.front(), Pt("i8"));
  EXPECT_EQ(r.line[1], Pt("j8"));
  ExpectThreatLine(game, kBlack, r.line);
}

// White g8 h8 and i9 i10: i8 makes two live threes at once.
constexpr char kDoubleThreeWhite[] = "g8 h8 i9 i10";
constexpr char kFarStones[] = "a1 o15";

TEST(VctTest, FindsWhiteThreeThree) {
  Game game = MakeGame(kFarStones, kDoubleThreeWhite, kWhite);
  VctResult r = SolveVct(game, kWhite);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.line.front(), Pt("i8"));
  EXPECT_EQ(ExpectThreatLine(game, kWhite, r.line), 1);
  EXPECT_EQ(ReferenceVct(game.mutable_board(), kWhite, 1, 1000000).outcome,
            VctOutcome::kWin);
}

TEST(VctTest, BlackDoubleThreeIsNoThreat) {
  // The same shape for black: i8 is a forbidden double-three, so no single
  // black move makes two threats.
  Game renju = MakeGame(kDoubleThreeWhite, kFarStones);
  ASSERT_EQ(ForbiddenAt(renju.mutable_board(), Pt("i8")),
            ForbiddenKind::kDoubleThree);
  EXPECT_EQ(SolveVct(renju, kBlack, /*max_depth=*/1).outcome,
            VctOutcome::kNoWin);
  EXPECT_EQ(ReferenceVct(renju.mutable_board(), kBlack, 1, 1000000).outcome,
            VctOutcome::kNoWin);

  // Without forbidden moves i8 wins.
  Game freestyle =
      MakeGame(kDoubleThreeWhite, kFarStones, kBlack, Variant::kFreestyle);
  VctResult r = SolveVct(freestyle, kBlack, /*max_depth=*/1);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.line.front(), Pt("i8"));
}

TEST(VctTest, BlackFourOnAForbiddenPointIsNoThreat) {
  // i8 would make the row four f8-i8 and the column four i8-i11: a
  // double-four. Every other four lets white block on i8, so black has no
  // win in one threat.
  const char* black = "f8 g8 h8 i9 i10 i11";
  const char* white = "e8 i12";
  Game renju = MakeGame(black, white);
  ASSERT_EQ(ForbiddenAt(renju.mutable_board(), Pt("i8")),
            ForbiddenKind::kDoubleFour);
  // (Black does win in three threats: g9, i7, j6.)
  EXPECT_EQ(SolveVct(renju, kBlack, /*max_depth=*/1).outcome,
            VctOutcome::kNoWin);
  EXPECT_EQ(ReferenceVct(renju.mutable_board(), kBlack, 1, 1000000).outcome,
            VctOutcome::kNoWin);

  Game freestyle = MakeGame(black, white, kBlack, Variant::kFreestyle);
  EXPECT_EQ(SolveVct(freestyle, kBlack, /*max_depth=*/1).outcome,
            VctOutcome::kWin);
}

TEST(VctTest, FindsWhiteFourWithAForbiddenBlock) {
  // White g9 makes d9-g9 (c9 black); black's only block h9 is a
  // double-three (g10 h9 i8 and h10 h9 . h7).
  Game game = MakeGame("g10 h10 i8 h7 c9", "d9 e9 f9", kWhite);
  VctResult r = SolveVct(game, kWhite);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.line, Points("g9"));
  ExpectThreatLine(game, kWhite, r.line);
}

TEST(VctTest, WhiteThreatensAFourWithAForbiddenBlock) {
  // White f9 makes the column three f7 f8 f9 and the row d9 e9 f9 (c9
  // black), which threatens g9, a four whose only block h9 is forbidden
  // for black. Black cannot stop both: a VCT, not a VCF.
  const char* black = "g10 h10 i8 h7 c9";
  const char* white = "d9 e9 f7 f8";
  Game game = MakeGame(black, white, kWhite);
  {
    Board& board = game.mutable_board();
    ScopedStone f9(board, Pt("f9"), kWhite);
    ScopedStone g9(board, Pt("g9"), kWhite);
    ASSERT_EQ(board.FivePoints(kWhite).ToVector(), Points("h9"));
    ASSERT_EQ(ForbiddenAt(board, Pt("h9")), ForbiddenKind::kDoubleThree);
  }
  VctResult r = SolveVct(game, kWhite);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.line.front(), Pt("f9"));
  ExpectThreatLine(game, kWhite, r.line);
  EXPECT_EQ(ReferenceVct(game.mutable_board(), kWhite, 1, 1000000).outcome,
            VctOutcome::kWin);

  // Where black may block on h9, f9 is one three and a harmless shape.
  Game standard = MakeGame(black, white, kWhite, Variant::kStandard);
  EXPECT_EQ(SolveVct(standard, kWhite, /*max_depth=*/1).outcome,
            VctOutcome::kNoWin);
}

TEST(VctTest, FindsAVctOfSeveralThrees) {
  // White k6 (k5 k6 k7), j7 (h7 . j7 k7), then i8: the diagonal g6 h7 i8
  // and the anti-diagonal k6 j7 i8 at once. No fours until the end.
  Game game = MakeGame("g9 f8 j6 k10", "g6 k7 h7 k5", kWhite);
  ASSERT_TRUE(game.board().FourPoints(kWhite).empty());
  VctResult r = SolveVct(game, kWhite);
  ASSERT_EQ(r.outcome, VctOutcome::kWin);
  EXPECT_EQ(r.depth, 3);
  EXPECT_GE(ExpectThreatLine(game, kWhite, r.line), 3);
  // Not within two threats, by the reference too.
  EXPECT_EQ(SolveVct(game, kWhite, /*max_depth=*/2).outcome,
            VctOutcome::kNoWin);
  EXPECT_EQ(ReferenceVct(game.mutable_board(), kWhite, 2, 3000000).outcome,
            VctOutcome::kNoWin);
  EXPECT_EQ(ReferenceVct(game.mutable_board(), kWhite, 3, 3000000).outcome,
            VctOutcome::kWin);
}

TEST(VctTest, QuietPositionHasNoVct) {
  Game game = MakeGame("h8", "h9");
  VctResult r = SolveVct(game, kBlack);
  EXPECT_EQ(r.outcome, VctOutcome::kNoWin);
  EXPECT_TRUE(r.line.empty());
}

TEST(VctTest, RespectsItsNodeBudget) {
  Game game = MakeGame("g9 f8 j6 k10", "g6 k7 h7 k5", kWhite);
  for (int64_t budget : {1, 10, 100}) {
    const VctResult r = SolveVct(game, kWhite, 8, budget);
    EXPECT_EQ(r.outcome, VctOutcome::kUnknown) << budget;
    EXPECT_LE(r.nodes, budget);
  }
  // The same solver object proves it afterwards with room to spare.
  VctSolver solver;
  EXPECT_EQ(solver.Solve(game.mutable_board(), kWhite, {10, 8, 0}).outcome,
            VctOutcome::kUnknown);
  EXPECT_EQ(solver.Solve(game.mutable_board(), kWhite, {1000000, 8, 0}).outcome,
            VctOutcome::kWin);
}

// The committed puzzle set (bench/vct_puzzles.txt) refers to positions of
// the shared games as "<game index> <ply> <win|none>" under a "# depth N"
// line; both solvers labelled them. A fixed-seed sample is solved again by
// both and must keep its label.
struct PuzzleRef {
  int game = 0;
  int ply = 0;
  bool win = false;
};

std::vector<Move> SharedGameMoves(int index) {
  std::ifstream in(RENJU_SHARED_DIR "/data/renju-games.jsonl");
  std::string line;
  for (int i = 0; i <= index && std::getline(in, line); ++i) {
  }
  std::vector<Move> moves;
  const size_t start = line.find("\"moves\":[");
  if (start == std::string::npos) return moves;
  std::string list = line.substr(start + 9);
  list = list.substr(0, list.find(']'));
  for (absl::string_view token : absl::StrSplit(list, ',')) {
    token.remove_prefix(1);
    token.remove_suffix(1);
    absl::StatusOr<Move> m = ParseMove(token, kRenjuBoardSize);
    if (!m.ok()) return {};
    moves.push_back(*m);
  }
  return moves;
}

TEST(VctTest, AgreesWithTheReferenceOnASampleOfThePuzzleSet) {
  std::ifstream in(RENJU_SOURCE_DIR "/bench/vct_puzzles.txt");
  ASSERT_TRUE(in) << "bench/vct_puzzles.txt";
  int depth = 0;
  std::vector<PuzzleRef> wins, nones;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# depth ", 0) == 0) {
      ASSERT_TRUE(absl::SimpleAtoi(line.substr(8), &depth)) << line;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = absl::StrSplit(line, ' ');
    PuzzleRef p;
    ASSERT_EQ(f.size(), 3u) << line;
    ASSERT_TRUE(absl::SimpleAtoi(f[0], &p.game) &&
                absl::SimpleAtoi(f[1], &p.ply))
        << line;
    p.win = f[2] == "win";
    (p.win ? wins : nones).push_back(p);
  }
  ASSERT_GT(depth, 0);
  ASSERT_GE(wins.size(), 3u);
  ASSERT_GE(nones.size(), 3u);
  Random rng(16);
  std::vector<PuzzleRef> sample;
  for (int i = 0; i < 3; ++i) {
    sample.push_back(wins[rng.UniformInt(static_cast<int>(wins.size()))]);
    sample.push_back(nones[rng.UniformInt(static_cast<int>(nones.size()))]);
  }
  for (const PuzzleRef& p : sample) {
    SCOPED_TRACE(::testing::Message() << "game " << p.game << " ply " << p.ply);
    const std::vector<Move> moves = SharedGameMoves(p.game);
    ASSERT_GE(static_cast<int>(moves.size()), p.ply);
    Game game;
    for (int i = 0; i < p.ply; ++i) ASSERT_TRUE(game.Play(moves[i]).ok());
    const Color attacker = game.side_to_move();
    const VctOutcome want = p.win ? VctOutcome::kWin : VctOutcome::kNoWin;
    VctResult mine = SolveVct(game, attacker, depth, 10000000);
    EXPECT_EQ(mine.outcome, want);
    if (mine.outcome == VctOutcome::kWin) {
      ExpectThreatLine(game, attacker, mine.line);
    }
    EXPECT_EQ(
        ReferenceVct(game.mutable_board(), attacker, depth, 10000000).outcome,
        want);
  }
}

}  // namespace
}  // namespace renju
