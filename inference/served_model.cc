#include "inference/served_model.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "base/error_field.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "nn/checkpoint.h"
#include "rpc/game_record.h"
#include "rpc/sha256.h"
#include "rpc/trainer_client.h"

namespace renju {

absl::StatusOr<std::shared_ptr<const ServedModel>> LoadServedModel(
    const pb::RunConfig& config, const std::string& path, uint64_t seed,
    const pb::ModelInfo* trainer_info, const EvaluatorMetrics& metrics) {
  auto model = std::make_shared<ServedModel>();
  CheckpointInfo checkpoint;
  if (!path.empty()) {
    absl::StatusOr<Checkpoint> read = ReadCheckpoint(path);
    if (!read.ok()) return read.status();
    checkpoint = read->info;
    absl::StatusOr<std::string> sha256 = Sha256OfFile(path);
    if (!sha256.ok()) return sha256.status();
    model->info.set_sha256(*sha256);
    std::error_code error;
    const uintmax_t bytes = std::filesystem::file_size(path, error);
    if (!error) model->info.set_size_bytes(static_cast<int64_t>(bytes));
  }
  if (trainer_info != nullptr) {
    // The registry's numbers, which the updater compares with.
    model->info = *trainer_info;
  } else {
    model->info.set_generation(checkpoint.generation);
    model->info.set_training_step(checkpoint.training_step);
  }
  model->info.set_status("serving");
  model->variants = checkpoint.variants;
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack = CreateEvaluatorStack(
      config, ToPlayTimeEvaluatorConfig(config.server().evaluator()), path,
      seed, metrics);
  if (!stack.ok()) return stack.status();
  model->stack = std::move(*stack);
  return std::shared_ptr<const ServedModel>(std::move(model));
}

absl::StatusOr<std::shared_ptr<const ServedModel>> FetchServedModel(
    const pb::RunConfig& config, TrainerClient& trainer,
    const pb::ModelInfo& info, const std::string& model_dir,
    const EvaluatorMetrics& metrics) {
  std::error_code error;
  std::filesystem::create_directories(model_dir, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot create ", model_dir, ": ", error.message()));
  }
  const std::string path = (std::filesystem::path(model_dir) /
                            absl::StrCat("gen", info.generation(), ".model"))
                               .string();
  absl::StatusOr<pb::ModelInfo> fetched =
      trainer.FetchModel(info.generation(), path);
  if (!fetched.ok()) return fetched.status();
  absl::StatusOr<std::shared_ptr<const ServedModel>> model = LoadServedModel(
      config, path,
      static_cast<uint64_t>(config.seed()) ^ fetched->generation(), &*fetched,
      metrics);
  // The weights are in memory now; the trainer keeps the file.
  std::filesystem::remove(path, error);
  return model;
}

absl::StatusOr<Game> ParseServedPosition(const pb::Position& position,
                                         const ServedModel& model) {
  absl::StatusOr<Game> game = GameFromPosition(position);
  if (!game.ok()) return InvalidField(game.status().message(), "position");
  const int size = model.stack->network().board_size;
  if (game->size() != size) {
    return InvalidField(
        absl::StrCat("the position is on a ", game->size(), "x", game->size(),
                     " board; the served network plays ", size, "x", size),
        "position");
  }
  if (std::find(model.variants.begin(), model.variants.end(),
                game->variant()) == model.variants.end()) {
    return InvalidField(absl::StrCat("the served network was not trained for ",
                                     VariantName(game->variant())),
                        "position.variant");
  }
  if (game->over()) {
    return InvalidField(absl::StrCat("the game is already over (",
                                     GameResultName(game->result()), " by ",
                                     EndReasonName(game->end_reason()), ")"),
                        "position");
  }
  return game;
}

}  // namespace renju
