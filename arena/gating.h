// Matches between model checkpoints as the run config describes them
// (config.arena: games, concurrency, search, SPRT, promotion threshold),
// and the gating decision the trainer makes after each generation: the
// candidate plays the current best and is promoted when the SPRT accepts
// that it is stronger, or, without an SPRT decision, when its score reaches
// arena.promote_score. With arena.gating off every candidate is promoted
// without a match (AlphaZero).
#ifndef RENJU_ARENA_GATING_H_
#define RENJU_ARENA_GATING_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "arena/arena.h"
#include "arena/arena_summary.h"
#include "proto/config.pb.h"

namespace renju {

struct CheckpointMatchOptions {
  // Games (game-NNNNN.game/.psq) and summary.json go here; empty: nowhere.
  std::string out_dir;
  uint64_t seed = 1;
  const std::atomic<bool>* stop = nullptr;  // not owned; may be null
  // Called after each completed pair (arena.h); may be empty.
  std::function<void(const ArenaSummary&)> on_pair;
};

// The match settings of a valid config: its variant and board size, the 26
// canonical openings (oriented by `seed`), arena.games,
// arena.concurrent_games, the SPRT of arena.sprt_*, and selfplay.max_plies
// as the move cap.
ArenaOptions ArenaOptionsFrom(const pb::RunConfig& config, uint64_t seed);

// Plays checkpoint `a` (player A) against `b` with arena.search, each
// model on its own evaluator (selfplay.evaluator settings; one shared
// evaluator when both paths are equal). An empty path is a fresh network
// seeded by options.seed. Errors: a checkpoint that cannot be loaded or
// does not fit the config, the match's own errors (arena.h).
absl::StatusOr<ArenaSummary> RunCheckpointMatch(
    const pb::RunConfig& config, const std::string& a, const std::string& b,
    const CheckpointMatchOptions& options);

// Checkpoint `path` as a player with arena.search on its own evaluator
// (selfplay.evaluator settings); an empty path is a fresh network seeded by
// `seed`. Errors: a checkpoint that cannot be loaded or does not fit.
absl::StatusOr<std::unique_ptr<ModelPlayer>> MakeCheckpointPlayer(
    const pb::RunConfig& config, const std::string& path, uint64_t seed);

// Plays `a` against `b` under `arena` with options.out_dir, options.stop
// and options.on_pair (options.seed is not used: `arena` has its own), and
// writes summary.json into out_dir when it is set.
absl::StatusOr<ArenaSummary> RunMatchAndSave(
    ArenaOptions arena, ArenaPlayer& a, ArenaPlayer& b,
    const CheckpointMatchOptions& options);

// With arena.gating on, an error unless a match of arena.games games can
// end the SPRT of arena.sprt_* both ways (SprtMinimumPairs): one that
// cannot always falls through to promote_score. The error names the
// fields, the LLR range the games reach and the smallest arena.games that
// can decide. OK with gating off.
absl::Status CheckGatingCanDecide(const pb::ArenaConfig& arena);

// Which rule decided a gating verdict.
enum class GateRule { kGatingOff, kSprt, kPromoteScore, kInterrupted };
// "gating_off", "sprt", "promote_score", "interrupted".
std::string GateRuleName(GateRule rule);

struct GateResult {
  bool promote = true;
  bool played = false;  // false with gating off
  GateRule rule = GateRule::kGatingOff;
  std::string reason;        // e.g. "SPRT accepted H1 (LLR 3.05 >= 2.94)"
  ArenaSummary summary;      // A = the candidate; empty when not played
  std::string summary_json;  // ArenaSummaryJson; empty when not played
};

// Promote on SPRT H1, reject on H0 (rule kSprt), else, at the most games,
// promote iff the candidate's (player A's) score is at least
// arena.promote_score (kPromoteScore). An interrupted match never promotes.
GateResult GateDecision(const ArenaSummary& summary,
                        const pb::ArenaConfig& arena);

// The summary JSON (ArenaSummaryJson) with "gate": {promote, rule,
// reason} added; for the model registry's match_summary.
std::string GateResultJson(const GateResult& result);

// The candidate against the best, decided by GateDecision; with
// arena.gating off, promotes without playing. Errors: CheckGatingCanDecide,
// the match's.
absl::StatusOr<GateResult> RunGatingMatch(
    const pb::RunConfig& config, const std::string& candidate_checkpoint,
    const std::string& best_checkpoint, const CheckpointMatchOptions& options);

}  // namespace renju

#endif  // RENJU_ARENA_GATING_H_
