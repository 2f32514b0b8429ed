// A model ready to serve (`renju serve`): the network behind its evaluator
// stack, the variants it was trained for and its registry entry; loaded from
// a checkpoint or fetched from the trainer.
#ifndef RENJU_INFERENCE_SERVED_MODEL_H_
#define RENJU_INFERENCE_SERVED_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nn/evaluator_stack.h"
#include "proto/config.pb.h"
#include "proto/game.pb.h"
#include "proto/trainer.pb.h"
#include "rules/game.h"

namespace renju {

class TrainerClient;  // rpc/trainer_client.h

// Immutable once built; shared by the requests that use it.
struct ServedModel {
  std::unique_ptr<EvaluatorStack> stack;
  // The variants the network was trained for (from its checkpoint).
  std::vector<Variant> variants;
  // generation, training_step, sha256 and size_bytes of the file (empty
  // sha256 for a fresh network); status "serving".
  pb::ModelInfo info;
};

// Loads the checkpoint at `path` with config.server().evaluator(), or a
// fresh network of the config's shape seeded by `seed` when `path` is
// empty. The ModelInfo comes from the checkpoint's metadata and the file's
// SHA-256; `trainer_info`, when given, supplies the registry's fields. Its
// evaluator fills `metrics`' histograms when set.
absl::StatusOr<std::shared_ptr<const ServedModel>> LoadServedModel(
    const pb::RunConfig& config, const std::string& path, uint64_t seed,
    const pb::ModelInfo* trainer_info = nullptr,
    const EvaluatorMetrics& metrics = {});

// Downloads the generation `info` names from the trainer into `model_dir`
// (created if missing; the file is removed once loaded) and loads it.
absl::StatusOr<std::shared_ptr<const ServedModel>> FetchServedModel(
    const pb::RunConfig& config, TrainerClient& trainer,
    const pb::ModelInfo& info, const std::string& model_dir,
    const EvaluatorMetrics& metrics = {});

// The game of a request's `position`, checked against what `model` plays:
// its board size and variants, and a game not yet over. Every error is
// INVALID_ARGUMENT (the position is the client's input), naming the field
// (base/error_field.h) "position", or "position.variant" for a variant the
// network was not trained for.
absl::StatusOr<Game> ParseServedPosition(const pb::Position& position,
                                         const ServedModel& model);

}  // namespace renju

#endif  // RENJU_INFERENCE_SERVED_MODEL_H_
