#include "nn/encoding.h"

#include <algorithm>

#include "base/logging.h"
#include "rules/forbidden.h"

namespace renju {
namespace {

void FillPlane(float* plane, int area, float value) {
  std::fill(plane, plane + area, value);
}

void MarkPoints(const PointSet& points, int size, float* plane) {
  points.ForEach([&](Point p) { plane[p.y * size + p.x] = 1.0f; });
}

// Black's forbidden points (RULES.md §4); none outside renju.
PointSet ForbiddenSet(Board& board) {
  PointSet forbidden;
  if (board.variant() != Variant::kRenju) return forbidden;
  // A copy: the probes inside ForbiddenAt change the board's candidate set.
  const PointSet candidates = board.ForbiddenCandidates();
  candidates.ForEach([&](Point p) {
    if (IsForbidden(board, p)) forbidden.Insert(p);
  });
  return forbidden;
}

// Whether `c` on empty point p makes a live three on some line, p being
// neither a five point nor forbidden (encoding.h).
bool IsThreePoint(Board& board, Point p, Color c) {
  // Without forbidden points (white, the gomoku variants) every three shape
  // is live; black under renju needs the exact test.
  const bool exact_test =
      c == Color::kBlack && board.variant() == Variant::kRenju;
  for (int d = 0; d < kNumDirections; ++d) {
    const auto dir = static_cast<Direction>(d);
    if (board.ShapeAt(p, c, dir) != LineShape::kThree) continue;
    if (!exact_test || MakesLiveThree(board, p, dir)) return true;
  }
  return false;
}

// Version 2's five, four and three planes of colour `c`. `forbidden` holds
// black's forbidden points under renju.
void MarkThreats(Board& board, Color c, const PointSet& forbidden, float* five,
                 float* four, float* three) {
  const int size = board.size();
  const bool renju_black =
      c == Color::kBlack && board.variant() == Variant::kRenju;
  auto playable = [&](Point p) {
    return !renju_black || !forbidden.Contains(p);
  };
  const PointSet& five_points = board.FivePoints(c);
  MarkPoints(five_points, size, five);
  board.FourPoints(c).ForEach([&](Point p) {
    if (playable(p)) four[p.y * size + p.x] = 1.0f;
  });
  // The board's line shapes are precomputed, so reading four of them per
  // empty point is cheap; only a black three under renju whose four point
  // may be forbidden costs a probe stone (MakesLiveThree).
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Point p(x, y);
      if (!board.IsEmpty(p) || five_points.Contains(p) || !playable(p)) {
        continue;
      }
      if (IsThreePoint(board, p, c)) three[y * size + x] = 1.0f;
    }
  }
}

}  // namespace

void EncodePosition(Game& game, int encoding_version, float* planes) {
  RENJU_CHECK(IsKnownEncodingVersion(encoding_version))
      << "encoding version " << encoding_version;
  const int size = game.size();
  const int area = size * size;
  const Color me = game.side_to_move();
  const bool renju = game.variant() == Variant::kRenju;
  Board& board = game.mutable_board();
  auto plane = [&](int index) { return planes + index * area; };

  FillPlane(planes, EncodedSize(size, encoding_version), 0.0f);
  MarkPoints(board.Stones(me), size, plane(kOwnStonesPlane));
  MarkPoints(board.Stones(Opponent(me)), size, plane(kOpponentStonesPlane));
  if (me == Color::kBlack) FillPlane(plane(kBlackToMovePlane), area, 1.0f);

  // Version 2 needs black's forbidden points whoever is to move.
  PointSet forbidden;
  if (renju && (me == Color::kBlack || encoding_version >= 2)) {
    forbidden = ForbiddenSet(board);
  }

  // Legal = not occupied; then forbidden points come off for black.
  float* legal = plane(kLegalPlane);
  FillPlane(legal, area, 1.0f);
  const float* own = plane(kOwnStonesPlane);
  const float* opponent = plane(kOpponentStonesPlane);
  for (int i = 0; i < area; ++i) legal[i] -= own[i] + opponent[i];
  if (me == Color::kBlack && renju) {
    MarkPoints(forbidden, size, plane(kForbiddenPlane));
    forbidden.ForEach([&](Point p) { legal[p.y * size + p.x] = 0.0f; });
  }

  const std::vector<Move>& moves = game.moves();
  const int num_last = std::min<int>(kNumLastMoves, moves.size());
  for (int k = 0; k < num_last; ++k) {
    const Move m = moves[moves.size() - 1 - k];
    if (m.is_pass()) continue;
    plane(kLastMovesPlane + k)[m.point().y * size + m.point().x] = 1.0f;
  }

  FillPlane(plane(kOnBoardPlane), area, 1.0f);
  FillPlane(plane(kVariantPlane + static_cast<int>(game.variant())), area,
            1.0f);
  if (encoding_version == 1) return;

  MarkThreats(board, me, forbidden, plane(kOwnFivePlane), plane(kOwnFourPlane),
              plane(kOwnThreePlane));
  MarkThreats(board, Opponent(me), forbidden, plane(kOpponentFivePlane),
              plane(kOpponentFourPlane), plane(kOpponentThreePlane));
}

}  // namespace renju
