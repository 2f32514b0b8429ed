#include "rules/board.h"

#include "base/logging.h"
#include "rules/line_table.h"

namespace renju {
namespace {

static_assert(PointSet::kNumWords * 64 >= Board::kNumCells,
              "PointSet must cover every cell");
static_assert(PointSet::kStride == Board::kStride &&
                  PointSet::kPad == Board::kPad,
              "PointSet and Board must share the cell layout");

constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct ZobristTable {
  uint64_t keys[kNumColors][Board::kNumCells];
  constexpr ZobristTable() : keys() {
    for (int c = 0; c < kNumColors; ++c) {
      for (int i = 0; i < Board::kNumCells; ++i) {
        keys[c][i] = SplitMix64(0x52454e4a55ull * (c + 1) + i);
      }
    }
  }
};
constexpr ZobristTable kZobrist;

// A cell's point-set membership for one colour, from its four shapes.
enum : uint8_t { kFiveFlag = 1, kFourFlag = 2, kCandidateFlag = 4 };

constexpr uint8_t ComputeSummaryFlags(int packed, bool renju_black) {
  bool five = false;
  bool overline = false;
  int fours = 0;
  int threes = 0;
  for (int d = 0; d < kNumDirections; ++d) {
    const auto s = static_cast<LineShape>((packed >> (3 * d)) & 7);
    five |= s == LineShape::kFive;
    overline |= s == LineShape::kOverline;
    fours += FourCount(s);
    threes += s == LineShape::kThree;
  }
  uint8_t flags = 0;
  if (five) flags |= kFiveFlag;
  if (!five && fours > 0) flags |= kFourFlag;
  // RULES.md §4: five first; otherwise an overline, two fours or two threes
  // may make the point forbidden (threes need the exact test).
  if (renju_black && !five && (overline || fours >= 2 || threes >= 2)) {
    flags |= kCandidateFlag;
  }
  return flags;
}

// Indexed by [renju black?][four 3-bit shapes].
struct SummaryTable {
  uint8_t flags[2][1 << (3 * kNumDirections)];
  constexpr SummaryTable() : flags() {
    for (int renju_black = 0; renju_black < 2; ++renju_black) {
      for (int packed = 0; packed < (1 << (3 * kNumDirections)); ++packed) {
        flags[renju_black][packed] =
            ComputeSummaryFlags(packed, renju_black != 0);
      }
    }
  }
};
constexpr SummaryTable kSummaryTable;

uint8_t SummaryFlags(const std::array<LineShape, kNumDirections>& s,
                     bool renju_black) {
  const int packed = static_cast<int>(s[0]) | static_cast<int>(s[1]) << 3 |
                     static_cast<int>(s[2]) << 6 | static_cast<int>(s[3]) << 9;
  return kSummaryTable.flags[renju_black][packed];
}

// Line-word bits of a stone seen from a neighbour at offset k.
constexpr uint32_t StoneBits(Cell stone, int k) {
  const uint32_t bit = 1u << line_table::OffsetBit(k);
  switch (stone) {
    case Cell::kBlack:
      return bit;
    case Cell::kWhite:
      return bit << 10;
    case Cell::kWall:
      return bit | (bit << 10);
    case Cell::kEmpty:
      return 0;
  }
  return 0;
}

}  // namespace

Point PointAlong(Point p, Direction d, int k) {
  switch (d) {
    case Direction::kHorizontal:
      return Point(p.x + k, p.y);
    case Direction::kVertical:
      return Point(p.x, p.y + k);
    case Direction::kDiagonal:
      return Point(p.x + k, p.y + k);
    case Direction::kAntiDiagonal:
      return Point(p.x + k, p.y - k);
  }
  return p;
}

absl::string_view DirectionName(Direction d) {
  switch (d) {
    case Direction::kHorizontal:
      return "horizontal";
    case Direction::kVertical:
      return "vertical";
    case Direction::kDiagonal:
      return "diagonal";
    case Direction::kAntiDiagonal:
      return "anti-diagonal";
  }
  return "?";
}

absl::string_view LineShapeName(LineShape s) {
  switch (s) {
    case LineShape::kNone:
      return "none";
    case LineShape::kThree:
      return "three";
    case LineShape::kFour:
      return "four";
    case LineShape::kStraightFour:
      return "straight-four";
    case LineShape::kDoubleFour:
      return "double-four";
    case LineShape::kFive:
      return "five";
    case LineShape::kOverline:
      return "overline";
  }
  return "?";
}

LineShape Board::ShapeWith(Point p, Color c, Direction d, int k) const {
  RENJU_DCHECK(k != 0 && k >= -5 && k <= 5) << k;
  const int cell = CellIndex(p);
  RENJU_DCHECK(cells_[cell + k * Step(d)] == Cell::kEmpty)
      << PointName(p) << " " << k;
  const uint32_t word =
      lines_[cell][static_cast<int>(d)] | StoneBits(StoneOf(c), k);
  uint32_t own, blocked;
  line_table::Split(word, c, &own, &blocked);
  return table_[Index(c)][line_table::KeyOf(own, blocked)];
}

uint64_t ZobristKey(Point p, Color c) {
  return kZobrist.keys[Index(c)][Board::CellIndex(p)];
}

Board::Board(Variant variant, int size) : variant_(variant), size_(size) {
  RENJU_CHECK(ValidateBoardSize(variant, size).ok())
      << "board size " << size << " for " << VariantName(variant);
  // RULES.md §2: black needs exactly five in renju and standard; white in
  // standard only.
  table_[Index(Color::kBlack)] =
      line_table::ShapeTable(variant != Variant::kFreestyle);
  table_[Index(Color::kWhite)] =
      line_table::ShapeTable(variant == Variant::kStandard);

  for (int cell = 0; cell < kNumCells; ++cell) {
    cells_[cell] = PointOf(cell).OnBoard(size_) ? Cell::kEmpty : Cell::kWall;
  }
  RebuildFromCells();
}

// Derives line words, shapes and point sets from cells_ alone, without the
// incremental path, so IsConsistent can compare the two.
void Board::RebuildFromCells() {
  num_stones_ = 0;
  hash_ = 0;
  for (int c = 0; c < kNumColors; ++c) stones_[c].clear();
  for (int cell = 0; cell < kNumCells; ++cell) {
    lines_[cell].fill(0);
    const Cell stone = cells_[cell];
    if (stone == Cell::kBlack || stone == Cell::kWhite) {
      const int c = stone == Cell::kBlack ? 0 : 1;
      stones_[c].InsertCell(cell);
      hash_ ^= kZobrist.keys[c][cell];
      ++num_stones_;
    }
  }
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (cells_[cell] == Cell::kWall) continue;
    for (int d = 0; d < kNumDirections; ++d) {
      for (int k = -5; k <= 5; ++k) {
        if (k == 0) continue;
        lines_[cell][d] |= StoneBits(cells_[cell + k * kSteps[d]], k);
      }
      RefreshShapes(cell, d);
    }
  }
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (cells_[cell] != Cell::kWall) RefreshSummary(cell);
  }
}

bool Board::RefreshShapes(int cell, int dir) {
  const uint32_t word = lines_[cell][dir];
  bool changed = false;
  for (int c = 0; c < kNumColors; ++c) {
    uint32_t own, blocked;
    line_table::Split(word, static_cast<Color>(c), &own, &blocked);
    const LineShape shape = table_[c][line_table::KeyOf(own, blocked)];
    changed |= shapes_[c][cell][dir] != shape;
    shapes_[c][cell][dir] = shape;
  }
  return changed;
}

// Recomputes the point sets for one cell from its four shapes per colour.
void Board::RefreshSummary(int cell) {
  const bool empty = cells_[cell] == Cell::kEmpty;
  for (int c = 0; c < kNumColors; ++c) {
    const bool renju_black =
        c == Index(Color::kBlack) && variant_ == Variant::kRenju;
    const uint8_t flags = SummaryFlags(shapes_[c][cell], renju_black);
    five_points_[c].AssignCell(cell, empty && (flags & kFiveFlag));
    four_points_[c].AssignCell(cell, empty && (flags & kFourFlag));
    if (renju_black) {
      forbidden_candidates_.AssignCell(cell, empty && (flags & kCandidateFlag));
    }
  }
}

void Board::SetStoneBits(int cell, Cell stone, bool on) {
  for (int d = 0; d < kNumDirections; ++d) {
    const int step = kSteps[d];
    for (int k = 1; k <= 5; ++k) {
      // The stone sits at offset -k from cell + k*step and +k from
      // cell - k*step. Each neighbour lies on one line through the stone, so
      // its summary is refreshed at most once, and only if a shape changed.
      for (int sign = -1; sign <= 1; sign += 2) {
        const int n = cell + sign * k * step;
        if (cells_[n] == Cell::kWall) continue;
        const uint32_t bits = StoneBits(stone, -sign * k);
        if (on) {
          lines_[n][d] |= bits;
        } else {
          lines_[n][d] &= ~bits;
        }
        if (RefreshShapes(n, d)) RefreshSummary(n);
      }
    }
  }
  RefreshSummary(cell);
}

void Board::Place(Point p, Color c) {
  RENJU_DCHECK(OnBoard(p) && IsEmpty(p)) << PointName(p);
  const int cell = CellIndex(p);
  cells_[cell] = StoneOf(c);
  stones_[Index(c)].InsertCell(cell);
  hash_ ^= kZobrist.keys[Index(c)][cell];
  ++num_stones_;
  SetStoneBits(cell, StoneOf(c), true);
}

void Board::Remove(Point p) {
  RENJU_DCHECK(OnBoard(p) && !IsEmpty(p)) << PointName(p);
  const int cell = CellIndex(p);
  const Cell stone = cells_[cell];
  const Color c = stone == Cell::kBlack ? Color::kBlack : Color::kWhite;
  cells_[cell] = Cell::kEmpty;
  stones_[Index(c)].EraseCell(cell);
  hash_ ^= kZobrist.keys[Index(c)][cell];
  --num_stones_;
  SetStoneBits(cell, stone, false);
}

bool Board::IsConsistent() const {
  Board fresh(variant_, size_);
  fresh.cells_ = cells_;
  fresh.RebuildFromCells();
  if (fresh.hash_ != hash_ || fresh.num_stones_ != num_stones_ ||
      fresh.cells_ != cells_ || fresh.lines_ != lines_) {
    return false;
  }
  for (int c = 0; c < kNumColors; ++c) {
    if (fresh.shapes_[c] != shapes_[c] ||
        fresh.five_points_[c] != five_points_[c] ||
        fresh.four_points_[c] != four_points_[c] ||
        fresh.stones_[c] != stones_[c]) {
      return false;
    }
  }
  return fresh.forbidden_candidates_ == forbidden_candidates_;
}

}  // namespace renju
