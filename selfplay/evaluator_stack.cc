#include "selfplay/evaluator_stack.h"

#include <vector>

#include "selfplay/config.h"

namespace renju {

absl::StatusOr<std::unique_ptr<EvaluatorStack>> EvaluatorStack::Create(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator,
    const std::string& checkpoint, uint64_t seed) {
  if (evaluator.torch_threads() > 0) SetIntraOpThreads(evaluator.torch_threads());
  ModelOptions options;
  options.device = evaluator.device();
  absl::StatusOr<Precision> precision = PrecisionFromName(evaluator.precision());
  if (!precision.ok()) return precision.status();
  options.precision = *precision;
  const NetworkConfig network = ToNetworkConfig(config);
  absl::StatusOr<std::unique_ptr<Model>> first =
      checkpoint.empty() ? Model::Create(network, options, seed)
                         : Model::Load(checkpoint, options, network);
  if (!first.ok()) return first.status();

  std::unique_ptr<EvaluatorStack> stack(new EvaluatorStack());
  stack->generation_ = (*first)->info().generation;
  stack->network_ = network;

  std::vector<std::unique_ptr<Model>> models;
  for (int i = 1; i < evaluator.server_threads(); ++i) {
    absl::StatusOr<std::unique_ptr<Model>> copy = (*first)->Clone();
    if (!copy.ok()) return copy.status();
    models.push_back(std::move(*copy));
  }
  models.push_back(std::move(*first));
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> batched =
      BatchedEvaluator::Create(std::move(models), ToEvaluatorOptions(evaluator));
  if (!batched.ok()) return batched.status();
  stack->batched_ = std::move(*batched);
  stack->outer_ = stack->batched_.get();
  if (evaluator.cache_entries() > 0) {
    stack->cache_ = std::make_unique<CachingEvaluator>(
        *stack->outer_, static_cast<int>(evaluator.cache_entries()),
        network.board_size);
    stack->outer_ = stack->cache_.get();
  }
  if (evaluator.random_symmetry()) {
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
