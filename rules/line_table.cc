#include "rules/line_table.h"

#include <array>
#include <vector>

namespace renju::line_table {
namespace {

constexpr int kCenter = 5;
constexpr int kWindow = 11;
constexpr uint8_t kEmpty = 0;
constexpr uint8_t kOwn = 1;

// Length of the run of own stones through `at` and where it starts. A run
// that reaches the window's edge is at least six long (it spans the centre
// and the edge), which already makes it an overline, so the window is wide
// enough to judge every five through the centre exactly.
int RunThrough(const uint8_t* cells, int at, int* start) {
  int lo = at;
  int hi = at;
  while (lo > 0 && cells[lo - 1] == kOwn) --lo;
  while (hi < kWindow - 1 && cells[hi + 1] == kOwn) ++hi;
  *start = lo;
  return hi - lo + 1;
}

bool IsFive(int run, bool exact_five) {
  return exact_five ? run == 5 : run >= 5;
}

// True if the centre (already own) is part of a straight four: four in a row
// whose two end points are empty and each completes a five (RULES.md §3).
bool CentreInStraightFour(const uint8_t* cells, bool exact_five) {
  int start = 0;
  if (RunThrough(cells, kCenter, &start) != 4) return false;
  const int left = start - 1;   // >= 1 because the run holds the centre
  const int right = start + 4;  // <= 9 likewise
  if (cells[left] != kEmpty || cells[right] != kEmpty) return false;
  if (!exact_five) return true;
  // Exactly five: the point beyond each end must not be own.
  return cells[left - 1] != kOwn && cells[right + 1] != kOwn;
}

}  // namespace

LineShape ClassifyWindow(const uint8_t in[11], bool exact_five) {
  uint8_t cells[kWindow];
  for (int i = 0; i < kWindow; ++i) cells[i] = in[i];
  cells[kCenter] = kOwn;

  int start = 0;
  const int run = RunThrough(cells, kCenter, &start);
  if (run >= 5) {
    return IsFive(run, exact_five) ? LineShape::kFive : LineShape::kOverline;
  }

  // Five points: empty points that complete a five containing the centre.
  int five_points[kWindow];
  int num_five_points = 0;
  for (int q = 0; q < kWindow; ++q) {
    if (cells[q] != kEmpty) continue;
    cells[q] = kOwn;
    if (IsFive(RunThrough(cells, kCenter, &start), exact_five)) {
      five_points[num_five_points++] = q;
    }
    cells[q] = kEmpty;
  }
  if (num_five_points == 1) return LineShape::kFour;
  if (num_five_points >= 2) {
    // Both ends of one four-in-a-row: a straight four, which is one four.
    // Otherwise two fours on one line (X.XXX.X), RULES.md §3.
    const bool straight = num_five_points == 2 &&
                          five_points[1] - five_points[0] == 5 &&
                          RunThrough(cells, five_points[0] + 1, &start) == 4;
    return straight ? LineShape::kStraightFour : LineShape::kDoubleFour;
  }

  // A three: one more stone makes a straight four through the centre.
  for (int q = 0; q < kWindow; ++q) {
    if (cells[q] != kEmpty) continue;
    cells[q] = kOwn;
    const bool straight_four = CentreInStraightFour(cells, exact_five);
    cells[q] = kEmpty;
    if (straight_four) return LineShape::kThree;
  }
  return LineShape::kNone;
}

namespace {

std::vector<LineShape> BuildTable(bool exact_five) {
  std::vector<LineShape> table(kNumKeys, LineShape::kNone);
  uint8_t cells[kWindow];
  for (int key = 0; key < kNumKeys; ++key) {
    // Digit i of `key` in base 3 is neighbour bit i: offsets -5..-1 are
    // window cells 0..4, offsets +1..+5 are cells 6..10.
    int rest = key;
    for (int bit = 0; bit < 10; ++bit) {
      const int cell = bit < 5 ? bit : bit + 1;
      cells[cell] = static_cast<uint8_t>(rest % 3);
      rest /= 3;
    }
    cells[kCenter] = kOwn;
    table[key] = ClassifyWindow(cells, exact_five);
  }
  return table;
}

}  // namespace

const LineShape* ShapeTable(bool exact_five) {
  static const std::vector<LineShape> exact = BuildTable(true);
  static const std::vector<LineShape> at_least = BuildTable(false);
  return exact_five ? exact.data() : at_least.data();
}

}  // namespace renju::line_table
