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
          absl::StrCat("canonical:", CanonicalOpenings()[index].name),
          std::nullopt};
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
    return {game.moves(), "balanced", std::nullopt};
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

// The rule of mix.rules() that `draw` (in 0..the sum of their weights)
// falls on.
absl::StatusOr<OpeningChoice> RuleOpening(const pb::OpeningMix& mix,
                                          double draw) {
  // Rounding may leave `draw` at the end: the last rule that has weight.
  int index = mix.rules_size() - 1;
  while (index > 0 && mix.rules(index).weight() <= 0) --index;
  for (int i = 0; i < mix.rules_size(); ++i) {
    if (draw < mix.rules(i).weight()) {
      index = i;
      break;
    }
    draw -= mix.rules(i).weight();
  }
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(mix.rules(index).rule());
  if (!rule.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "selfplay.openings.rules[", index, "]: ", rule.status().message()));
  }
  return OpeningChoice{{}, OpeningRuleName(*rule), *rule};
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
  double rules = 0;
  for (const pb::OpeningRuleWeight& r : mix.rules()) rules += r.weight();
  const double total = empty + canonical + balanced + rules;
  const double draw = rng.Uniform() * total;
  if (draw < empty) return OpeningChoice{{}, "empty", std::nullopt};
  if (draw < empty + canonical) return Canonical(rng);
  if (draw < empty + canonical + balanced || rules <= 0) {
    return Balanced(mix, variant, size, rng, evaluator);
  }
  return RuleOpening(mix, draw - (empty + canonical + balanced));
}

}  // namespace renju
