// Ratings of every generation from its matches (MatchResult):
// the maximum-likelihood Elo of the logistic (Bradley-Terry) model with
// draws counted as half points, with a 95% interval from the curvature of
// the likelihood at its maximum.
//
// The scale: without anchors, generation 0 is held at 0 Elo. With anchors
// (config arena.anchors: fixed players such as the tactical brain, a frozen
// checkpoint or an external engine), the anchors with a fixed elo are held
// there, anchors without one are fitted like generations, and generation 0
// is an ordinary player; ratings then mean the same in every run.
//
// Matches are often one-sided early in a run (a 20-0 gating match has no
// finite maximum), so by default every pair of players that met gets one
// virtual drawn game, BayesElo's "prior" in its simplest form; with
// prior_draws = 0 the estimate is the plain maximum likelihood and a
// one-sided record is an error.
//
// Only players connected through matches to a held player can be rated;
// the others are listed as unrated.
#ifndef RENJU_ARENA_RATINGS_H_
#define RENJU_ARENA_RATINGS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/arena_summary.h"
#include "proto/config.pb.h"

namespace renju {

// One match from generation_a's view. Player B is generation_b, or the
// anchor named anchor_b when that is not empty (generation_b is then -1).
struct MatchResult {
  int64_t id = 0;  // assigned by AddMatch, from 1
  int64_t generation_a = 0;
  int64_t generation_b = 0;
  std::string anchor_b;
  int64_t wins = 0;
  int64_t draws = 0;
  int64_t losses = 0;
  std::array<int64_t, 5> pentanomial{};
  double elo = 0;  // the match's own estimate, A minus B
  double elo_error = 0;
  std::string decision;  // SPRT: "continue", "H0", "H1"; empty without
  std::string summary_json;
  int64_t finished_unix_ms = 0;

  int64_t games() const { return wins + draws + losses; }
};

// The result of an arena match between two generations.
MatchResult MatchResultFromSummary(const ArenaSummary& summary,
                                   int64_t generation_a, int64_t generation_b,
                                   int64_t finished_unix_ms);
// The result of an arena match between a generation (A) and an anchor.
MatchResult AnchorMatchResultFromSummary(const ArenaSummary& summary,
                                         int64_t generation_a,
                                         const std::string& anchor_b,
                                         int64_t finished_unix_ms);

// An anchor player of the ratings, by the name its matches carry.
struct RatingAnchor {
  std::string name;
  std::optional<double> elo;  // held here; nullopt: fitted
};

struct RatingOptions {
  // Held at 0 Elo when `anchors` is empty; otherwise unused.
  int64_t anchor_generation = 0;
  // Virtual draws added to each pair of players that played, >= 0.
  double prior_draws = 1.0;
  // When not empty, at least one has an elo (see the file comment). An
  // anchor that appears in the matches but not here is fitted.
  std::vector<RatingAnchor> anchors;
};

// One rated player: a generation, or an anchor when `anchor` is not empty.
struct Rating {
  int64_t generation = 0;  // -1 for an anchor
  std::string anchor;      // the anchor's name; "" for a generation
  bool fixed = false;      // held at its elo (the scale's anchor)
  double elo = 0;
  double elo_error = 0;  // half-width of the 95% interval; 0 when fixed
  int64_t games = 0;     // real games in the rated matches
  double points = 0;     // wins + draws / 2 in those games
  // From the model registry when known (AttachModels), else 0 / "".
  int64_t created_unix_ms = 0;
  int64_t training_step = 0;
  int64_t games_seen = 0;  // self-play games stored when it was published
  std::string status;
  // The rule that decided its gating verdict (arena/gating.h GateRuleName:
  // "sprt", "promote_score", ...), from the registry's match summary; ""
  // when unknown.
  std::string decided_by;
};

struct RatingTable {
  // The generation held at 0 Elo; -1 when anchors set the scale.
  int64_t anchor_generation = 0;
  // Generations by number; holds anchor_generation when it is >= 0.
  std::vector<Rating> ratings;
  // Rated anchors: those of the options in their order (the fixed ones
  // always), then others met in the matches, by name.
  std::vector<Rating> anchors;
  std::vector<int64_t> unrated;  // met nobody connected to a held player
  std::vector<std::string> unrated_anchors;
};

// The anchors of a valid config (arena.anchors), in its order.
std::vector<RatingAnchor> RatingAnchorsOf(const pb::ArenaConfig& arena);

// Fits the ratings. Errors: a negative prior_draws; anchors none of which
// has an elo; with prior_draws = 0, a player with only wins or only losses
// (no finite maximum).
absl::StatusOr<RatingTable> ComputeRatings(
    const std::vector<MatchResult>& matches, const RatingOptions& options = {});

}  // namespace renju

#endif  // RENJU_ARENA_RATINGS_H_
