// The evaluator stack from the config schema: converts an EvaluatorConfig
// (and the run's network shape) into nn/'s plain EvaluatorStackOptions, and
// builds the stack from them.
#ifndef RENJU_CONFIG_EVALUATOR_CONFIG_H_
#define RENJU_CONFIG_EVALUATOR_CONFIG_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "nn/evaluator_stack.h"
#include "proto/config.pb.h"

namespace renju {

// `config` must be valid; errors only for an unknown precision name.
absl::StatusOr<EvaluatorStackOptions> ToEvaluatorStackOptions(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator);

// EvaluatorStack::Create with the options above: loads `checkpoint`, or
// creates a fresh network seeded by `seed` when `checkpoint` is empty. Its
// batches fill `metrics`' histograms when set.
absl::StatusOr<std::unique_ptr<EvaluatorStack>> CreateEvaluatorStack(
    const pb::RunConfig& config, const pb::EvaluatorConfig& evaluator,
    const std::string& checkpoint, uint64_t seed,
    const EvaluatorMetrics& metrics = {});

// Sets `config`'s board size and network shape (encoding version included)
// to the checkpoint's, so a model played without a config that names its
// shape (the shipped default model, `--model` without `--config`) loads
// whatever its architecture. Errors name the file.
absl::Status AdoptCheckpointNetwork(const std::string& checkpoint,
                                    pb::RunConfig* config);

}  // namespace renju

#endif  // RENJU_CONFIG_EVALUATOR_CONFIG_H_
