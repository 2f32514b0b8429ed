// The 8 symmetries of a square board (rotations and reflections). Renju
// legality and move prediction do not change under them, so they multiply
// training data and identify openings.
#ifndef RENJU_RULES_SYMMETRY_H_
#define RENJU_RULES_SYMMETRY_H_

#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace renju {

// Encoded as three bits applied in this order: bit 2 transposes (swaps x and
// y), bit 0 mirrors x (x -> size-1-x), bit 1 mirrors y. 0 is the identity.
using Symmetry = uint8_t;
inline constexpr int kNumSymmetries = 8;
inline constexpr Symmetry kIdentity = 0;

constexpr Point ApplySymmetry(Symmetry s, Point p, int size) {
  int x = p.x;
  int y = p.y;
  if (s & 4) {
    const int t = x;
    x = y;
    y = t;
  }
  if (s & 1) x = size - 1 - x;
  if (s & 2) y = size - 1 - y;
  return Point(x, y);
}

// ApplySymmetry(InverseSymmetry(s), ApplySymmetry(s, p)) == p.
constexpr Symmetry InverseSymmetry(Symmetry s) {
  // Transpose-then-mirror undoes as mirror-then-transpose, which is the
  // transpose followed by the mirrors with x and y exchanged.
  if (!(s & 4)) return s;
  return static_cast<Symmetry>(4 | ((s & 1) << 1) | ((s & 2) >> 1));
}

Move ApplySymmetry(Symmetry s, Move m, int size);
std::vector<Move> ApplySymmetry(Symmetry s, const std::vector<Move>& moves,
                                int size);

}  // namespace renju

#endif  // RENJU_RULES_SYMMETRY_H_
