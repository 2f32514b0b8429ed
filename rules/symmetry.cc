#include "rules/symmetry.h"

namespace renju {

Move ApplySymmetry(Symmetry s, Move m, int size) {
  return m.is_pass() ? m : Move::At(ApplySymmetry(s, m.point(), size));
}

std::vector<Move> ApplySymmetry(Symmetry s, const std::vector<Move>& moves,
                                int size) {
  std::vector<Move> out;
  out.reserve(moves.size());
  for (Move m : moves) out.push_back(ApplySymmetry(s, m, size));
  return out;
}

}  // namespace renju
