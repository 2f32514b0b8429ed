// The trainer's side of the ratings (the fit is arena/ratings.h): the
// registry's fields attached to the rated rows, models.elo in SQLite, the
// text, CSV and JSON exports, and UpdateRatings, which the trainer runs
// after each match.
#ifndef RENJU_TRAINER_RATINGS_H_
#define RENJU_TRAINER_RATINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/ratings.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"

namespace renju {

// Copies creation time, training step, games seen, status and the gating
// rule that decided it (Rating::decided_by) from the registry into the
// rated rows; registered generations without a rating
// join `unrated`.
void AttachModels(const std::vector<ModelEntry>& models, RatingTable& table);

// Writes each rated generation's Elo into models.elo (rows not in the
// registry are skipped).
absl::Status StoreRatings(GameStore& store, const RatingTable& table);

// A text table for logs, one generation a row:
//   gen      elo   ±95%  games  score   step  hours  status
// (status followed by the deciding rule, e.g. "best (sprt)", when known)
// then, with anchors, one anchor a row ("fixed" in the ±95% column):
//   anchor              elo   ±95%  games  score
std::string RatingsText(const RatingTable& table);
// One line for the trainer's log after each match, whose length does not
// grow with the run (the whole table is in ratings.csv):
//   "12 generations rated, best 11 +345 ± 40, newest 12 +330 ± 45;
//    unrated 13; 3 anchors"
// (the unrated and anchors parts only when there are any).
std::string RatingsSummary(const RatingTable& table);
// CSV with the header
//   generation,elo,elo_error,games,points,training_step,created_unix_ms,
//   status,anchor
// a row per generation (anchor empty), then a row per anchor: generation,
// training_step and created_unix_ms empty, status "fixed" or "fitted",
// anchor its name.
std::string RatingsCsv(const RatingTable& table);
// {"anchor_generation": 0 (null with anchors),
//  "ratings": [{generation, elo, elo_error, games, points, training_step,
//               created_unix_ms, games_seen, status, decided_by}, ...],
//  "anchors": [{name, elo, elo_error, games, points, fixed}, ...],
//  "unrated": [generations], "unrated_anchors": [names]}
std::string RatingsJson(const RatingTable& table);

// What the trainer runs after each match: reads every match and model,
// fits, stores models.elo, and writes ratings.csv and ratings.json into
// `dir` (created if needed). Returns the table (with registry fields).
absl::StatusOr<RatingTable> UpdateRatings(GameStore& store, MatchStore& matches,
                                          const std::string& dir,
                                          const RatingOptions& options = {});

}  // namespace renju

#endif  // RENJU_TRAINER_RATINGS_H_
