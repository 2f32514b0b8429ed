// RequestLimiter (inference/request_limiter.h): the per-client and total
// caps on concurrent searches, and slots coming back with their leases.
#include "inference/request_limiter.h"

#include <optional>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(RequestLimiterTest, CapsEachClientAndLeavesOthersTheirShare) {
  RequestLimiter limiter(/*per_client=*/2, /*total=*/10);
  std::optional<RequestLimiter::Lease> a1 = limiter.TryAcquire("a");
  std::optional<RequestLimiter::Lease> a2 = limiter.TryAcquire("a");
  ASSERT_TRUE(a1 && a2);
  EXPECT_FALSE(limiter.TryAcquire("a")) << "a third search for client a";
  std::optional<RequestLimiter::Lease> b = limiter.TryAcquire("b");
  EXPECT_TRUE(b) << "client b waits on client a";
  EXPECT_EQ(limiter.InFlight("a"), 2);
  EXPECT_EQ(limiter.InFlight(), 3);
  a1.reset();
  EXPECT_EQ(limiter.InFlight("a"), 1);
  EXPECT_TRUE(limiter.TryAcquire("a")) << "a's freed slot is back";
}

TEST(RequestLimiterTest, CapsAllClientsTogether) {
  RequestLimiter limiter(/*per_client=*/2, /*total=*/3);
  std::vector<RequestLimiter::Lease> leases;
  for (const char* client : {"a", "b", "c"}) {
    std::optional<RequestLimiter::Lease> lease = limiter.TryAcquire(client);
    ASSERT_TRUE(lease) << client;
    leases.push_back(std::move(*lease));
  }
  EXPECT_FALSE(limiter.TryAcquire("d")) << "over the total";
  EXPECT_EQ(limiter.InFlight("d"), 0);
  leases.clear();
  EXPECT_EQ(limiter.InFlight(), 0);
  EXPECT_TRUE(limiter.TryAcquire("d"));
}

TEST(RequestLimiterTest, AMovedLeaseReleasesOnce) {
  RequestLimiter limiter(1, 1);
  {
    std::optional<RequestLimiter::Lease> first = limiter.TryAcquire("a");
    ASSERT_TRUE(first);
    RequestLimiter::Lease moved = std::move(*first);
    first.reset();  // the moved-from lease frees nothing
    EXPECT_EQ(limiter.InFlight(), 1);
    EXPECT_FALSE(limiter.TryAcquire("b"));
  }
  EXPECT_EQ(limiter.InFlight(), 0);
}

}  // namespace
}  // namespace renju
