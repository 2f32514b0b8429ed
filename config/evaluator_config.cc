#include "config/evaluator_config.h"

#include "config/config.h"

namespace renju {

absl::StatusOr<EvaluatorStackOptions> ToEvaluatorStackOptions(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator) {
  EvaluatorStackOptions options;
  options.network = ToNetworkConfig(config);
  options.model.device = evaluator.device();
  absl::StatusOr<Precision> precision = PrecisionFromName(evaluator.precision());
  if (!precision.ok()) return precision.status();
  options.model.precision = *precision;
  options.batched = ToEvaluatorOptions(evaluator);
  options.server_threads = evaluator.server_threads();
  options.torch_threads = evaluator.torch_threads();
  options.cache_entries = evaluator.cache_entries();
  options.random_symmetry = evaluator.random_symmetry();
  return options;
}

absl::StatusOr<std::unique_ptr<EvaluatorStack>> CreateEvaluatorStack(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator,
    const std::string& checkpoint, uint64_t seed) {
  absl::StatusOr<EvaluatorStackOptions> options =
      ToEvaluatorStackOptions(config, evaluator);
  if (!options.ok()) return options.status();
  return EvaluatorStack::Create(*options, checkpoint, seed);
}

}  // namespace renju
