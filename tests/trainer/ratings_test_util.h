// Helpers shared by the ratings tests (ratings_test.cc and
// ratings_store_test.cc): the Elo of a score, match results, a generation's
// rating, and rating options.
#ifndef RENJU_TESTS_TRAINER_RATINGS_TEST_UTIL_H_
#define RENJU_TESTS_TRAINER_RATINGS_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "trainer/ratings.h"

namespace renju::testing {

// 400 log10(s / (1 - s)): the Elo difference of expected score s.
inline double Elo(double score) {
  return 400 * std::log10(score / (1 - score));
}

inline MatchResult Match(int64_t a, int64_t b, int64_t wins, int64_t draws,
                         int64_t losses) {
  MatchResult m;
  m.generation_a = a;
  m.generation_b = b;
  m.wins = wins;
  m.draws = draws;
  m.losses = losses;
  return m;
}

inline const Rating& Of(const RatingTable& table, int64_t generation) {
  for (const Rating& r : table.ratings) {
    if (r.generation == generation) return r;
  }
  ADD_FAILURE() << "no rating for generation " << generation;
  return table.ratings.front();
}

inline const RatingOptions kPlainMle{0, 0.0, {}};

inline MatchResult AnchorMatch(int64_t generation, const std::string& anchor,
                               int64_t wins, int64_t draws, int64_t losses) {
  MatchResult m = Match(generation, -1, wins, draws, losses);
  m.anchor_b = anchor;
  return m;
}

// Plain maximum likelihood with the given anchors.
inline RatingOptions WithAnchors(std::vector<RatingAnchor> anchors,
                                 double prior_draws = 0.0) {
  RatingOptions options;
  options.prior_draws = prior_draws;
  options.anchors = std::move(anchors);
  return options;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_TRAINER_RATINGS_TEST_UTIL_H_
