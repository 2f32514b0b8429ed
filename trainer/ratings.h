// Ratings of every generation from every stored match (match_store.h):
// the maximum-likelihood Elo of the logistic (Bradley-Terry) model with
// draws counted as half points, anchored at generation 0 = 0 Elo, with a
// 95% interval from the curvature of the likelihood at its maximum.
//
// Matches are often one-sided early in a run (a 20-0 gating match has no
// finite maximum), so by default every pair of generations that met gets
// one virtual drawn game, BayesElo's "prior" in its simplest form; with
// prior_draws = 0 the estimate is the plain maximum likelihood and a
// one-sided record is an error.
//
// Only generations connected to the anchor through matches can be rated;
// the others are listed as unrated.
#ifndef RENJU_TRAINER_RATINGS_H_
#define RENJU_TRAINER_RATINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"

namespace renju {

struct RatingOptions {
  int64_t anchor_generation = 0;
  // Virtual draws added to each pair of generations that played, >= 0.
  double prior_draws = 1.0;
};

struct Rating {
  int64_t generation = 0;
  double elo = 0;        // relative to the anchor
  double elo_error = 0;  // half-width of the 95% interval; 0 for the anchor
  int64_t games = 0;     // real games in the rated matches
  double points = 0;     // wins + draws / 2 in those games
  // From the model registry when known (AttachModels), else 0 / "".
  int64_t created_unix_ms = 0;
  int64_t training_step = 0;
  std::string status;
};

struct RatingTable {
  int64_t anchor_generation = 0;
  std::vector<Rating> ratings;   // by generation; always holds the anchor
  std::vector<int64_t> unrated;  // met nobody connected to the anchor
};

// Fits the ratings. Errors: a negative prior_draws; with prior_draws = 0,
// a generation with only wins or only losses (no finite maximum).
absl::StatusOr<RatingTable> ComputeRatings(
    const std::vector<MatchResult>& matches, const RatingOptions& options = {});

// Copies creation time, training step and status from the registry into
// the rated rows; registered generations without a rating join `unrated`.
void AttachModels(const std::vector<ModelEntry>& models, RatingTable& table);

// Writes each rated generation's Elo into models.elo (rows not in the
// registry are skipped).
absl::Status StoreRatings(GameStore& store, const RatingTable& table);

// A text table for logs, one generation a row:
//   gen      elo   ±95%  games  score   step  hours  status
std::string RatingsText(const RatingTable& table);
// CSV with the header
//   generation,elo,elo_error,games,points,training_step,created_unix_ms,status
std::string RatingsCsv(const RatingTable& table);
// {"anchor_generation": 0, "ratings": [{generation, elo, elo_error, games,
//  points, training_step, created_unix_ms, status}, ...], "unrated": [...]}
std::string RatingsJson(const RatingTable& table);

// What the trainer runs after each match: reads every match and model,
// fits, stores models.elo, and writes ratings.csv and ratings.json into
// `dir` (created if needed). Returns the table (with registry fields).
absl::StatusOr<RatingTable> UpdateRatings(GameStore& store, MatchStore& matches,
                                          const std::string& dir,
                                          const RatingOptions& options = {});

}  // namespace renju

#endif  // RENJU_TRAINER_RATINGS_H_
