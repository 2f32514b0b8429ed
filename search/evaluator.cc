#include "search/evaluator.h"

#include "base/logging.h"

namespace renju {

absl::Status Evaluator::EvaluateBatch(absl::Span<Game* const> games,
                                      absl::Span<Evaluation* const> outs) {
  RENJU_CHECK(games.size() == outs.size())
      << games.size() << " games, " << outs.size() << " outputs";
  for (size_t i = 0; i < games.size(); ++i) {
    if (absl::Status s = Evaluate(*games[i], *outs[i]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace renju
