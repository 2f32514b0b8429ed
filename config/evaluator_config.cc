#include "config/evaluator_config.h"

#include "config/config.h"
#include "nn/checkpoint.h"

namespace renju {

absl::StatusOr<EvaluatorStackOptions> ToEvaluatorStackOptions(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator) {
  EvaluatorStackOptions options;
  options.network = ToNetworkConfig(config);
  options.model.device = evaluator.device();
  absl::StatusOr<Precision> precision =
      PrecisionFromName(evaluator.precision());
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
    const std::string& checkpoint, uint64_t seed,
    const EvaluatorMetrics& metrics) {
  absl::StatusOr<EvaluatorStackOptions> options =
      ToEvaluatorStackOptions(config, evaluator);
  if (!options.ok()) return options.status();
  options->batched.metrics = metrics;
  return EvaluatorStack::Create(*options, checkpoint, seed);
}

absl::Status AdoptCheckpointNetwork(const std::string& checkpoint,
                                    pb::RunConfig* config) {
  absl::StatusOr<Checkpoint> read = ReadCheckpoint(checkpoint);
  if (!read.ok()) return read.status();
  const NetworkConfig& n = read->info.config;
  config->set_board_size(n.board_size);
  pb::NetworkShape* shape = config->mutable_network();
  shape->set_blocks(n.blocks);
  shape->set_channels(n.channels);
  shape->set_global_pool_every(n.global_pool_every);
  shape->set_global_pool_channels(n.global_pool_channels);
  shape->set_policy_channels(n.policy_channels);
  shape->set_value_channels(n.value_channels);
  shape->set_value_hidden(n.value_hidden);
  shape->set_aux_heads(n.aux_heads);
  shape->set_encoding_version(n.encoding_version);
  return absl::OkStatus();
}

}  // namespace renju
