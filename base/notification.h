// A one-shot signal from one thread to others, in the shape of
// absl::Notification but made of std::mutex and std::condition_variable.
// ThreadSanitizer sees the hand-off these make; it cannot see inside
// Debian's Abseil (not built with TSan), so after an absl::Notification
// every read of what the notifier wrote looks like a race to it.
//
// Used for a request that lives on its caller's stack while a server thread
// fills it in (the batched and remote evaluators), and as a sleep that
// another thread can cut short.
#ifndef RENJU_BASE_NOTIFICATION_H_
#define RENJU_BASE_NOTIFICATION_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace renju {

class Notification {
 public:
  Notification() = default;
  Notification(const Notification&) = delete;
  Notification& operator=(const Notification&) = delete;

  // Releases every waiter, now and later. Idempotent. Everything the
  // notifier wrote before this is visible to a waiter after its wait.
  void Notify() {
    std::lock_guard<std::mutex> lock(mutex_);
    notified_ = true;
    // Signal before unlocking: a waiter that sees notified_ may destroy this
    // object at once, so nothing may touch it after the unlock.
    cv_.notify_all();
  }

  bool HasBeenNotified() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return notified_;
  }

  void WaitForNotification() const {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return notified_; });
  }

  // Waits until notified or `timeout` has passed; true when notified.
  template <typename Rep, typename Period>
  bool WaitForNotificationWithTimeout(
      std::chrono::duration<Rep, Period> timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [this] { return notified_; });
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  bool notified_ = false;  // guarded by mutex_
};

}  // namespace renju

#endif  // RENJU_BASE_NOTIFICATION_H_
