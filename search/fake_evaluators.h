// Evaluators without a network, for search tests and the search-overhead
// bench (STYLE.md §2): fixed priors and value (Minigo FakeDualNet) and
// seeded random ones (lc0 network_random). Both honour the interface's
// masking: zero prior on occupied points and on black's forbidden points.
// Thread-safe: Evaluate keeps no state but an atomic call counter.
#ifndef RENJU_SEARCH_FAKE_EVALUATORS_H_
#define RENJU_SEARCH_FAKE_EVALUATORS_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "search/evaluator.h"

namespace renju {

// The same value for every position, and either uniform priors over the
// legal points or given ones (masked, then renormalised; uniform when the
// mask leaves nothing).
class FixedEvaluator : public Evaluator {
 public:
  // Uniform priors. win + draw + loss must be 1.
  explicit FixedEvaluator(float win = 0.4f, float draw = 0.2f,
                          float loss = 0.4f);
  // `priors` indexed y * size + x for the board size the games will have.
  FixedEvaluator(std::vector<float> priors, float win, float draw, float loss);

  absl::Status Evaluate(Game& game, Evaluation& out) override;
  int64_t num_evaluations() const { return num_evaluations_.load(); }

 private:
  std::vector<float> priors_;  // empty: uniform
  float win_, draw_, loss_;
  std::atomic<int64_t> num_evaluations_{0};
};

// Priors and value drawn from a hash of (seed, position): the same position
// always gets the same answer, whatever the call order or thread, so search
// results stay reproducible across threads and batching.
class RandomEvaluator : public Evaluator {
 public:
  explicit RandomEvaluator(uint64_t seed);

  absl::Status Evaluate(Game& game, Evaluation& out) override;
  int64_t num_evaluations() const { return num_evaluations_.load(); }

 private:
  uint64_t seed_;
  std::atomic<int64_t> num_evaluations_{0};
};

}  // namespace renju

#endif  // RENJU_SEARCH_FAKE_EVALUATORS_H_
