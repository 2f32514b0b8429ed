#include "selfplay/openings.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "rules/canonical_openings.h"
#include "rules/game.h"
#include "rules/symmetry.h"

namespace renju {
namespace {

constexpr int kBalancedTries = 20;

OpeningChoice Canonical(Random& rng) {
  const int index = rng.UniformInt(kNumCanonicalOpenings);
  const Symmetry s = static_cast<Symmetry>(rng.UniformInt(kNumSymmetries));
  return {ApplySymmetry(s, CanonicalOpeningMoves(index), kRenjuBoardSize),
          absl::StrCat("canonical:", CanonicalOpenings()[index].name)};
}

// Random legal moves within `radius` of the centre that leave the game
// going and give neither side a five threat yet.
OpeningChoice RandomBalanced(const pb::OpeningMix& mix, Variant variant,
                             int size, Random& rng) {
  for (;;) {
    Game game(variant, size);
    const int centre = size / 2;
    const int radius = std::min(mix.balanced_radius(), centre);
    bool ok = true;
    for (int i = 0; i < mix.balanced_moves() && ok; ++i) {
      ok = false;
      for (int attempt = 0; attempt < 50 && !ok; ++attempt) {
        const Point p(centre + rng.UniformInt(2 * radius + 1) - radius,
                      centre + rng.UniformInt(2 * radius + 1) - radius);
        if (game.IsLegal(p)) ok = game.Play(Move::At(p)).ok();
      }
    }
    if (!ok || game.over()) continue;
    const Board& board = game.board();
    if (!board.FivePoints(Color::kBlack).empty() ||
        !board.FivePoints(Color::kWhite).empty()) {
      continue;
    }
    return {game.moves(), "balanced"};
  }
}

absl::StatusOr<OpeningChoice> Balanced(const pb::OpeningMix& mix,
                                       Variant variant, int size, Random& rng,
                                       Evaluator* evaluator) {
  OpeningChoice choice;
  for (int attempt = 0; attempt < kBalancedTries; ++attempt) {
    choice = RandomBalanced(mix, variant, size, rng);
    if (mix.balanced_max_value() >= 1 || evaluator == nullptr) return choice;
    absl::StatusOr<Game> game = Game::FromMoves(variant, size, choice.moves);
    if (!game.ok()) return game.status();
    Evaluation eval;
    if (absl::Status s = evaluator->Evaluate(*game, eval); !s.ok()) return s;
    if (std::abs(eval.Score()) <= mix.balanced_max_value()) return choice;
  }
  return choice;  // the last try: better a less even opening than none
}

}  // namespace

absl::StatusOr<OpeningChoice> ChooseOpening(const pb::OpeningMix& mix,
                                            Variant variant, int size,
                                            Random& rng, Evaluator* evaluator) {
  const bool canonical_allowed =
      variant == Variant::kRenju && size == kRenjuBoardSize;
  const double empty = mix.empty();
  const double canonical = canonical_allowed ? mix.canonical() : 0.0;
  // Without the 26 openings, their share goes to balanced openings.
  const double balanced =
      mix.balanced() + (canonical_allowed ? 0.0 : mix.canonical());
  const double total = empty + canonical + balanced;
  const double draw = rng.Uniform() * total;
  if (draw < empty) return OpeningChoice{{}, "empty"};
  if (draw < empty + canonical) return Canonical(rng);
  return Balanced(mix, variant, size, rng, evaluator);
}

}  // namespace renju
