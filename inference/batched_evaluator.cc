#include "inference/batched_evaluator.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "inference/encoding.h"
#include "inference/output.h"
#include "search/notification.h"

namespace renju {

// Lives on the caller's stack for one Evaluate call; the server writes the
// results and then notifies, after which it never touches the request again.
struct BatchedEvaluator::Request {
  const float* planes = nullptr;   // the caller's encoded position
  float* policy_logits = nullptr;  // the caller's Evaluation::policy
  float wdl_logits[3] = {0, 0, 0};
  Clock::time_point queued;
  absl::Status status;
  Notification done;
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
      models_(std::move(models)) {
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
  planes.resize(EncodedSize(size));
  EncodePosition(game, planes.data());
  const int area = size * size;
  out.policy.resize(area);

  Request request;
  request.planes = planes.data();
  request.policy_logits = out.policy.data();
  request.queued = Clock::now();
  bool wake_server;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return absl::UnavailableError("evaluator is shut down");
    queue_.push_back(&request);
    // A waiting server's condition turns true only on the first request and
    // at a full batch (TakeBatch).
    const int queued = queue_.size();
    wake_server = queued == 1 || queued == options_.max_batch_size;
  }
  if (wake_server) work_cv_.notify_one();
  request.done.WaitForNotification();
  if (!request.status.ok()) return request.status;
  MaskedSoftmax(planes.data() + kLegalPlane * area, area, out.policy.data());
  SetWdl(request.wdl_logits, out);
  return absl::OkStatus();
}

void BatchedEvaluator::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  work_cv_.notify_all();
  std::lock_guard<std::mutex> lock(join_mutex_);
  for (std::thread& server : servers_) {
    if (server.joinable()) server.join();
  }
}

BatchedEvaluatorStats BatchedEvaluator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  BatchedEvaluatorStats stats = stats_;
  if (stats.positions > 0) {
    stats.mean_queue_wait_us =
        std::chrono::duration<double, std::micro>(total_queue_wait_).count() /
        stats.positions;
  }
  return stats;
}

void BatchedEvaluator::Serve(Model& model) {
  const int max = options_.max_batch_size;
  std::vector<Request*> batch;
  batch.reserve(max);
  std::vector<float> inputs(static_cast<size_t>(max) * model.input_floats());
  std::vector<float> policy(static_cast<size_t>(max) * model.policy_size());
  std::vector<float> wdl(static_cast<size_t>(max) * 3);
  while (TakeBatch(batch)) RunBatch(model, batch, inputs, policy, wdl);
}

bool BatchedEvaluator::HasWorkOrClosed() const {
  return closed_ || !queue_.empty();
}

bool BatchedEvaluator::BatchFullOrClosed() const {
  return closed_ || static_cast<int>(queue_.size()) >= options_.max_batch_size;
}

bool BatchedEvaluator::TakeBatch(std::vector<Request*>& batch) {
  batch.clear();
  std::unique_lock<std::mutex> lock(mutex_);
  // Another server may empty the queue while this one waits for it to fill.
  while (true) {
    work_cv_.wait(lock, [this] { return HasWorkOrClosed(); });
    if (!BatchFullOrClosed()) {
      const Clock::time_point deadline =
          queue_.front()->queued +
          std::chrono::microseconds(options_.max_wait_us);
      work_cv_.wait_until(lock, deadline,
                          [this] { return BatchFullOrClosed(); });
    }
    if (closed_) {
      FailQueued();
      return false;
    }
    if (!queue_.empty()) break;
  }
  const int n = std::min<int>(queue_.size(), options_.max_batch_size);
  const Clock::time_point now = Clock::now();
  for (int i = 0; i < n; ++i) {
    total_queue_wait_ += now - queue_.front()->queued;
    batch.push_back(queue_.front());
    queue_.pop_front();
  }
  ++stats_.batches;
  stats_.positions += n;
  // Requests left behind wait for another server, which no push wakes.
  const bool more = !queue_.empty();
  lock.unlock();
  if (more) work_cv_.notify_one();
  return true;
}

void BatchedEvaluator::RunBatch(Model& model,
                                const std::vector<Request*>& batch,
                                std::vector<float>& inputs,
                                std::vector<float>& policy,
                                std::vector<float>& wdl) {
  const int n = batch.size();
  const int input_floats = model.input_floats();
  const int area = model.policy_size();
  for (int i = 0; i < n; ++i) {
    std::memcpy(inputs.data() + static_cast<size_t>(i) * input_floats,
                batch[i]->planes, sizeof(float) * input_floats);
  }
  const absl::Status status =
      model.Forward(inputs.data(), n, policy.data(), wdl.data());
  for (int i = 0; i < n; ++i) {
    Request& request = *batch[i];
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

void BatchedEvaluator::FailQueued() {
  for (Request* request : queue_) {
    request->status = absl::UnavailableError("evaluator is shut down");
    request->done.Notify();
  }
  queue_.clear();
}

}  // namespace renju
