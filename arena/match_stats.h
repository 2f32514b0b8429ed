// Match statistics for comparing two players: Elo with a 95% interval over
// game pairs (pentanomial), and the sequential probability ratio test that
// may stop a match early. The formulas are fishtest's (stat_util.get_elo,
// LLRcalc.LLR_logistic): each opening is played twice with colours swapped,
// and a pair scores 0, 1/2, 1, 3/2 or 2 for the first player.
#ifndef RENJU_ARENA_MATCH_STATS_H_
#define RENJU_ARENA_MATCH_STATS_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace renju {

// The two-sided 95% quantile of the standard normal distribution.
inline constexpr double kZ95 = 1.959963984540054;

// Pair results from the first player's view: counts[i] pairs scored i/2
// (i = 0: lost both ... 4: won both).
struct Pentanomial {
  std::array<int64_t, 5> counts{};

  // Adds a pair given the first player's score in each game (0, 0.5, 1).
  void AddPair(double first_game_score, double second_game_score);
  int64_t pairs() const;
  int64_t games() const { return 2 * pairs(); }
};

struct EloEstimate {
  double score = 0.5;     // mean score per game of the first player
  double elo = 0;         // Elo difference, first minus second
  double elo_error = 0;   // half-width of the 95% interval
  double elo_low = 0;
  double elo_high = 0;
  double los = 0.5;       // likelihood of superiority
};

// Elo from pair results; empty cells are regularised to 1e-3 pairs as
// fishtest does, so a one-sided result still has a finite interval.
EloEstimate EstimateElo(const Pentanomial& p);

// Logistic Elo <-> expected score.
double EloToScore(double elo);
double ScoreToElo(double score);

struct SprtParams {
  double elo0 = 0;   // H0: the first player is elo0 stronger
  double elo1 = 10;  // H1: elo1 stronger
  double alpha = 0.05;
  double beta = 0.05;

  absl::Status Validate() const;
  double lower_bound() const;  // ln(beta / (1 - alpha)): accept H0 below
  double upper_bound() const;  // ln((1 - beta) / alpha): accept H1 above
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };
std::string SprtDecisionName(SprtDecision d);

// Generalised log-likelihood ratio of H1 over H0 for the pair results
// (fishtest LLR_logistic: the maximum-likelihood distributions with mean
// score s0 and s1).
double SprtLlr(const Pentanomial& p, const SprtParams& params);
SprtDecision SprtDecide(double llr, const SprtParams& params);

}  // namespace renju

#endif  // RENJU_ARENA_MATCH_STATS_H_
