#include "nn/batched_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "nn/encoding.h"
#include "nn/output.h"

namespace renju {

// Lives on the caller's stack for one Evaluate call; the server writes the
// results and then notifies, after which it never touches the request again.
struct BatchedEvaluator::Request : PendingEvaluation {
  const float* planes = nullptr;   // the caller's encoded position
  float* policy_logits = nullptr;  // the caller's Evaluation::policy
  float wdl_logits[3] = {0, 0, 0};
};

absl::StatusOr<std::unique_ptr<BatchedEvaluator>> BatchedEvaluator::Create(
    std::vector<std::unique_ptr<Model>> models,
    const BatchedEvaluatorOptions& options) {
  if (models.empty()) {
    return absl::InvalidArgumentError("batched evaluator: no models");
  }
  for (const auto& model : models) {
    if (model->config() != models[0]->config()) {
      return absl::InvalidArgumentError(
          "batched evaluator: the models have different configs");
    }
  }
  if (options.max_batch_size < 1 || options.max_batch_size > 4096) {
    return absl::InvalidArgumentError(
        absl::StrCat("batched evaluator: max_batch_size is ",
                     options.max_batch_size, ", expected 1..4096"));
  }
  if (options.max_wait_us < 0 || options.max_wait_us > 1000000) {
    return absl::InvalidArgumentError(
        absl::StrCat("batched evaluator: max_wait_us is ", options.max_wait_us,
                     ", expected 0..1000000"));
  }
  return std::unique_ptr<BatchedEvaluator>(
      new BatchedEvaluator(std::move(models), options));
}

BatchedEvaluator::BatchedEvaluator(std::vector<std::unique_ptr<Model>> models,
                                   const BatchedEvaluatorOptions& options)
    : options_(options),
      config_(models[0]->config()),
      models_(std::move(models)),
      queue_(options.max_batch_size, options.max_wait_us,
             "evaluator is shut down") {
  for (auto& model : models_) {
    servers_.emplace_back([this, m = model.get()] { Serve(*m); });
  }
}

BatchedEvaluator::~BatchedEvaluator() { Shutdown(); }

absl::Status BatchedEvaluator::Evaluate(Game& game, Evaluation& out) {
  const int size = config_.board_size;
  if (game.size() != size) {
    return absl::InvalidArgumentError(
        absl::StrCat("position on a ", game.size(), "x", game.size(),
                     " board; the network plays ", size, "x", size));
  }
  const std::vector<Variant>& variants = models_[0]->info().variants;
  if (std::find(variants.begin(), variants.end(), game.variant()) ==
      variants.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the network was not trained for ", VariantName(game.variant())));
  }
  // Each caller thread encodes into its own buffer, reused across calls.
  thread_local std::vector<float> planes;
  // The model's own encoding: a checkpoint plays with the version it
  // records (all models share one config, checked in Create).
  const int version = config_.encoding_version;
  planes.resize(EncodedSize(size, version));
  EncodePosition(game, version, planes.data());
  const int area = size * size;
  out.policy.resize(area);

  Request request;
  request.planes = planes.data();
  request.policy_logits = out.policy.data();
  if (absl::Status s = queue_.Push(&request); !s.ok()) return s;
  request.done.WaitForNotification();
  if (!request.status.ok()) return request.status;
  MaskedSoftmax(planes.data() + kLegalPlane * area, area, out.policy.data());
  SetWdl(request.wdl_logits, out);
  return absl::OkStatus();
}

void BatchedEvaluator::Shutdown() {
  queue_.Close();
  std::lock_guard<std::mutex> lock(join_mutex_);
  for (std::thread& server : servers_) {
    if (server.joinable()) server.join();
  }
}

BatchedEvaluatorStats BatchedEvaluator::stats() const {
  const EvaluationQueueStats queue = queue_.stats();
  BatchedEvaluatorStats stats;
  stats.batches = queue.batches;
  stats.positions = queue.positions;
  if (queue.positions > 0) {
    stats.mean_queue_wait_us =
        std::chrono::duration<double, std::micro>(queue.total_wait).count() /
        queue.positions;
  }
  return stats;
}

void BatchedEvaluator::Serve(Model& model) {
  const int max = options_.max_batch_size;
  std::vector<PendingEvaluation*> batch;
  batch.reserve(max);
  std::vector<float> inputs(static_cast<size_t>(max) * model.input_floats());
  std::vector<float> policy(static_cast<size_t>(max) * model.policy_size());
  std::vector<float> wdl(static_cast<size_t>(max) * 3);
  while (queue_.TakeBatch(batch)) RunBatch(model, batch, inputs, policy, wdl);
}

void BatchedEvaluator::RunBatch(Model& model,
                                const std::vector<PendingEvaluation*>& batch,
                                std::vector<float>& inputs,
                                std::vector<float>& policy,
                                std::vector<float>& wdl) {
  const int n = batch.size();
  const int input_floats = model.input_floats();
  const int area = model.policy_size();
  for (int i = 0; i < n; ++i) {
    std::memcpy(inputs.data() + static_cast<size_t>(i) * input_floats,
                static_cast<Request*>(batch[i])->planes,
                sizeof(float) * input_floats);
  }
  const absl::Status status =
      model.Forward(inputs.data(), n, policy.data(), wdl.data());
  for (int i = 0; i < n; ++i) {
    Request& request = *static_cast<Request*>(batch[i]);
    if (status.ok()) {
      std::memcpy(request.policy_logits,
                  policy.data() + static_cast<size_t>(i) * area,
                  sizeof(float) * area);
      std::memcpy(request.wdl_logits, wdl.data() + 3 * i, sizeof(float) * 3);
    }
    request.status = status;
    request.done.Notify();  // `request` may be gone after this
  }
}

}  // namespace renju
