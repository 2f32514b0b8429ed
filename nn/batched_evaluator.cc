#include "nn/batched_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
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

EvaluatorMetrics RegisterEvaluatorMetrics(MetricsRegistry& registry) {
  EvaluatorMetrics metrics;
  metrics.batch_size = &registry.AddHistogram(
      "renju_evaluator_batch_size", "Positions in each network forward.",
      ExponentialBuckets(1, 2, 13));  // 1 .. 4096, the largest batch
  metrics.latency_seconds = &registry.AddHistogram(
      "renju_evaluator_latency_seconds",
      "Time from a caller queueing its positions to their evaluations "
      "arriving: the wait for a batch and the forward.",
      ExponentialBuckets(0.0001, 2, 17));  // 100 us .. 6.5 s
  return metrics;
}

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

absl::Status BatchedEvaluator::CheckPlayable(const Game& game) const {
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
  return absl::OkStatus();
}

void BatchedEvaluator::Prepare(Game& game, float* planes, Evaluation& out,
                               Request& request) const {
  // The model's own encoding: a checkpoint plays with the version it
  // records (all models share one config, checked in Create).
  EncodePosition(game, config_.encoding_version, planes);
  out.policy.resize(config_.board_size * config_.board_size);
  request.planes = planes;
  request.policy_logits = out.policy.data();
}

absl::Status BatchedEvaluator::Finish(const Request& request,
                                      const float* planes, int area,
                                      Evaluation& out) {
  if (!request.status.ok()) return request.status;
  MaskedSoftmax(planes + kLegalPlane * area, area, out.policy.data());
  SetWdl(request.wdl_logits, out);
  return absl::OkStatus();
}

absl::Status BatchedEvaluator::Evaluate(Game& game, Evaluation& out) {
  if (absl::Status s = CheckPlayable(game); !s.ok()) return s;
  // Each caller thread encodes into its own buffer, reused across calls.
  thread_local std::vector<float> planes;
  planes.resize(EncodedSize(config_.board_size, config_.encoding_version));
  Request request;
  Prepare(game, planes.data(), out, request);
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = queue_.Push(&request); !s.ok()) return s;
  request.done.WaitForNotification();
  ObserveLatency(start);
  return Finish(request, planes.data(), config_.board_size * config_.board_size,
                out);
}

absl::Status BatchedEvaluator::EvaluateBatch(
    absl::Span<Game* const> games, absl::Span<Evaluation* const> outs) {
  RENJU_CHECK(games.size() == outs.size())
      << games.size() << " games, " << outs.size() << " outputs";
  const int n = games.size();
  if (n == 0) return absl::OkStatus();
  for (Game* game : games) {
    if (absl::Status s = CheckPlayable(*game); !s.ok()) return s;
  }
  thread_local std::vector<float> planes;
  const size_t encoded =
      EncodedSize(config_.board_size, config_.encoding_version);
  planes.resize(encoded * n);
  // Requests hold a Notification and cannot move: one array per call.
  std::unique_ptr<Request[]> requests(new Request[n]);
  std::vector<PendingEvaluation*> pending(n);
  for (int i = 0; i < n; ++i) {
    Prepare(*games[i], planes.data() + encoded * i, *outs[i], requests[i]);
    pending[i] = &requests[i];
  }
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = queue_.PushBatch(pending); !s.ok()) return s;
  const int area = config_.board_size * config_.board_size;
  absl::Status status;
  // Every request must be delivered before `requests` goes, error or not.
  for (int i = 0; i < n; ++i) {
    requests[i].done.WaitForNotification();
    status.Update(
        Finish(requests[i], planes.data() + encoded * i, area, *outs[i]));
  }
  ObserveLatency(start);
  return status;
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

void BatchedEvaluator::ObserveLatency(
    std::chrono::steady_clock::time_point start) const {
  if (options_.metrics.latency_seconds == nullptr) return;
  options_.metrics.latency_seconds->Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
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
  if (options_.metrics.batch_size != nullptr) {
    options_.metrics.batch_size->Observe(n);
  }
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
