// The queue between the search threads that ask for evaluations and the
// threads that answer them a batch at a time: BatchedEvaluator's network
// servers and RemoteEvaluator's RPC senders. A batch goes out once it is
// full, once its oldest request has waited max_wait_us, or at once when a
// caller queued a batch of its own (PushBatch: a search's gathered leaves).
//
// Each asking thread is woken only by its own request's `done`, and a
// waiting taker only by the first request, a full batch, requests left
// behind by another taker, or Close(): one wake-up per event, not one per
// request.
#ifndef RENJU_SEARCH_EVALUATION_QUEUE_H_
#define RENJU_SEARCH_EVALUATION_QUEUE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "base/notification.h"

namespace renju {

// What every queued request carries; an evaluator's own request type
// derives from it and adds its inputs and outputs. It lives on the asking
// thread's stack until `done`.
struct PendingEvaluation {
  std::chrono::steady_clock::time_point queued;
  // Queued by PushBatch: its batch need not wait for more requests.
  bool due_now = false;
  // Set by the answering thread before it notifies `done`.
  absl::Status status;
  Notification done;
};

struct EvaluationQueueStats {
  int64_t batches = 0;
  int64_t positions = 0;
  // Summed over positions: from being queued to its batch being taken.
  std::chrono::steady_clock::duration total_wait{};
};

class EvaluationQueue {
 public:
  // max_batch_size >= 1 and max_wait_us >= 0 (the owner validates its
  // options). `closed_message` is the Unavailable error a request gets
  // when it arrives after Close() or is still queued then.
  EvaluationQueue(int max_batch_size, int64_t max_wait_us,
                  std::string closed_message);

  // Stamps `request` and queues it; Unavailable once closed. The caller
  // then waits on request->done.
  absl::Status Push(PendingEvaluation* request);
  // Queues `requests` together as Push does, marked due: a taker takes them
  // (with whatever is queued before them, up to max_batch_size) without
  // waiting max_wait_us for others. Unavailable once closed, and then none
  // of them is queued.
  absl::Status PushBatch(absl::Span<PendingEvaluation* const> requests);

  // Blocks until a batch is due and puts it into `batch` (cleared first).
  // False once closed, after failing every request still queued.
  bool TakeBatch(std::vector<PendingEvaluation*>& batch);

  // Later pushes fail; every taker wakes and returns false.
  void Close();

  EvaluationQueueStats stats() const;

 private:
  bool HasWorkOrClosed() const ABSL_SHARED_LOCKS_REQUIRED(mutex_);
  bool BatchDueOrClosed() const ABSL_SHARED_LOCKS_REQUIRED(mutex_);

  const int max_batch_size_;
  const std::chrono::microseconds max_wait_;
  const std::string closed_message_;

  // Standard primitives, not Abseil's: ThreadSanitizer cannot see inside
  // Debian's uninstrumented Abseil (base/notification.h).
  mutable std::mutex mutex_;
  std::condition_variable work_cv_;
  std::deque<PendingEvaluation*> queue_ ABSL_GUARDED_BY(mutex_);
  int queued_due_now_ ABSL_GUARDED_BY(mutex_) = 0;
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
  EvaluationQueueStats stats_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace renju

#endif  // RENJU_SEARCH_EVALUATION_QUEUE_H_
