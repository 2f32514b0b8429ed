// Caps on concurrent searches: at most `per_client` at once for any one
// client key and `total` for all together. A request over either cap is
// refused at once (the service answers RESOURCE_EXHAUSTED, the HTTP API
// 429) rather than queued, so one client cannot fill the server's search
// threads while others wait. Thread-safe.
#ifndef RENJU_INFERENCE_REQUEST_LIMITER_H_
#define RENJU_INFERENCE_REQUEST_LIMITER_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"

namespace renju {

class RequestLimiter {
 public:
  // One admitted search; ends (frees its slot) when destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();

   private:
    friend class RequestLimiter;
    Lease(RequestLimiter* limiter, std::string client)
        : limiter_(limiter), client_(std::move(client)) {}
    RequestLimiter* limiter_;  // null once moved from
    std::string client_;
  };

  RequestLimiter(int per_client, int total);

  // A lease for one search by `client`; nullopt when `client` already holds
  // `per_client` or all clients together hold `total`.
  std::optional<Lease> TryAcquire(const std::string& client);

  int InFlight(const std::string& client) const;
  int InFlight() const;

 private:
  void Release(const std::string& client);

  const int per_client_;
  const int total_;
  // A standard mutex, not Abseil's: ThreadSanitizer cannot see inside
  // Debian's uninstrumented Abseil (base/notification.h).
  mutable std::mutex mutex_;
  std::map<std::string, int> in_flight_ ABSL_GUARDED_BY(mutex_);
  int total_in_flight_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace renju

#endif  // RENJU_INFERENCE_REQUEST_LIMITER_H_
