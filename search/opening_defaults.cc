// The opening actions that need no search: the default player's and the
// fifth-move offers' symmetry filter. Apart from opening_player.cc so that
// builds without the search (the Gomocup fuzzer) can link them.
#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

#include "search/opening_player.h"

namespace renju {
namespace {

using Kind = OpeningActionKind;

}  // namespace

int CentreDistance(Point p, int size) {
  const int centre = size / 2;
  return std::max(std::abs(p.x - centre), std::abs(p.y - centre));
}

std::vector<Point> NonSymmetricPoints(const Game& game,
                                      const std::vector<Point>& ranked, int n) {
  const std::vector<Point> black =
      game.board().Stones(Color::kBlack).ToVector();
  const std::vector<Point> white =
      game.board().Stones(Color::kWhite).ToVector();
  std::vector<Point> taken;
  for (Point p : ranked) {
    if (static_cast<int>(taken.size()) >= n) break;
    const bool symmetric = std::any_of(
        taken.begin(), taken.end(),
        [&](Point q) { return SymmetricFifthCandidates(black, white, p, q); });
    if (!symmetric) taken.push_back(p);
  }
  return taken;
}

OpeningAction DefaultOpeningAction(const OpeningState& state, Random& rng) {
  if (state.Allows(Kind::kChooseFifth)) {
    return OpeningAction::ChooseFifth(state.offered().front());
  }
  if (state.Allows(Kind::kDeclareCount)) return OpeningAction::DeclareCount(2);
  if (state.Allows(Kind::kKeepColours)) return OpeningAction::KeepColours();
  // Placing or offering: the free points near the centre, shuffled.
  std::vector<Point> points = state.PlacementPoints();
  const int size = state.game().size();
  std::vector<Point> near;
  for (Point p : points) {
    if (CentreDistance(p, size) <= 3) near.push_back(p);
  }
  if (!near.empty() && static_cast<int>(near.size()) >=
                           std::max(1, state.RequiredOfferCount())) {
    points = std::move(near);
  }
  for (int i = static_cast<int>(points.size()) - 1; i > 0; --i) {
    std::swap(points[i], points[rng.UniformInt(i + 1)]);
  }
  if (state.Allows(Kind::kOfferFifth)) {
    // A near-centre pool may hold too few non-symmetric points; then all.
    std::vector<Point> offer =
        NonSymmetricPoints(state.game(), points, state.RequiredOfferCount());
    if (static_cast<int>(offer.size()) < state.RequiredOfferCount()) {
      offer = NonSymmetricPoints(state.game(), state.PlacementPoints(),
                                 state.RequiredOfferCount());
    }
    return OpeningAction::OfferFifth(std::move(offer));
  }
  return OpeningAction::Place(points.front());
}

}  // namespace renju
