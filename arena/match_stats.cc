#include "arena/match_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "config/ranges.h"

namespace renju {
namespace {

constexpr double kEmptyCell = 1e-3;

// The pair results as a probability distribution on scores a_i = i / 4
// (pair score rescaled to [0, 1]), with empty cells regularised.
struct PairDistribution {
  double n = 0;  // pairs
  std::array<double, 5> score{};
  std::array<double, 5> prob{};
};

PairDistribution ToDistribution(const Pentanomial& p) {
  PairDistribution d;
  std::array<double, 5> counts;
  for (int i = 0; i < 5; ++i) {
    counts[i] = p.counts[i] > 0 ? static_cast<double>(p.counts[i]) : kEmptyCell;
    d.n += counts[i];
  }
  for (int i = 0; i < 5; ++i) {
    d.score[i] = i / 4.0;
    d.prob[i] = counts[i] / d.n;
  }
  return d;
}

// The distribution closest to `d` (maximum likelihood) whose mean is s:
// p_i / (1 + x (a_i - s)), where x solves sum p_i (a_i - s) / (1 + x (a_i -
// s)) = 0 on the interval that keeps every denominator positive.
std::array<double, 5> MleWithMean(const PairDistribution& d, double s) {
  double lo_shift = 0, hi_shift = 0;
  for (int i = 0; i < 5; ++i) {
    lo_shift = std::min(lo_shift, d.score[i] - s);
    hi_shift = std::max(hi_shift, d.score[i] - s);
  }
  const double eps = 1e-9;
  double lo = -1 / hi_shift + eps;
  double hi = -1 / lo_shift - eps;
  auto f = [&](double x) {
    double sum = 0;
    for (int i = 0; i < 5; ++i) {
      const double a = d.score[i] - s;
      sum += d.prob[i] * a / (1 + x * a);
    }
    return sum;
  };
  // f decreases in x: bisection.
  for (int iter = 0; iter < 200; ++iter) {
    const double mid = 0.5 * (lo + hi);
    if ((f(lo) > 0) == (f(mid) > 0)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const double x = 0.5 * (lo + hi);
  std::array<double, 5> out;
  for (int i = 0; i < 5; ++i) out[i] = d.prob[i] / (1 + x * (d.score[i] - s));
  return out;
}

}  // namespace

void Pentanomial::AddPair(double first_game_score, double second_game_score) {
  const int half_points =
      static_cast<int>(std::lround(2 * (first_game_score + second_game_score)));
  counts[std::clamp(half_points, 0, 4)] += 1;
}

int64_t Pentanomial::pairs() const {
  return std::accumulate(counts.begin(), counts.end(), int64_t{0});
}

double EloToScore(double elo) { return 1 / (1 + std::pow(10, -elo / 400)); }

double ScoreToElo(double score) {
  score = std::clamp(score, kScoreCap, 1 - kScoreCap);
  return -400 * std::log10(1 / score - 1);
}

std::pair<double, double> WilsonInterval(double score, double games) {
  if (games <= 0) return {0, 1};
  const double z2 = kZ95 * kZ95;
  const double centre = (score + z2 / (2 * games)) / (1 + z2 / games);
  const double half =
      kZ95 / (1 + z2 / games) *
      std::sqrt(score * (1 - score) / games + z2 / (4 * games * games));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

EloEstimate EstimateElo(const Pentanomial& p) {
  const PairDistribution d = ToDistribution(p);
  // Per game: a pair of two games scores i/2 points in all.
  const double games = 2 * d.n;
  double points = 0;
  for (int i = 0; i < 5; ++i) points += d.prob[i] * d.n * (i / 2.0);
  const double mu = points / games;
  double var = 0;
  for (int i = 0; i < 5; ++i) {
    const double dev = i / 2.0 - 2 * mu;
    var += d.prob[i] * d.n * dev * dev;
  }
  var /= games;
  const double sd = std::sqrt(var / games);
  double low = mu - kZ95 * sd;
  double high = mu + kZ95 * sd;
  double los =
      sd > 0 ? 0.5 * (1 + std::erf((mu - 0.5) / sd / std::sqrt(2.0))) : 0.5;

  const int64_t pairs = p.pairs();
  const int cells = static_cast<int>(std::count_if(
      p.counts.begin(), p.counts.end(), [](int64_t c) { return c > 0; }));
  EloEstimate e;
  e.conservative = pairs > 0 && (pairs < kSmallSamplePairs || cells < 2);
  if (e.conservative) {
    // The score over the real games, without the regularised cells.
    double real_points = 0;
    for (int i = 0; i < 5; ++i) real_points += p.counts[i] * (i / 2.0);
    const double n = 2.0 * pairs;
    const double score = real_points / n;
    const auto [w_low, w_high] = WilsonInterval(score, n);
    low = std::min(low, w_low);
    high = std::max(high, w_high);
    const double score_los =
        0.5 * (1 + std::erf((score - 0.5) * std::sqrt(4 * n) / std::sqrt(2.0)));
    if (std::abs(score_los - 0.5) < std::abs(los - 0.5)) los = score_los;
  }
  e.score = mu;
  e.elo = ScoreToElo(mu);
  e.elo_low = ScoreToElo(low);
  e.elo_high = ScoreToElo(high);
  e.low_unbounded = low <= kScoreCap;
  e.high_unbounded = high >= 1 - kScoreCap;
  e.elo_error = (e.elo_high - e.elo_low) / 2;
  e.los = los;
  return e;
}

std::string EloIntervalText(const EloEstimate& e, int digits) {
  // Rounded first, so that -1e-14 prints as +0, not -0.
  const double scale = std::pow(10.0, digits);
  auto rounded = [&](double x) { return std::round(x * scale) / scale + 0.0; };
  if (e.low_unbounded && e.high_unbounded) return "unbounded";
  if (e.high_unbounded) {
    return absl::StrFormat(">= %+.*f", digits, rounded(e.elo_low));
  }
  if (e.low_unbounded) {
    return absl::StrFormat("<= %+.*f", digits, rounded(e.elo_high));
  }
  return absl::StrFormat("%+.*f ± %.*f", digits, rounded(e.elo), digits,
                         e.elo_error);
}

absl::Status SprtParams::Validate() const {
  if (!(elo0 < elo1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sprt: elo0 (", elo0, ") must be below elo1 (", elo1, ")"));
  }
  if (absl::Status s = CheckSprtErrorRate("sprt: alpha", alpha); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSprtErrorRate("sprt: beta", beta); !s.ok()) {
    return s;
  }
  return absl::OkStatus();
}

double SprtParams::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper_bound() const { return std::log((1 - beta) / alpha); }

std::string SprtDecisionName(SprtDecision d) {
  switch (d) {
    case SprtDecision::kContinue:
      return "continue";
    case SprtDecision::kAcceptH0:
      return "H0";
    case SprtDecision::kAcceptH1:
      return "H1";
  }
  return "?";
}

double SprtLlr(const Pentanomial& p, const SprtParams& params) {
  if (p.pairs() == 0) return 0;
  const PairDistribution d = ToDistribution(p);
  const std::array<double, 5> p0 = MleWithMean(d, EloToScore(params.elo0));
  const std::array<double, 5> p1 = MleWithMean(d, EloToScore(params.elo1));
  double llr = 0;
  for (int i = 0; i < 5; ++i) llr += d.prob[i] * std::log(p1[i] / p0[i]);
  return d.n * llr;
}

SprtDecision SprtDecide(double llr, const SprtParams& params) {
  if (llr >= params.upper_bound()) return SprtDecision::kAcceptH1;
  if (llr <= params.lower_bound()) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

std::pair<double, double> SprtLlrExtremes(const SprtParams& params,
                                          int64_t pairs) {
  return {SprtLlr(Pentanomial{{0, 0, 0, 0, pairs}}, params),
          SprtLlr(Pentanomial{{pairs, 0, 0, 0, 0}}, params)};
}

int64_t SprtMinimumPairs(const SprtParams& params, int64_t max_pairs) {
  auto decides = [&](int64_t pairs) {
    const auto [won, lost] = SprtLlrExtremes(params, pairs);
    return SprtDecide(won, params) == SprtDecision::kAcceptH1 &&
           SprtDecide(lost, params) == SprtDecision::kAcceptH0;
  };
  if (max_pairs < 1 || !decides(max_pairs)) return 0;
  // Both extremes move away from 0 with every pair: bisect.
  int64_t lo = 0, hi = max_pairs;  // !decides(lo) (or lo = 0), decides(hi)
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (decides(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace renju
