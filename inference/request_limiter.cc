#include "inference/request_limiter.h"

#include <utility>

namespace renju {

RequestLimiter::Lease::Lease(Lease&& other) noexcept
    : limiter_(std::exchange(other.limiter_, nullptr)),
      client_(std::move(other.client_)) {}

RequestLimiter::Lease::~Lease() {
  if (limiter_ != nullptr) limiter_->Release(client_);
}

RequestLimiter::RequestLimiter(int per_client, int total)
    : per_client_(per_client), total_(total) {}

std::optional<RequestLimiter::Lease> RequestLimiter::TryAcquire(
    const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (total_in_flight_ >= total_) return std::nullopt;
  int& mine = in_flight_[client];
  if (mine >= per_client_) return std::nullopt;
  ++mine;
  ++total_in_flight_;
  return Lease(this, client);
}

void RequestLimiter::Release(const std::string& client) {
  std::lock_guard<std::mutex> lock(mutex_);
  --total_in_flight_;
  auto it = in_flight_.find(client);
  if (--it->second == 0) in_flight_.erase(it);  // no key outlives its calls
}

int RequestLimiter::InFlight(const std::string& client) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_flight_.find(client);
  return it == in_flight_.end() ? 0 : it->second;
}

int RequestLimiter::InFlight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_in_flight_;
}

}  // namespace renju
