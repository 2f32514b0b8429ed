// TacticalBrain (gomocup_protocol.h): win, block, else the best-shaped point.
#include <array>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gomocup/gomocup_protocol.h"
#include "rules/board.h"

namespace renju {
namespace {

// Value of the shape one stone makes on one line. A straight four or two
// fours on a line win next move unless the opponent has a five to make.
constexpr std::array<int, 7> kShapeValue = {
    /*kNone=*/0,           /*kThree=*/10,       /*kFour=*/30,
    /*kStraightFour=*/200, /*kDoubleFour=*/200, /*kFive=*/10000,
    /*kOverline=*/0};

int ShapeScore(const Board& board, Point p, Color c) {
  int score = 0;
  for (int d = 0; d < kNumDirections; ++d) {
    score += kShapeValue[static_cast<int>(
        board.ShapeAt(p, c, static_cast<Direction>(d)))];
  }
  return score;
}

// Empty points within two steps of a stone: where the play is.
std::vector<Point> PointsNearStones(const Board& board) {
  std::vector<Point> out;
  const int size = board.size();
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Point p(x, y);
      if (!board.IsEmpty(p)) continue;
      bool near = false;
      for (int dy = -2; dy <= 2 && !near; ++dy) {
        for (int dx = -2; dx <= 2 && !near; ++dx) {
          const Point q(x + dx, y + dy);
          near = board.OnBoard(q) && !board.IsEmpty(q);
        }
      }
      if (near) out.push_back(p);
    }
  }
  return out;
}

}  // namespace

uint64_t TacticalBrain::NextRandom() {
  // splitmix64: small, seedable, good enough for tie-breaking.
  uint64_t z = (rng_state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

absl::StatusOr<Move> TacticalBrain::ChooseMove(Game& game,
                                               const MoveLimits& limits,
                                               const std::atomic<bool>* stop) {
  const Board& board = game.board();
  const Color me = game.side_to_move();
  const Color them = Opponent(me);
  const int size = game.size();
  // The centre as Gomocup managers place it, (size/2, size/2) from the top
  // left, also on even boards.
  if (board.num_stones() == 0) {
    return Move::At(Point(size / 2, (size - 1) / 2));
  }
  // A five is never forbidden (RULES.md §4, five first).
  if (!board.FivePoints(me).empty()) {
    return Move::At(board.FivePoints(me).First());
  }
  for (Point p : board.FivePoints(them).ToVector()) {
    if (game.IsLegal(p)) return Move::At(p);
  }

  // Attack weighs a little more than defence: 11 to 10.
  std::vector<Point> best;
  int best_score = -1;
  for (Point p : PointsNearStones(board)) {
    const int score =
        11 * ShapeScore(board, p, me) + 10 * ShapeScore(board, p, them);
    if (score < best_score || !game.IsLegal(p)) continue;
    if (score > best_score) best.clear();
    best_score = score;
    best.push_back(p);
  }
  if (best.empty()) {
    best = game.LegalPoints();
    if (best.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(ColorName(me), " has no legal point to play"));
    }
  }
  return Move::At(best[NextRandom() % best.size()]);
}

}  // namespace renju
