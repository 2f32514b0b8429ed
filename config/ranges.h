// Ranges that a config field shares with the struct it becomes, defined
// here once so that the config check (config.h) and the struct's own
// Validate (e.g. arena/match_stats.h SprtParams, which `renju arena --sprt`
// fills from flags) accept the same values.
#ifndef RENJU_CONFIG_RANGES_H_
#define RENJU_CONFIG_RANGES_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace renju {

// An SPRT error rate (alpha or beta) lies strictly between 0 and 1/2: at 0
// the bounds are infinite, at 1/2 both are 0 and the first pair decides.
inline bool SprtErrorRateInRange(double rate) { return rate > 0 && rate < 0.5; }

// InvalidArgument "<name> = <rate> is outside (0, 0.5)" unless in range.
inline absl::Status CheckSprtErrorRate(absl::string_view name, double rate) {
  if (SprtErrorRateInRange(rate)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(name, " = ", rate, " is outside (0, 0.5)"));
}

}  // namespace renju

#endif  // RENJU_CONFIG_RANGES_H_
