// A network ready for many searching threads: the model (loaded from a
// checkpoint, or freshly initialised for generation 0), a batched evaluator
// with its server threads, and the cache and random-symmetry wrappers the
// config asks for. Self-play workers, the arena and the inference server
// all build theirs here, from an EvaluatorConfig.
#ifndef RENJU_SELFPLAY_EVALUATOR_STACK_H_
#define RENJU_SELFPLAY_EVALUATOR_STACK_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "inference/batched_evaluator.h"
#include "inference/caching_evaluator.h"
#include "inference/model.h"
#include "inference/symmetry_evaluator.h"
#include "proto/config.pb.h"

namespace renju {

class EvaluatorStack {
 public:
  // Loads `checkpoint`, or creates a fresh network of `config`'s shape
  // seeded by `seed` when `checkpoint` is empty. The checkpoint must have
  // the config's architecture.
  static absl::StatusOr<std::unique_ptr<EvaluatorStack>> Create(
      const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator,
      const std::string& checkpoint, uint64_t seed);
  ~EvaluatorStack();

  // Thread-safe; outermost wrapper.
  Evaluator& evaluator() { return *outer_; }
  int64_t generation() const { return generation_; }
  const NetworkConfig& network() const { return network_; }
  BatchedEvaluatorStats batch_stats() const { return batched_->stats(); }
  // Zero when the cache is off.
  CacheStats cache_stats() const;

 private:
  EvaluatorStack() = default;

  int64_t generation_ = 0;
  NetworkConfig network_;
  std::unique_ptr<BatchedEvaluator> batched_;
  std::unique_ptr<CachingEvaluator> cache_;
  std::unique_ptr<SymmetryEvaluator> symmetry_;
  Evaluator* outer_ = nullptr;
};

}  // namespace renju

#endif  // RENJU_SELFPLAY_EVALUATOR_STACK_H_
