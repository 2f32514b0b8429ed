// Black's forbidden points under renju (RULES.md §3-4).
//
// A black move on an empty point is forbidden when, without making a five, it
// makes an overline, two or more fours, or two or more live threes, each
// containing the placed stone. The board's incremental shapes decide
// overlines and fours at once; a double-three candidate needs the exact
// recursive live-three test: a three is live only if one of its
// straight-four points makes no five elsewhere and is itself not forbidden,
// judged with the three's stone on the board.
//
// These functions take a non-const Board because the exact test places probe
// stones; every probe is removed before they return, so the board (hash
// included) is unchanged afterwards. Not thread-safe on a shared board.
#ifndef RENJU_RULES_FORBIDDEN_H_
#define RENJU_RULES_FORBIDDEN_H_

#include <cstdint>
#include <vector>
#include "absl/strings/string_view.h"

#include "rules/board.h"

namespace renju {

// When a point is forbidden for several reasons, the kind is the first of
// overline, double-four, double-three (RULES.md §7).
enum class ForbiddenKind : uint8_t {
  kNone = 0,
  kOverline,
  kDoubleFour,
  kDoubleThree,
};
absl::string_view ForbiddenKindName(ForbiddenKind k);  // "double-three", ...

struct ForbiddenPoint {
  Point point;
  ForbiddenKind kind = ForbiddenKind::kNone;
  // Bit d set (1 << Direction) for each line that makes the kind: the
  // overline, the lines with fours, or the lines with live threes.
  uint8_t lines = 0;
};

// kNone unless the board is renju and black on empty point p is forbidden.
ForbiddenKind ForbiddenAt(Board& board, Point p);
inline bool IsForbidden(Board& board, Point p) {
  return ForbiddenAt(board, p) != ForbiddenKind::kNone;
}
// As ForbiddenAt, with the lines involved.
ForbiddenPoint ExplainForbidden(Board& board, Point p);
// Every forbidden point with its lines, in cell order (row by row from
// row 1).
std::vector<ForbiddenPoint> ForbiddenPoints(Board& board);

// RULES.md §3: with black's stone already on `stone`, is its three along `d`
// live? Exposed for tests of the recursion.
bool IsLiveThree(Board& board, Point stone, Direction d);

// RULES.md §3 before the stone is placed: would black on empty point p make
// a live three along d? The same answer as a three shape (ShapeAt) that
// passes IsLiveThree with a probe stone on p, but most points are decided
// from the board's shapes alone: a straight-four point whose other lines
// hold no five, overline or four and at most one three is playable.
bool MakesLiveThree(Board& board, Point p, Direction d);

}  // namespace renju

#endif  // RENJU_RULES_FORBIDDEN_H_
