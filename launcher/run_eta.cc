#include "launcher/run_eta.h"

#include <algorithm>

namespace renju {

std::optional<double> RunEtaSeconds(const RunPace& pace) {
  if (pace.published <= 0 || pace.left <= 0) return std::nullopt;
  const double per_generation = pace.last_published_seconds / pace.published;
  const double in_making =
      std::max(pace.now_seconds - pace.last_published_seconds, 0.0);
  return std::max(per_generation - in_making, 0.0) +
         per_generation * static_cast<double>(pace.left - 1);
}

}  // namespace renju
