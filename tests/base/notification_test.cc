#include "base/notification.h"

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace renju {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

TEST(NotificationTest, WaitReturnsAtOnceAfterNotify) {
  Notification n;
  EXPECT_FALSE(n.HasBeenNotified());
  n.Notify();
  n.Notify();  // idempotent
  EXPECT_TRUE(n.HasBeenNotified());
  n.WaitForNotification();
  EXPECT_TRUE(n.WaitForNotificationWithTimeout(milliseconds(0)));
}

TEST(NotificationTest, TimeoutWithoutNotify) {
  Notification n;
  const Clock::time_point start = Clock::now();
  EXPECT_FALSE(n.WaitForNotificationWithTimeout(milliseconds(30)));
  // A lower bound only: a busy machine can make the wait longer, never
  // shorter.
  EXPECT_GE(Clock::now() - start, milliseconds(30));
}

TEST(NotificationTest, TimedWaitEndsOnNotifyFromAnotherThread) {
  Notification n;
  // Whether the notifier runs before or during the wait, the wait must see
  // it and return true: only a lost notification runs into the timeout.
  std::thread notifier([&] { n.Notify(); });
  EXPECT_TRUE(n.WaitForNotificationWithTimeout(std::chrono::minutes(10)));
  notifier.join();
}

// The evaluators' pattern: a request on the waiter's stack, filled in by
// another thread, destroyed by the waiter as soon as its wait returns. Under
// ThreadSanitizer this checks both the hand-off of `value` and that Notify
// touches nothing after the waiter may have destroyed the notification.
TEST(NotificationTest, WaiterMayDestroyItAtOnce) {
  struct Request {
    int value = 0;
    Notification done;
  };
  constexpr int kRequests = 200;
  std::vector<Request*> handed(kRequests, nullptr);
  std::vector<std::unique_ptr<Notification>> queued(kRequests);
  for (auto& q : queued) q = std::make_unique<Notification>();
  std::thread server([&] {
    for (int i = 0; i < kRequests; ++i) {
      queued[i]->WaitForNotification();
      handed[i]->value = i + 1;
      handed[i]->done.Notify();  // handed[i] may be gone after this
    }
  });
  for (int i = 0; i < kRequests; ++i) {
    auto request = std::make_unique<Request>();
    handed[i] = request.get();
    queued[i]->Notify();
    request->done.WaitForNotification();
    EXPECT_EQ(request->value, i + 1);
  }
  server.join();
}

}  // namespace
}  // namespace renju
