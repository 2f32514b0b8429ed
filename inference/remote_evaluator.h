// An Evaluator whose network runs on an inference server (`renju serve`):
// self-play workers on CPU hosts borrow a GPU server's network through the
// same interface search uses locally.
//
// Like the local BatchedEvaluator, it gathers concurrent callers into one
// batch through an EvaluationQueue: each caller turns its game into a
// pb::Position, queues it and waits; sender threads take up to
// max_batch_size queued positions (waiting at most max_wait_us after the
// first for more), send them in one Evaluate
// RPC and hand each caller its priors and win/draw/loss. So a worker with 32
// games in flight sends batches of about 32 positions, not 32 RPCs.
//
// The server answers with the same masked priors a local evaluator would
// give (zero on occupied and forbidden points); the answer is checked for
// shape before it reaches the search.
#ifndef RENJU_INFERENCE_REMOTE_EVALUATOR_H_
#define RENJU_INFERENCE_REMOTE_EVALUATOR_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "proto/game.pb.h"
#include "proto/inference.grpc.pb.h"
#include "rpc/rpc.h"
#include "rules/game.h"
#include "search/evaluation_queue.h"
#include "search/evaluator.h"

namespace renju {

// The position of `game` on the wire: its moves when the history holds every
// stone, else its stones and the side to move (a game set up from stones has
// no history to send).
pb::Position PositionOf(const Game& game);

struct RemoteEvaluatorOptions {
  ChannelOptions channel;
  // Positions per RPC, 1..4096; at most the server's max_evaluate_positions,
  // which rejects larger requests.
  int max_batch_size = 32;
  // How long a batch waits to fill after its first position, 0..10^6 us.
  int max_wait_us = 1000;
  // RPCs in flight at once (sender threads), 1..64: while one batch is on
  // the wire the next one fills.
  int max_rpcs_in_flight = 2;
  // Deadline of each Evaluate RPC. Calls wait for the server to be ready
  // (wait_for_ready) within it, so a restarting server costs a pause, not
  // an error.
  int64_t rpc_deadline_ms = 30000;
  // How long Create waits for the server's first answer.
  int64_t connect_timeout_ms = 30000;
};

struct RemoteEvaluatorStats {
  int64_t rpcs = 0;
  int64_t positions = 0;
  int64_t failed_rpcs = 0;

  double mean_batch_size() const {
    return rpcs == 0 ? 0.0 : static_cast<double>(positions) / rpcs;
  }
};

class RemoteEvaluator : public Evaluator {
 public:
  // Connects and asks the server which model it serves (ListModels), so a
  // wrong address fails here, within connect_timeout_ms. Errors: bad
  // options, an unreadable certificate, no answer from the server.
  static absl::StatusOr<std::unique_ptr<RemoteEvaluator>> Create(
      const RemoteEvaluatorOptions& options);
  // Shuts down and joins the sender threads.
  ~RemoteEvaluator() override;

  // Thread-safe; blocks until this position's batch has been answered.
  // Errors: the RPC failed (its gRPC status code, e.g. InvalidArgument for a
  // position the server rejects, which fails every position of that RPC;
  // DeadlineExceeded when the server stays away for rpc_deadline_ms), the
  // answer is malformed (Internal), or the evaluator is shut down
  // (Unavailable).
  absl::Status Evaluate(Game& game, Evaluation& out) override;
  // The positions go out at once (EvaluationQueue::PushBatch), in RPCs of
  // at most max_batch_size; the same errors, for any of them.
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override;

  // Fails queued and later calls with Unavailable; RPCs in flight finish.
  // Idempotent and thread-safe.
  void Shutdown();

  // The model generation of the server's latest answer (it changes when the
  // server hot-swaps a new model).
  int64_t generation() const { return generation_.load(); }
  RemoteEvaluatorStats stats() const;

 private:
  struct Request;

  RemoteEvaluator(const RemoteEvaluatorOptions& options,
                  std::unique_ptr<pb::Inference::Stub> stub);
  void Send();
  void RunBatch(const std::vector<PendingEvaluation*>& batch);
  absl::Status CopyAnswer(const pb::PositionEvaluation& answer,
                          Request& request) const;

  const RemoteEvaluatorOptions options_;
  std::unique_ptr<pb::Inference::Stub> stub_;
  EvaluationQueue queue_;
  std::vector<std::thread> senders_;  // started last
  std::atomic<int64_t> generation_{0};

  // A standard mutex, not Abseil's, so that ThreadSanitizer sees it
  // (base/notification.h).
  mutable std::mutex mutex_;
  RemoteEvaluatorStats stats_ ABSL_GUARDED_BY(mutex_);

  std::mutex join_mutex_;  // serialises Shutdown's joins
};

}  // namespace renju

#endif  // RENJU_INFERENCE_REMOTE_EVALUATOR_H_
