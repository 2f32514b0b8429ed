#include "rules/forbidden.h"

#include "base/logging.h"

namespace renju {
namespace {

bool MakesFive(const Board& board, Point p) {
  return board.FivePoints(kBlack).Contains(p);
}

// True if black stones connect a and b along d (a and b included).
bool ConnectedByBlack(const Board& board, Point a, Point b, Direction d,
                      int distance) {
  const int sign = distance > 0 ? 1 : -1;
  for (int k = sign; k != distance; k += sign) {
    if (board.at(PointAlong(a, d, k)) != Cell::kBlack) return false;
  }
  return board.at(b) == Cell::kBlack;
}

// Per-direction verdicts for black on p, before the exact three test.
struct LineCounts {
  uint8_t overline_lines = 0;
  uint8_t four_lines = 0;
  uint8_t three_lines = 0;
  int fours = 0;
  bool five = false;
};

LineCounts CountLines(const Board& board, Point p) {
  LineCounts counts;
  for (int d = 0; d < kNumDirections; ++d) {
    const LineShape s = board.ShapeAt(p, kBlack, static_cast<Direction>(d));
    counts.five |= s == LineShape::kFive;
    if (s == LineShape::kOverline) counts.overline_lines |= 1 << d;
    if (FourCount(s) > 0) counts.four_lines |= 1 << d;
    if (s == LineShape::kThree) counts.three_lines |= 1 << d;
    counts.fours += FourCount(s);
  }
  return counts;
}

// The exact decision for a point the board flagged as a candidate.
ForbiddenPoint Decide(Board& board, Point p, bool want_all_lines) {
  ForbiddenPoint result{p, ForbiddenKind::kNone, 0};
  const LineCounts counts = CountLines(board, p);
  if (counts.five) return result;  // RULES.md §4: five first.
  if (counts.overline_lines) {
    result.kind = ForbiddenKind::kOverline;
    result.lines = counts.overline_lines;
    return result;
  }
  if (counts.fours >= 2) {
    result.kind = ForbiddenKind::kDoubleFour;
    result.lines = counts.four_lines;
    return result;
  }
  if (__builtin_popcount(counts.three_lines) < 2) return result;

  // Double-three candidate: count live threes through p (RULES.md §3-4).
  ScopedStone stone(board, p, kBlack);
  int live = 0;
  for (int d = 0; d < kNumDirections; ++d) {
    if (!(counts.three_lines & (1 << d))) continue;
    if (IsLiveThree(board, p, static_cast<Direction>(d))) {
      ++live;
      result.lines |= 1 << d;
      if (live >= 2 && !want_all_lines) break;
    }
  }
  if (live >= 2) {
    result.kind = ForbiddenKind::kDoubleThree;
  } else {
    result.lines = 0;
  }
  return result;
}

}  // namespace

absl::string_view ForbiddenKindName(ForbiddenKind k) {
  switch (k) {
    case ForbiddenKind::kNone:
      return "none";
    case ForbiddenKind::kOverline:
      return "overline";
    case ForbiddenKind::kDoubleFour:
      return "double-four";
    case ForbiddenKind::kDoubleThree:
      return "double-three";
  }
  return "?";
}

bool IsLiveThree(Board& board, Point stone, Direction d) {
  // A straight-four point of this three lies within three steps of the
  // stone: the four it completes holds both of them.
  for (int k = -3; k <= 3; ++k) {
    if (k == 0) continue;
    const Point q = PointAlong(stone, d, k);
    if (!board.OnBoard(q) || !board.IsEmpty(q)) continue;
    if (board.ShapeAt(q, kBlack, d) != LineShape::kStraightFour) continue;
    // The straight four q makes must contain the three's stone.
    if (!ConnectedByBlack(board, q, stone, d, -k)) continue;
    // Literal RIF reading: a point that also completes a five elsewhere
    // does not make this line a three (RULES.md §3).
    if (MakesFive(board, q)) continue;
    // The point must itself be playable: recursion, one stone deeper.
    if (ForbiddenAt(board, q) == ForbiddenKind::kNone) return true;
  }
  return false;
}

bool MakesLiveThree(Board& board, Point p, Direction d) {
  if (board.ShapeAt(p, kBlack, d) != LineShape::kThree) return false;
  bool needs_probe = false;
  for (int k = -3; k <= 3; ++k) {
    if (k == 0) continue;
    const Point q = PointAlong(p, d, k);
    if (!board.OnBoard(q) || !board.IsEmpty(q)) continue;
    // q's shape along d with black on p, as IsLiveThree would see it.
    if (board.ShapeWith(q, kBlack, d, -k) != LineShape::kStraightFour) {
      continue;
    }
    // The four must hold p: black stones all the way between.
    const int sign = k > 0 ? 1 : -1;
    bool connected = true;
    for (int j = sign; j != k; j += sign) {
      connected &= board.at(PointAlong(p, d, j)) == Cell::kBlack;
    }
    if (!connected) continue;
    // q's other lines do not pass through p, so black on p leaves their
    // shapes as they are. With the four along d, q is forbidden (RULES.md
    // §4) by an overline or a second four there, and by two live threes
    // there only after the recursive test.
    int fours = 0, threes = 0;
    bool five = false, overline = false;
    for (int e = 0; e < kNumDirections; ++e) {
      if (e == static_cast<int>(d)) continue;
      const LineShape s = board.ShapeAt(q, kBlack, static_cast<Direction>(e));
      five |= s == LineShape::kFive;
      overline |= s == LineShape::kOverline;
      fours += FourCount(s);
      threes += s == LineShape::kThree;
    }
    if (five || overline || fours > 0) continue;  // as IsLiveThree skips q
    if (threes < 2) return true;
    needs_probe = true;
  }
  if (!needs_probe) return false;
  ScopedStone stone(board, p, kBlack);
  return IsLiveThree(board, p, d);
}

ForbiddenKind ForbiddenAt(Board& board, Point p) {
  if (board.variant() != Variant::kRenju) return ForbiddenKind::kNone;
  RENJU_DCHECK(board.OnBoard(p) && board.IsEmpty(p)) << PointName(p);
  if (!board.ForbiddenCandidates().Contains(p)) return ForbiddenKind::kNone;
  return Decide(board, p, /*want_all_lines=*/false).kind;
}

ForbiddenPoint ExplainForbidden(Board& board, Point p) {
  if (board.variant() != Variant::kRenju ||
      !board.ForbiddenCandidates().Contains(p)) {
    return ForbiddenPoint{p, ForbiddenKind::kNone, 0};
  }
  return Decide(board, p, /*want_all_lines=*/true);
}

std::vector<ForbiddenPoint> ForbiddenPoints(Board& board) {
  std::vector<ForbiddenPoint> out;
  if (board.variant() != Variant::kRenju) return out;
  // Copy: the probes below change the board's candidate set while running.
  const PointSet candidates = board.ForbiddenCandidates();
  candidates.ForEach([&](Point p) {
    ForbiddenPoint f = Decide(board, p, /*want_all_lines=*/true);
    if (f.kind != ForbiddenKind::kNone) out.push_back(f);
  });
  return out;
}

}  // namespace renju
