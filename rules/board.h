// The fast board: stones, Zobrist hash and, kept up to date on every stone
// placed or removed, the shape each colour would make on each line through
// every point. Search, forbidden-point detection and move generation read
// these shapes instead of rescanning the board.
//
// The board knows nothing of turns, history or results; Game (game.h) adds
// those. Place/Remove are the "probe" operations the forbidden-point recursion
// and search use; ScopedStone undoes one automatically.
//
// Layout: cells live in a padded kStride x kStride grid with kPad wall cells
// around the largest board, so every point within five steps of an on-board
// point along any line has an index:
//   index(x, y) = (y + kPad) * kStride + (x + kPad)
// Points outside size x size (the padding, and the unused part of the grid on
// boards smaller than kMaxBoardSize) are walls.
//
// For every cell and direction a 20-bit line word records the ten neighbours
// at offsets -5..-1, +1..+5: bits 0..9 hold "black or wall", bits 10..19
// "white or wall". A precomputed table maps a word to the LineShape the cell
// would make for a colour (line_table.h).
#ifndef RENJU_RULES_BOARD_H_
#define RENJU_RULES_BOARD_H_

#include <array>
#include <cstdint>

#include "rules/point_set.h"
#include "rules/types.h"

namespace renju {

enum class Cell : uint8_t { kEmpty = 0, kBlack = 1, kWhite = 2, kWall = 3 };

constexpr Cell StoneOf(Color c) {
  return c == Color::kBlack ? Cell::kBlack : Cell::kWhite;
}

// The four lines through a point (RULES.md §1).
enum class Direction : uint8_t {
  kHorizontal = 0,    // along a row: x + 1
  kVertical = 1,      // along a column: y + 1
  kDiagonal = 2,      // x + 1, y + 1
  kAntiDiagonal = 3,  // x + 1, y - 1
};
inline constexpr int kNumDirections = 4;
absl::string_view DirectionName(Direction d);
// The point k steps from p along d (k may be negative); it may be off the
// board.
Point PointAlong(Point p, Direction d, int k);

// What placing a stone of one colour on an empty point makes on one line,
// judged for that colour's winning rule (exact five, or five or more). The
// definitions follow RULES.md §3; each value contains the placed stone.
enum class LineShape : uint8_t {
  kNone = 0,
  kThree,         // some further stone on this line makes a straight four
                  // through this one (a "three" before the live-three test)
  kFour,          // exactly one point then completes a five
  kStraightFour,  // two five points, at both ends of four in a row
  kDoubleFour,    // two fours on this one line, e.g. X.XXX.X
  kFive,          // a five (five or more where the colour's rule allows)
  kOverline,      // six or more where the rule wants exactly five
};
static_assert(static_cast<int>(LineShape::kOverline) < 8,
              "shapes pack in 3 bits");
absl::string_view LineShapeName(LineShape s);

// Number of fours a shape counts for in the double-four rule (RULES.md §4).
constexpr int FourCount(LineShape s) {
  return s == LineShape::kDoubleFour                                ? 2
         : (s == LineShape::kFour || s == LineShape::kStraightFour) ? 1
                                                                    : 0;
}

class Board {
 public:
  static constexpr int kPad = 5;
  static constexpr int kStride = kMaxBoardSize + 2 * kPad;
  static constexpr int kNumCells = kStride * kStride;

  // `size` must be valid for `variant` (ValidateBoardSize).
  explicit Board(Variant variant = Variant::kRenju, int size = kRenjuBoardSize);

  Variant variant() const { return variant_; }
  int size() const { return size_; }
  int num_stones() const { return num_stones_; }
  bool full() const { return num_stones_ == size_ * size_; }
  // Zobrist hash of the stones (side to move is Game's business).
  uint64_t hash() const { return hash_; }

  bool OnBoard(Point p) const { return p.OnBoard(size_); }
  Cell at(Point p) const { return cells_[CellIndex(p)]; }
  bool IsEmpty(Point p) const { return at(p) == Cell::kEmpty; }

  // --- Placing and removing stones -------------------------------------
  // Place: p must be on the board and empty. Remove: p must hold a stone.
  // Each updates the 40 line words and shapes within five steps of p.
  void Place(Point p, Color c);
  void Remove(Point p);

  // --- Shapes (as if `c` were placed on empty point p) ------------------
  LineShape ShapeAt(Point p, Color c, Direction d) const {
    return shapes_[Index(c)][CellIndex(p)][static_cast<int>(d)];
  }
  // As ShapeAt, as if the point k steps from p along d (k in -5..5, not 0;
  // an empty point) also held a stone of `c`: one table lookup where a
  // probe stone would update 40 line words (forbidden.h uses it).
  LineShape ShapeWith(Point p, Color c, Direction d, int k) const;
  // Empty points where `c` would complete a five by its rule.
  const PointSet& FivePoints(Color c) const { return five_points_[Index(c)]; }
  // Empty points where `c` would make at least one four and no five. For
  // black under renju these include forbidden points; filter with
  // IsForbidden (forbidden.h).
  const PointSet& FourPoints(Color c) const { return four_points_[Index(c)]; }
  // Renju only: empty points that may be forbidden for black. A superset of
  // the forbidden points; forbidden.h decides each exactly.
  const PointSet& ForbiddenCandidates() const { return forbidden_candidates_; }

  // Stones of one colour.
  const PointSet& Stones(Color c) const { return stones_[Index(c)]; }

  // Recomputes everything from the stones and compares (tests, debug checks).
  bool IsConsistent() const;

  static constexpr int CellIndex(Point p) {
    return (p.y + kPad) * kStride + (p.x + kPad);
  }
  static constexpr Point PointOf(int cell) {
    return Point(cell % kStride - kPad, cell / kStride - kPad);
  }
  static constexpr int Step(Direction d) { return kSteps[static_cast<int>(d)]; }

 private:
  static constexpr std::array<int, kNumDirections> kSteps = {
      1, kStride, kStride + 1, 1 - kStride};

  void RebuildFromCells();
  void SetStoneBits(int cell, Cell stone, bool on);
  bool RefreshShapes(int cell, int dir);  // true if a shape changed
  void RefreshSummary(int cell);

  Variant variant_;
  int size_;
  int num_stones_ = 0;
  uint64_t hash_ = 0;
  // Shape tables for black and white under this variant (line_table.h).
  const LineShape* table_[kNumColors];

  std::array<Cell, kNumCells> cells_{};
  std::array<std::array<uint32_t, kNumDirections>, kNumCells> lines_{};
  std::array<std::array<LineShape, kNumDirections>, kNumCells>
      shapes_[kNumColors]{};

  PointSet stones_[kNumColors];
  PointSet five_points_[kNumColors];
  PointSet four_points_[kNumColors];
  PointSet forbidden_candidates_;
};

// Places a stone for the lifetime of the object (probe moves).
class ScopedStone {
 public:
  ScopedStone(Board& board, Point p, Color c) : board_(board), p_(p) {
    board_.Place(p, c);
  }
  ~ScopedStone() { board_.Remove(p_); }
  ScopedStone(const ScopedStone&) = delete;
  ScopedStone& operator=(const ScopedStone&) = delete;

 private:
  Board& board_;
  Point p_;
};

uint64_t ZobristKey(Point p, Color c);

}  // namespace renju

#endif  // RENJU_RULES_BOARD_H_
