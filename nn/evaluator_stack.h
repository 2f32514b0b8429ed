// A network ready for many searching threads: the model (loaded from a
// checkpoint, or freshly initialised for generation 0), a batched evaluator
// with its server threads, and the cache and random-symmetry wrappers the
// options ask for. Self-play workers, the arena and the inference server
// all build theirs here; config/evaluator_config.h makes the options from
// an EvaluatorConfig.
#ifndef RENJU_NN_EVALUATOR_STACK_H_
#define RENJU_NN_EVALUATOR_STACK_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "nn/batched_evaluator.h"
#include "nn/caching_evaluator.h"
#include "nn/model.h"
#include "nn/network_config.h"
#include "nn/symmetry_evaluator.h"

namespace renju {

// Everything an EvaluatorStack is built from, in plain values.
struct EvaluatorStackOptions {
  NetworkConfig network;
  ModelOptions model;
  BatchedEvaluatorOptions batched;
  int server_threads = 1;     // models (each a batch-serving thread)
  int torch_threads = 0;      // LibTorch intra-op threads; 0: its default
  int64_t cache_entries = 0;  // 0: no cache
  bool random_symmetry = false;
};

class EvaluatorStack {
 public:
  // Loads `checkpoint`, or creates a fresh network of `options.network`'s
  // shape seeded by `seed` when `checkpoint` is empty. The checkpoint must
  // have that architecture.
  static absl::StatusOr<std::unique_ptr<EvaluatorStack>> Create(
      const EvaluatorStackOptions& options, const std::string& checkpoint,
      uint64_t seed);
  ~EvaluatorStack();

  // Thread-safe; outermost wrapper.
  Evaluator& evaluator() { return *outer_; }
  int64_t generation() const { return generation_; }
  const NetworkConfig& network() const { return network_; }
  // Where and how the network runs, for logs: "cpu, bf16".
  const std::string& runs_on() const { return runs_on_; }
  BatchedEvaluatorStats batch_stats() const { return batched_->stats(); }
  // Zero when the cache is off.
  CacheStats cache_stats() const;

 private:
  EvaluatorStack() = default;

  int64_t generation_ = 0;
  NetworkConfig network_;
  std::string runs_on_;
  std::unique_ptr<BatchedEvaluator> batched_;
  std::unique_ptr<CachingEvaluator> cache_;
  std::unique_ptr<SymmetryEvaluator> symmetry_;
  Evaluator* outer_ = nullptr;
};

}  // namespace renju

#endif  // RENJU_NN_EVALUATOR_STACK_H_
