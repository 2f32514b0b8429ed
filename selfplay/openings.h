// Where self-play games begin, mixed by config for diversity: the empty
// board; one of the 26 canonical openings under a random symmetry (renju on
// 15 x 15); a balanced random opening, a few random legal moves near the
// centre, optionally kept only when the network judges it close to even;
// or an opening rule (RULES.md §6), whose opening phase the game then plays
// from the empty board (selfplay_game.h).
#ifndef RENJU_SELFPLAY_OPENINGS_H_
#define RENJU_SELFPLAY_OPENINGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/random.h"
#include "proto/config.pb.h"
#include "rules/opening.h"
#include "rules/types.h"
#include "search/evaluator.h"

namespace renju {

struct OpeningChoice {
  std::vector<Move> moves;  // empty under an opening rule
  // "empty", "canonical:Kagetsu", "balanced", or the rule's name ("rif").
  std::string name;
  // Set when the game plays this rule's opening phase.
  std::optional<OpeningRule> rule;
};

// `evaluator` is used only for the balanced-value filter and may be null
// when mix.balanced_max_value() >= 1. Errors come from the evaluator, or
// name a rule of the mix that does not parse (a config ValidateRunConfig
// accepted has none). Without mix.rules() the draws from `rng` are those of
// the mix before opening rules.
absl::StatusOr<OpeningChoice> ChooseOpening(const pb::OpeningMix& mix,
                                            Variant variant, int size,
                                            Random& rng, Evaluator* evaluator);

}  // namespace renju

#endif  // RENJU_SELFPLAY_OPENINGS_H_
