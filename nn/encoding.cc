#include "nn/encoding.h"

#include <algorithm>

#include "rules/forbidden.h"

namespace renju {
namespace {

void FillPlane(float* plane, int area, float value) {
  std::fill(plane, plane + area, value);
}

void MarkPoints(const PointSet& points, int size, float* plane) {
  points.ForEach([&](Point p) { plane[p.y * size + p.x] = 1.0f; });
}

// Marks forbidden points on both the forbidden plane and (cleared) the legal
// plane. Only black to move under renju has any.
void MarkForbidden(Board& board, float* forbidden, float* legal) {
  const int size = board.size();
  // A copy: the probes inside ForbiddenAt change the board's candidate set.
  const PointSet candidates = board.ForbiddenCandidates();
  candidates.ForEach([&](Point p) {
    if (ForbiddenAt(board, p) == ForbiddenKind::kNone) return;
    forbidden[p.y * size + p.x] = 1.0f;
    legal[p.y * size + p.x] = 0.0f;
  });
}

}  // namespace

void EncodePosition(Game& game, float* planes) {
  const int size = game.size();
  const int area = size * size;
  const Color me = game.side_to_move();
  const Board& board = game.board();
  auto plane = [&](int index) { return planes + index * area; };

  FillPlane(planes, EncodedSize(size), 0.0f);
  MarkPoints(board.Stones(me), size, plane(kOwnStonesPlane));
  MarkPoints(board.Stones(Opponent(me)), size, plane(kOpponentStonesPlane));
  if (me == Color::kBlack) FillPlane(plane(kBlackToMovePlane), area, 1.0f);

  // Legal = not occupied; then forbidden points come off for black.
  float* legal = plane(kLegalPlane);
  FillPlane(legal, area, 1.0f);
  const float* own = plane(kOwnStonesPlane);
  const float* opponent = plane(kOpponentStonesPlane);
  for (int i = 0; i < area; ++i) legal[i] -= own[i] + opponent[i];
  if (me == Color::kBlack && game.variant() == Variant::kRenju) {
    MarkForbidden(game.mutable_board(), plane(kForbiddenPlane), legal);
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
}

}  // namespace renju
