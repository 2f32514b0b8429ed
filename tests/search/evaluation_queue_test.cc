#include "search/evaluation_queue.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace renju {
namespace {

using std::chrono::milliseconds;

struct TestRequest : PendingEvaluation {
  int id = 0;
};

TEST(EvaluationQueueTest, FullBatchGoesOutWithoutWaiting) {
  // max_wait is a minute: only a full batch can come out in time.
  EvaluationQueue queue(3, 60'000'000, "closed");
  TestRequest requests[3];
  for (int i = 0; i < 3; ++i) {
    requests[i].id = i;
    ASSERT_TRUE(queue.Push(&requests[i]).ok());
  }
  std::vector<PendingEvaluation*> batch;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(queue.TakeBatch(batch));
  // Far below the minute a partial batch would wait: no busy machine
  // stretches an immediate return that long.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  ASSERT_EQ(batch.size(), 3u);
  for (int i = 0; i < 3; ++i) {  // first in, first out
    EXPECT_EQ(static_cast<TestRequest*>(batch[i])->id, i);
  }
  EXPECT_EQ(queue.stats().batches, 1);
  EXPECT_EQ(queue.stats().positions, 3);
}

TEST(EvaluationQueueTest, PartialBatchGoesOutAfterMaxWait) {
  EvaluationQueue queue(8, 20'000, "closed");  // 20 ms
  TestRequest a, b;
  ASSERT_TRUE(queue.Push(&a).ok());
  ASSERT_TRUE(queue.Push(&b).ok());
  std::vector<PendingEvaluation*> batch;
  ASSERT_TRUE(queue.TakeBatch(batch));
  EXPECT_EQ(batch.size(), 2u);
  // The batch waited for more since `a` was queued.
  EXPECT_GE(std::chrono::steady_clock::now() - a.queued, milliseconds(20));
}

TEST(EvaluationQueueTest, LargeQueueIsSplitIntoBatches) {
  EvaluationQueue queue(4, 0, "closed");
  TestRequest requests[10];
  for (TestRequest& r : requests) ASSERT_TRUE(queue.Push(&r).ok());
  std::vector<size_t> sizes;
  std::vector<PendingEvaluation*> batch;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(queue.TakeBatch(batch));
    sizes.push_back(batch.size());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{4, 4, 2}));
}

TEST(EvaluationQueueTest, CloseFailsQueuedAndLaterRequestsAndWakesTakers) {
  EvaluationQueue queue(4, 60'000'000, "evaluator is shut down");
  std::vector<PendingEvaluation*> batch;
  std::atomic<bool> taker_returned{false};
  bool taken = true;
  std::thread taker([&] {
    // An empty queue, then one request short of a batch that may wait a
    // minute: this returns only at Close.
    taken = queue.TakeBatch(batch);
    taker_returned = true;
  });
  TestRequest queued;  // waits for a full batch that never comes
  ASSERT_TRUE(queue.Push(&queued).ok());
  EXPECT_FALSE(taker_returned.load());
  queue.Close();
  taker.join();
  EXPECT_FALSE(taken);
  ASSERT_TRUE(queued.done.WaitForNotificationWithTimeout(milliseconds(5000)));
  EXPECT_EQ(queued.status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(queued.status.message(), "evaluator is shut down");
  TestRequest late;
  EXPECT_EQ(queue.Push(&late).code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(queue.TakeBatch(batch));
}

TEST(EvaluationQueueTest, ManyCallersAndTakersAnswerEveryRequestOnce) {
  // The shape both evaluators use: callers push and wait on `done`, takers
  // answer whole batches. Run under ThreadSanitizer in CI.
  constexpr int kCallers = 16, kTakers = 3, kCallsEach = 200;
  EvaluationQueue queue(8, 200, "closed");
  std::atomic<int> answered{0};
  std::vector<std::thread> takers;
  for (int t = 0; t < kTakers; ++t) {
    takers.emplace_back([&] {
      std::vector<PendingEvaluation*> batch;
      while (queue.TakeBatch(batch)) {
        for (PendingEvaluation* p : batch) {
          auto* request = static_cast<TestRequest*>(p);
          request->id = request->id * 2;  // the "evaluation"
          ++answered;
          request->done.Notify();
        }
      }
    });
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&, c] {
      for (int i = 0; i < kCallsEach; ++i) {
        TestRequest request;
        request.id = c * 1000 + i;
        ASSERT_TRUE(queue.Push(&request).ok());
        request.done.WaitForNotification();
        if (!request.status.ok() || request.id != 2 * (c * 1000 + i)) ++wrong;
      }
    });
  }
  for (std::thread& t : callers) t.join();
  queue.Close();
  for (std::thread& t : takers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(answered.load(), kCallers * kCallsEach);
  EXPECT_EQ(queue.stats().positions, kCallers * kCallsEach);
}

}  // namespace
}  // namespace renju
