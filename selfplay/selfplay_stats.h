// `renju selfplay-stats`: a summary of a directory of self-play games
// (results, plies, training positions, resignation checks, openings and
// model generations).
#ifndef RENJU_SELFPLAY_SELFPLAY_STATS_H_
#define RENJU_SELFPLAY_SELFPLAY_STATS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace renju {

// Prints the summary of the games in `dir` to stdout and a line on stderr
// for each unreadable game; returns how many were unreadable.
absl::StatusOr<int64_t> PrintSelfplayStats(const std::string& dir);

}  // namespace renju

#endif  // RENJU_SELFPLAY_SELFPLAY_STATS_H_
