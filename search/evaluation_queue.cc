#include "search/evaluation_queue.h"

#include <algorithm>
#include <utility>

namespace renju {

EvaluationQueue::EvaluationQueue(int max_batch_size, int64_t max_wait_us,
                                 std::string closed_message)
    : max_batch_size_(max_batch_size),
      max_wait_(max_wait_us),
      closed_message_(std::move(closed_message)) {}

absl::Status EvaluationQueue::Push(PendingEvaluation* request) {
  request->queued = std::chrono::steady_clock::now();
  bool wake_taker;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return absl::UnavailableError(closed_message_);
    queue_.push_back(request);
    // A waiting taker's condition turns true only on the first request and
    // at a full batch (TakeBatch).
    const int queued = queue_.size();
    wake_taker = queued == 1 || queued == max_batch_size_;
  }
  if (wake_taker) work_cv_.notify_one();
  return absl::OkStatus();
}

absl::Status EvaluationQueue::PushBatch(
    absl::Span<PendingEvaluation* const> requests) {
  if (requests.empty()) return absl::OkStatus();
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return absl::UnavailableError(closed_message_);
    for (PendingEvaluation* request : requests) {
      request->queued = now;
      request->due_now = true;
      queue_.push_back(request);
    }
    queued_due_now_ += requests.size();
  }
  // A due batch turns a waiting taker's condition true whatever it was.
  work_cv_.notify_one();
  return absl::OkStatus();
}

void EvaluationQueue::Close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  work_cv_.notify_all();
}

EvaluationQueueStats EvaluationQueue::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

bool EvaluationQueue::HasWorkOrClosed() const {
  return closed_ || !queue_.empty();
}

bool EvaluationQueue::BatchDueOrClosed() const {
  return closed_ || queued_due_now_ > 0 ||
         static_cast<int>(queue_.size()) >= max_batch_size_;
}

bool EvaluationQueue::TakeBatch(std::vector<PendingEvaluation*>& batch) {
  batch.clear();
  std::unique_lock<std::mutex> lock(mutex_);
  // Another taker may empty the queue while this one waits for it to fill.
  while (true) {
    work_cv_.wait(lock, [this] { return HasWorkOrClosed(); });
    if (!BatchDueOrClosed()) {
      work_cv_.wait_until(lock, queue_.front()->queued + max_wait_,
                          [this] { return BatchDueOrClosed(); });
    }
    if (closed_) {
      for (PendingEvaluation* request : queue_) {
        request->status = absl::UnavailableError(closed_message_);
        request->done.Notify();
      }
      queue_.clear();
      queued_due_now_ = 0;
      return false;
    }
    if (!queue_.empty()) break;
  }
  const int n = std::min<int>(queue_.size(), max_batch_size_);
  const auto now = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    stats_.total_wait += now - queue_.front()->queued;
    if (queue_.front()->due_now) --queued_due_now_;
    batch.push_back(queue_.front());
    queue_.pop_front();
  }
  ++stats_.batches;
  stats_.positions += n;
  // Requests left behind wait for another taker, which no push wakes.
  const bool more = !queue_.empty();
  lock.unlock();
  if (more) work_cv_.notify_one();
  return true;
}

}  // namespace renju
