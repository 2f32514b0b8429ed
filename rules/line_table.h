// Precomputed LineShape tables (an implementation detail of Board).
//
// A line word (board.h) describes the ten neighbours of a point on one line.
// For one colour, each neighbour is own, empty or blocked (opponent or wall),
// so a word reduces to a base-3 index below 3^10 = 59049; the table at that
// index holds the LineShape placing the colour's stone in the middle makes.
// Two tables exist: one for "exactly five wins" (renju black, standard) and
// one for "five or more wins" (freestyle, renju white). Rapfi's pattern
// tables (dhbloo/rapfi Rapfi/game/pattern.cpp) showed the idea; this table is
// written from the RULES.md §3 definitions.
#ifndef RENJU_RULES_LINE_TABLE_H_
#define RENJU_RULES_LINE_TABLE_H_

#include <cstdint>

#include "rules/board.h"

namespace renju::line_table {

inline constexpr int kNumKeys = 59049;  // 3^10

// Shape table for a winning rule; built once on first use (thread-safe).
const LineShape* ShapeTable(bool exact_five);

namespace internal {
// kPow3Digits[m] = sum of 3^i over the set bits i of m.
struct Pow3Digits {
  uint16_t value[1024];
  constexpr Pow3Digits() : value() {
    for (int m = 0; m < 1024; ++m) {
      int sum = 0;
      for (int i = 0, p = 1; i < 10; ++i, p *= 3) {
        if (m & (1 << i)) sum += p;
      }
      value[m] = static_cast<uint16_t>(sum);
    }
  }
};
inline constexpr Pow3Digits kPow3Digits;
}  // namespace internal

// Base-3 index for a colour's view of a line word: `own` and `blocked` are
// disjoint 10-bit masks of neighbour offsets -5..-1, +1..+5.
inline int KeyOf(uint32_t own, uint32_t blocked) {
  return internal::kPow3Digits.value[own] +
         2 * internal::kPow3Digits.value[blocked];
}

// Splits a line word into own/blocked masks for `c`.
inline void Split(uint32_t word, Color c, uint32_t* own, uint32_t* blocked) {
  const uint32_t black = word & 0x3ffu;
  const uint32_t white = (word >> 10) & 0x3ffu;
  if (c == Color::kBlack) {
    *own = black & ~white;
    *blocked = white;
  } else {
    *own = white & ~black;
    *blocked = black;
  }
}

// Bit of neighbour offset k (-5..-1, 1..5) within a 10-bit mask.
constexpr int OffsetBit(int k) { return k < 0 ? k + 5 : k + 4; }

// Classifies an 11-cell window (index 5 is the placed stone) directly; the
// tables are built from this, and tests use it as the reference.
// cells[i]: 0 empty, 1 own, 2 blocked.
LineShape ClassifyWindow(const uint8_t cells[11], bool exact_five);

}  // namespace renju::line_table

#endif  // RENJU_RULES_LINE_TABLE_H_
