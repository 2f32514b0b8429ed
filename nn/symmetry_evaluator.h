// Evaluates each position under one of the board's 8 symmetries and maps the
// policy back, as AlphaGo Zero does before every evaluation: the network's
// own asymmetries then become noise across a search instead of a bias.
//
// The transformed position is rebuilt by replaying the game's moves under the
// symmetry, so its last-move and forbidden planes match the original's; that
// costs 12-20 us a position on the development machine (nn_bench
// BM_SymmetryReplay), small beside a forward.
#ifndef RENJU_NN_SYMMETRY_EVALUATOR_H_
#define RENJU_NN_SYMMETRY_EVALUATOR_H_

#include <atomic>
#include <cstdint>

#include "rules/symmetry.h"
#include "search/evaluator.h"

namespace renju {

struct SymmetryOptions {
  // true: a symmetry drawn per evaluation from a stream seeded by `seed`
  // (the n-th call, counted across threads, uses a fixed function of seed
  // and n). false: always `fixed` (tests, checking a network's symmetry).
  bool random = true;
  uint64_t seed = 0;
  Symmetry fixed = kIdentity;
};

class SymmetryEvaluator : public Evaluator {
 public:
  // `inner` is not owned and must outlive this.
  SymmetryEvaluator(Evaluator& inner, const SymmetryOptions& options);

  // Thread-safe if `inner` is.
  absl::Status Evaluate(Game& game, Evaluation& out) override;
  // A symmetry for each game (drawn in order), one batch to `inner`.
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override;

 private:
  Symmetry Next();

  Evaluator& inner_;
  const SymmetryOptions options_;
  std::atomic<uint64_t> calls_{0};
};

}  // namespace renju

#endif  // RENJU_NN_SYMMETRY_EVALUATOR_H_
