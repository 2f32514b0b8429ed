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
#include <utility>

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

// The Elo scale ends at scores kScoreCap and 1 - kScoreCap (+-1199.8 Elo):
// an interval that reaches an end is unbounded on that side.
inline constexpr double kScoreCap = 1e-3;

// Below this many pairs, or with every pair in one cell, the pentanomial's
// plug-in variance is not to be trusted (it is near 0 for 20 drawn pairs),
// and the interval and LOS are the more conservative of the pentanomial's
// and the score test's over the games (Wilson; see EstimateElo).
inline constexpr int64_t kSmallSamplePairs = 30;

struct EloEstimate {
  double score = 0.5;          // mean score per game of the first player
  double elo = 0;              // Elo difference, first minus second
  double elo_error = 0;        // half-width of the 95% interval (caps included)
  double elo_low = 0;          // the end of the scale when low_unbounded
  double elo_high = 0;         // the end of the scale when high_unbounded
  bool low_unbounded = false;  // the interval reaches the end of the scale
  bool high_unbounded = false;
  double los = 0.5;  // likelihood of superiority
  // True when the small-sample rule (kSmallSamplePairs) chose the interval.
  bool conservative = false;
};

// Elo from pair results; empty cells are regularised to 1e-3 pairs as
// fishtest does. The interval is the pentanomial's (fishtest
// stat_util.get_elo: score +- 1.96 sd of the pair scores); for a small or
// degenerate sample (kSmallSamplePairs) it is widened to cover the Wilson
// score interval on the 2n games, and the LOS is the one nearer 1/2 of the
// pentanomial's and the score test's, Phi((score - 1/2) sqrt(8n))
// (the test whose inversion is Wilson's interval).
EloEstimate EstimateElo(const Pentanomial& p);

// The Wilson score interval for `score` over `games` trials at z = kZ95:
// (p + z^2/2n +- z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n).
std::pair<double, double> WilsonInterval(double score, double games);

// "+88 ± 120" for a bounded interval, ">= -113" / "<= +113" for one
// unbounded side, "unbounded" for both; digits after the point as given.
std::string EloIntervalText(const EloEstimate& e, int digits);

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

// The LLR of `pairs` pairs all won (first) and all lost (second): the
// largest and smallest LLR of any result of that many pairs.
std::pair<double, double> SprtLlrExtremes(const SprtParams& params,
                                          int64_t pairs);
// The fewest pairs after which the SPRT can decide both ways (all won
// reaches the upper bound, all lost the lower one); 0 when `max_pairs`
// pairs cannot.
int64_t SprtMinimumPairs(const SprtParams& params, int64_t max_pairs);

}  // namespace renju

#endif  // RENJU_ARENA_MATCH_STATS_H_
