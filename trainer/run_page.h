// A training run's page (web/run.html): served by `renju trainer --http
// ADDR` while the run goes on (and so by `renju train`, which prints its
// address), or by `renju serve --http ADDR --run-dir DIR` for a run folder
// after the fact. It reads what the trainer writes into the run folder:
//
//   ratings.json   generations with Elo and 95% intervals on the run's scale
//                  (the anchors' when the config has anchors), the anchors,
//                  each generation's creation time and games seen
//   training.csv   the losses by step (plots.h)
//   matches/gen<N>-vs-<opponent>/game-NNNNN.game
//                  the rating and anchor matches' games (arena/arena.h)
//
// plus, in the trainer, its live status (games stored, step, losses). The
// JSON API (GET only; the page polls it):
//
//   GET /api/run -> {"run": folder name, "live": {...} or null,
//       "generations": [{"generation", "elo", "elo_error", "games",
//                        "points", "status", "decided_by" (the gating
//                        rule: "sprt", "promote_score", ...), "training_step",
//                        "created_unix_ms", "games_seen",
//                        "games_per_minute"}, ...],
//       "unrated": [generations], "anchors": [{"name", "elo", "elo_error",
//       "games", "points", "fixed"}, ...], "losses": [{"step",
//       "policy_loss", "value_loss"}, ...] (at most kMaxLossPoints),
//       "matches": [{"name", "generation", "opponent", "games"}, ...]
//       (newest generation first, its rating match before its anchor
//       matches), "problems": ["what could not be read", ...]}
//   GET /api/run/match?name=gen3-vs-gen2 -> {"name", "a", "b",
//       "games": [{"index", "size", "black", "white", "moves": [...],
//                  "result", "end_reason"}, ...]}
//
// A file that is missing is normal early in a run (no ratings before the
// first match); one that cannot be read is named in "problems" and the
// rest is served. A match name that is not a match folder's gets 400 or
// 404 with a JSON error.
#ifndef RENJU_TRAINER_RUN_PAGE_H_
#define RENJU_TRAINER_RUN_PAGE_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "proto/trainer.pb.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace renju {

// The most loss points /api/run sends; a longer log is thinned evenly
// (its last row always kept).
inline constexpr size_t kMaxLossPoints = 400;

// The trainer's figures now, for a run in progress.
struct RunLiveStatus {
  pb::TrainerStatus status;
  // Over the last minutes the page was watching; absent until it has
  // watched for a while.
  std::optional<double> games_per_minute;
};

// The answer to /api/run for the run folder `run_dir`; `live` is null for
// a folder read after the fact.
nlohmann::ordered_json RunJson(const std::string& run_dir,
                               const RunLiveStatus* live);

// The answer to /api/run/match. INVALID_ARGUMENT for a name that is not of
// the form gen<N>-vs-<opponent> (letters, digits, '-', '_', '.'), NOT_FOUND
// when the run has no such match.
absl::StatusOr<nlohmann::ordered_json> MatchJson(const std::string& run_dir,
                                                 const std::string& name);

struct RunPageOptions {
  std::string run_dir;
  // The trainer's live status; empty for a run folder read after the fact.
  std::function<pb::TrainerStatus()> status;
};

// Adds GET /api/run and /api/run/match to `server`, before its page route.
void AddRunPageRoutes(httplib::Server& server, RunPageOptions options);

}  // namespace renju

#endif  // RENJU_TRAINER_RUN_PAGE_H_
