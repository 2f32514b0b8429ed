// TimeBudgetStopper's rules (stoppers.h); the other stop rules are inline.
#include "search/stoppers.h"

#include <algorithm>
#include <limits>

namespace renju {
namespace {

// The playout rate is trusted only after this many new visits and this
// much time: the first playouts include the root's tactics and expansion.
constexpr int64_t kMinRateVisits = 20;
constexpr int64_t kMinRateMs = 10;

}  // namespace

double TimeBudgetStopper::VisitsLeft(const SearchProgress& p) const {
  double left = std::numeric_limits<double>::infinity();
  if (max_visits_ > 0) {
    left = static_cast<double>(max_visits_ - p.root_child_visits);
  }
  if (maximum_ms_ > 0) {
    const int64_t new_visits = p.root_child_visits - p.reused_visits;
    if (new_visits < kMinRateVisits || p.elapsed_ms < kMinRateMs) return left;
    const double rate = static_cast<double>(new_visits) / p.elapsed_ms;
    left = std::min(left, rate * (maximum_ms_ - p.elapsed_ms));
  }
  return left;
}

bool TimeBudgetStopper::ShouldStop(const SearchProgress& p) const {
  if (maximum_ms_ > 0 && p.elapsed_ms + p.batch_ms >= maximum_ms_) {
    return true;
  }
  // Two or more moves to choose from: the most visited one cannot change.
  if (p.num_root_moves > 1 &&
      static_cast<double>(p.best_visits - p.second_visits) > VisitsLeft(p)) {
    return true;
  }
  // Past the optimum, more time goes only to an open choice.
  return optimum_ms_ > 0 && p.elapsed_ms >= optimum_ms_ &&
         p.best_visits >= 2 * p.second_visits;
}

}  // namespace renju
