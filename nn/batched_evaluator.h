// The network behind the Evaluator interface: many caller threads submit one
// position each; server threads gather them into batches and run one forward
// per batch (KataGo's NNEvaluator, Minigo's ModelBatcher).
//
// Work is split so the server threads do nothing but forwards:
//   caller:  encodes its position into its own thread's buffer, queues a
//            request that points at that buffer and at its Evaluation, and
//            waits; once woken it masks and normalises its own policy.
//   server:  takes a batch from the EvaluationQueue (max_batch_size requests
//            or whatever came within max_wait_us of the first); copies
//            the batch's planes, runs Model::Forward, writes each caller's
//            logits into its Evaluation and wakes it.
// One server thread per Model: LibTorch does not promise concurrent forwards
// on one module, so each thread owns its own copy (Model::Clone).
#ifndef RENJU_NN_BATCHED_EVALUATOR_H_
#define RENJU_NN_BATCHED_EVALUATOR_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "base/metrics.h"
#include "nn/model.h"
#include "search/evaluation_queue.h"
#include "search/evaluator.h"

namespace renju {

// The Prometheus histograms an evaluator fills, when set; the registry
// owns them, and one set may serve many evaluators in turn (a server's
// hot-swapped models). RegisterEvaluatorMetrics names them.
struct EvaluatorMetrics {
  Histogram* batch_size = nullptr;  // positions per forward
  // Each Evaluate or EvaluateBatch call, from queueing its positions to
  // their delivery: the wait for a batch and the forward.
  Histogram* latency_seconds = nullptr;
};

// Registers renju_evaluator_batch_size and renju_evaluator_latency_seconds.
EvaluatorMetrics RegisterEvaluatorMetrics(MetricsRegistry& registry);

// On a CPU host, one server thread per core with SetIntraOpThreads(1) and
// max_batch_size about (callers / servers) was fastest on the 2-core
// development machine (BENCHMARKS.md). A lone caller wants max_wait_us 0.
struct BatchedEvaluatorOptions {
  // Most positions in one forward, 1..4096.
  int max_batch_size = 32;
  // How long a server waits for a batch to fill after its first request
  // arrived, in microseconds, 0..1000000. Short batches run after this.
  int max_wait_us = 1000;
  // Observed when set; must outlive the evaluator.
  EvaluatorMetrics metrics;
};

struct BatchedEvaluatorStats {
  int64_t batches = 0;
  int64_t positions = 0;
  // Mean time from a request being queued to its batch being taken, in
  // microseconds.
  double mean_queue_wait_us = 0;

  double mean_batch_size() const {
    return batches == 0 ? 0.0 : static_cast<double>(positions) / batches;
  }
};

class BatchedEvaluator : public Evaluator {
 public:
  // Starts one server thread per model. The models must all have one
  // config; each is used only by its own thread from now on.
  static absl::StatusOr<std::unique_ptr<BatchedEvaluator>> Create(
      std::vector<std::unique_ptr<Model>> models,
      const BatchedEvaluatorOptions& options);
  // Shuts down and joins the server threads.
  ~BatchedEvaluator() override;

  // Thread-safe; blocks until this position's batch has run. Errors: the
  // board size is not the network's (InvalidArgument), the evaluator is
  // shut down (Unavailable), the forward failed (Internal).
  absl::Status Evaluate(Game& game, Evaluation& out) override;
  // The positions go out together (EvaluationQueue::PushBatch): split into
  // forwards of at most max_batch_size, without waiting max_wait_us for
  // other callers. The same errors, for any of the games.
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override;

  // Closes the queue: requests still queued and any later Evaluate calls
  // fail with Unavailable; batches already running finish and deliver.
  // Idempotent, thread-safe; returns once the server threads have exited.
  void Shutdown();

  BatchedEvaluatorStats stats() const;
  const NetworkConfig& config() const { return config_; }

 private:
  struct Request;

  BatchedEvaluator(std::vector<std::unique_ptr<Model>> models,
                   const BatchedEvaluatorOptions& options);
  // InvalidArgument when the network cannot evaluate `game`.
  absl::Status CheckPlayable(const Game& game) const;
  // Encodes `game` into `planes` and points `request` at them and at
  // out's policy, resized to the board.
  void Prepare(Game& game, float* planes, Evaluation& out,
               Request& request) const;
  // Turns the delivered logits into out's priors and value.
  static absl::Status Finish(const Request& request, const float* planes,
                             int area, Evaluation& out);
  void Serve(Model& model);
  // Into metrics.latency_seconds, when set: the time since `start`.
  void ObserveLatency(std::chrono::steady_clock::time_point start) const;
  void RunBatch(Model& model, const std::vector<PendingEvaluation*>& batch,
                std::vector<float>& inputs, std::vector<float>& policy,
                std::vector<float>& wdl);

  const BatchedEvaluatorOptions options_;
  const NetworkConfig config_;
  std::vector<std::unique_ptr<Model>> models_;
  EvaluationQueue queue_;
  std::vector<std::thread> servers_;  // one per model, started last

  std::mutex join_mutex_;  // serialises Shutdown's joins
};

}  // namespace renju

#endif  // RENJU_NN_BATCHED_EVALUATOR_H_
