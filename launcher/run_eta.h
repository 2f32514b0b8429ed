// How long a training run has left at its pace so far, for the launcher's
// progress line (launcher.h). A pure function of what the
// launcher has seen, so that it is tested on given figures.
#ifndef RENJU_LAUNCHER_RUN_ETA_H_
#define RENJU_LAUNCHER_RUN_ETA_H_

#include <cstdint>
#include <optional>

namespace renju {

// Seconds are of this session (since the launcher started).
struct RunPace {
  double now_seconds = 0;
  // Generations published in this session, and when the newest of them was.
  int64_t published = 0;
  double last_published_seconds = 0;
  // Generations still to publish.
  int64_t left = 0;
};

// The generations left at the session's mean time per generation, less
// what the one in the making has already had (never below nothing for
// it): so the estimate only falls while nothing is published, however
// long that takes. nullopt before a generation is published or once none
// is left.
std::optional<double> RunEtaSeconds(const RunPace& pace);

}  // namespace renju

#endif  // RENJU_LAUNCHER_RUN_ETA_H_
