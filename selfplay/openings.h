// Where self-play games begin, mixed by config for diversity: the empty
// board; one of the 26 canonical openings under a random symmetry (renju on
// 15 x 15); or a balanced random opening, a few random legal moves near the
// centre, optionally kept only when the network judges it close to even.
#ifndef RENJU_SELFPLAY_OPENINGS_H_
#define RENJU_SELFPLAY_OPENINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/random.h"
#include "proto/config.pb.h"
#include "rules/types.h"
#include "search/evaluator.h"

namespace renju {

struct OpeningChoice {
  std::vector<Move> moves;
  std::string name;  // "empty", "canonical:Kagetsu", "balanced"
};

// `evaluator` is used only for the balanced-value filter and may be null
// when mix.balanced_max_value() >= 1. Errors come from the evaluator.
absl::StatusOr<OpeningChoice> ChooseOpening(const pb::OpeningMix& mix,
                                            Variant variant, int size,
                                            Random& rng, Evaluator* evaluator);

}  // namespace renju

#endif  // RENJU_SELFPLAY_OPENINGS_H_
