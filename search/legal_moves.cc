#include "search/legal_moves.h"

#include "rules/forbidden.h"

namespace renju {

PointSet ForbiddenSet(Board& board) {
  PointSet out;
  if (board.variant() != Variant::kRenju) return out;
  // Copy: the exact test places probe stones, which change the candidates.
  const PointSet candidates = board.ForbiddenCandidates();
  candidates.ForEach([&](Point p) {
    if (IsForbidden(board, p)) out.Insert(p);
  });
  return out;
}

PointSet LegalPointSet(Game& game) {
  Board& board = game.mutable_board();
  PointSet out;
  const int size = board.size();
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      if (board.IsEmpty(Point(x, y))) out.Insert(Point(x, y));
    }
  }
  if (game.side_to_move() == Color::kBlack) {
    ForbiddenSet(board).ForEach([&](Point p) { out.Erase(p); });
  }
  return out;
}

}  // namespace renju
