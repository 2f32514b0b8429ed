#include "nn/evaluator_stack.h"

#include <vector>

namespace renju {

absl::StatusOr<std::unique_ptr<EvaluatorStack>> EvaluatorStack::Create(
    const EvaluatorStackOptions& options, const std::string& checkpoint,
    uint64_t seed) {
  if (options.torch_threads > 0) SetIntraOpThreads(options.torch_threads);
  const NetworkConfig& network = options.network;
  absl::StatusOr<std::unique_ptr<Model>> first =
      checkpoint.empty() ? Model::Create(network, options.model, seed)
                         : Model::Load(checkpoint, options.model, network);
  if (!first.ok()) return first.status();

  std::unique_ptr<EvaluatorStack> stack(new EvaluatorStack());
  stack->generation_ = (*first)->info().generation;
  stack->network_ = network;
  stack->runs_on_ = (*first)->device_name() + ", " + (*first)->precision_name();

  std::vector<std::unique_ptr<Model>> models;
  for (int i = 1; i < options.server_threads; ++i) {
    absl::StatusOr<std::unique_ptr<Model>> copy = (*first)->Clone();
    if (!copy.ok()) return copy.status();
    models.push_back(std::move(*copy));
  }
  models.push_back(std::move(*first));
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> batched =
      BatchedEvaluator::Create(std::move(models), options.batched);
  if (!batched.ok()) return batched.status();
  stack->batched_ = std::move(*batched);
  stack->outer_ = stack->batched_.get();
  if (options.cache_entries > 0) {
    stack->cache_ = std::make_unique<CachingEvaluator>(
        *stack->outer_, static_cast<int>(options.cache_entries),
        network.board_size);
    stack->outer_ = stack->cache_.get();
  }
  if (options.random_symmetry) {
    SymmetryOptions symmetry;
    symmetry.random = true;
    symmetry.seed = seed ^ 0x5eed5eedull;
    stack->symmetry_ =
        std::make_unique<SymmetryEvaluator>(*stack->outer_, symmetry);
    stack->outer_ = stack->symmetry_.get();
  }
  return stack;
}

EvaluatorStack::~EvaluatorStack() {
  // Wrappers first: they hold references to what is below them.
  symmetry_.reset();
  cache_.reset();
  if (batched_) batched_->Shutdown();
}

CacheStats EvaluatorStack::cache_stats() const {
  return cache_ ? cache_->stats() : CacheStats{};
}

}  // namespace renju
