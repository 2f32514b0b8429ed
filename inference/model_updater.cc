// The updater that swaps each new best of the trainer in
// (inference_service.h).
#include <malloc.h>

#include <chrono>

#include "base/logging.h"
#include "inference/inference_service.h"

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

ModelUpdater::ModelUpdater(const pb::RunConfig& config, TrainerClient& trainer,
                           InferenceService& service, std::string model_dir,
                           const EvaluatorMetrics& metrics)
    : config_(config),
      trainer_(trainer),
      service_(service),
      model_dir_(std::move(model_dir)),
      metrics_(metrics) {}

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
      FetchServedModel(config_, trainer_, *info, model_dir_, metrics_);
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
