// Models to serve: loading a checkpoint, fetching the trainer's best, and
// the updater that swaps each new best in (inference_service.h).
#include <malloc.h>

#include <chrono>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "config/evaluator_config.h"
#include "inference/inference_service.h"
#include "nn/checkpoint.h"
#include "rpc/sha256.h"

namespace renju {
namespace {

// Gives the memory glibc holds free back to the system. The network's
// KeepActivationsInHeap (nn/torch_util.cc) raises M_TRIM_THRESHOLD,
// so glibc never does this by itself: a replaced model's weights and its
// evaluation cache (tens of MiB of small blocks spread over the per-thread
// arenas) stayed resident, and the server's RSS climbed with every swap
// (tools/soak_test.sh: +94 MiB over nine swaps, malloc's in-use bytes flat).
void ReleaseFreeMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace

absl::StatusOr<std::shared_ptr<const ServedModel>> LoadServedModel(
    const pb::RunConfig& config, const std::string& path, uint64_t seed,
    const pb::ModelInfo* trainer_info) {
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
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      CreateEvaluatorStack(config, config.server().evaluator(), path, seed);
  if (!stack.ok()) return stack.status();
  model->stack = std::move(*stack);
  return std::shared_ptr<const ServedModel>(std::move(model));
}

absl::StatusOr<std::shared_ptr<const ServedModel>> FetchServedModel(
    const pb::RunConfig& config, TrainerClient& trainer,
    const pb::ModelInfo& info, const std::string& model_dir) {
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
      static_cast<uint64_t>(config.seed()) ^ fetched->generation(), &*fetched);
  // The weights are in memory now; the trainer keeps the file.
  std::filesystem::remove(path, error);
  return model;
}

ModelUpdater::ModelUpdater(const pb::RunConfig& config, TrainerClient& trainer,
                           InferenceService& service, std::string model_dir)
    : config_(config),
      trainer_(trainer),
      service_(service),
      model_dir_(std::move(model_dir)) {}

ModelUpdater::~ModelUpdater() { Stop(); }

absl::StatusOr<bool> ModelUpdater::Update() {
  absl::StatusOr<pb::ModelInfo> info = trainer_.GetCurrentModel();
  if (!info.ok()) return info.status();
  const pb::ModelInfo& served = service_.model()->info;
  if (info->generation() == served.generation() &&
      info->sha256() == served.sha256()) {
    return false;
  }
  absl::StatusOr<std::shared_ptr<const ServedModel>> model =
      FetchServedModel(config_, trainer_, *info, model_dir_);
  if (!model.ok()) return model.status();
  service_.SwapModel(*std::move(model));
  return true;
}

void ModelUpdater::Start() {
  const std::chrono::seconds poll(config_.server().model_poll_seconds());
  poller_ = std::thread([this, poll] {
    // The model the last swap replaced; its memory is released once the
    // last request on it has ended.
    std::weak_ptr<const ServedModel> replaced;
    bool release_pending = false;
    while (!stop_.WaitForNotificationWithTimeout(poll)) {
      std::weak_ptr<const ServedModel> served = service_.model();
      absl::StatusOr<bool> swapped = Update();
      if (!swapped.ok()) {
        RENJU_LOG(WARNING) << "model update: " << swapped.status();
      } else if (*swapped) {
        replaced = served;
        release_pending = true;
      }
      if (release_pending && replaced.expired()) {
        ReleaseFreeMemory();
        release_pending = false;
      }
    }
  });
}

void ModelUpdater::Stop() {
  stop_.Notify();
  if (poller_.joinable()) poller_.join();
}

}  // namespace renju
