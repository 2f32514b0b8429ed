#include "arena/ratings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace renju {
namespace {

// d/dr of the logistic Elo curve 1 / (1 + 10^(-r / 400)) is c p (1 - p).
const double kC = std::log(10.0) / 400.0;
constexpr int kMaxNewtonSteps = 200;
constexpr double kMaxStepElo = 400;  // damping for the first steps

// A player of the fit: a generation, or an anchor by name. Generations
// sort first, by number.
struct RatedPlayer {
  int64_t generation = -1;
  std::string anchor;

  bool operator<(const RatedPlayer& o) const {
    return std::tie(anchor, generation) < std::tie(o.anchor, o.generation);
  }
  bool operator==(const RatedPlayer& o) const {
    return generation == o.generation && anchor == o.anchor;
  }
};

RatedPlayer PlayerA(const MatchResult& m) { return {m.generation_a, ""}; }
RatedPlayer PlayerB(const MatchResult& m) {
  return m.anchor_b.empty() ? RatedPlayer{m.generation_b, ""}
                            : RatedPlayer{-1, m.anchor_b};
}

std::string PlayerNames(const std::vector<RatedPlayer>& players) {
  std::vector<std::string> generations, anchors;
  for (const RatedPlayer& p : players) {
    if (p.anchor.empty()) {
      generations.push_back(absl::StrCat(p.generation));
    } else {
      anchors.push_back(p.anchor);
    }
  }
  std::string text;
  if (!generations.empty()) {
    text = absl::StrCat("generations ", absl::StrJoin(generations, ", "));
  }
  if (!anchors.empty()) {
    absl::StrAppend(&text, text.empty() ? "" : " and ", "anchors ",
                    absl::StrJoin(anchors, ", "));
  }
  return text;
}

// The players held at a given Elo, with those values: generation
// anchor_generation at 0 without anchors, else the anchors with an elo.
std::vector<std::pair<RatedPlayer, double>> HeldPlayers(
    const RatingOptions& options) {
  std::vector<std::pair<RatedPlayer, double>> held;
  if (options.anchors.empty()) {
    held.push_back({RatedPlayer{options.anchor_generation, ""}, 0.0});
  }
  for (const RatingAnchor& a : options.anchors) {
    if (a.elo.has_value()) held.push_back({RatedPlayer{-1, a.name}, *a.elo});
  }
  return held;
}

// Games and points between two rated players i < j (indices).
struct PairTally {
  int i = 0;
  int j = 0;
  double games = 0;
  double points_i = 0;  // i's points against j
};

// A symmetric positive definite n x n matrix, row-major, factored in place
// into its lower Cholesky factor. False if it is not positive definite.
bool Cholesky(std::vector<double>& a, int n) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return false;
    a[j * n + j] = std::sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / a[j * n + j];
    }
  }
  return true;
}

// Solves L L^T x = b in place, L from Cholesky.
void CholeskySolve(const std::vector<double>& l, int n,
                   std::vector<double>& b) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= l[i * n + k] * b[k];
    b[i] /= l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= l[k * n + i] * b[k];
    b[i] /= l[i * n + i];
  }
}

// The players reachable from any of `starts` along edges (a, b) of `edges`.
std::set<RatedPlayer> Reachable(
    const std::vector<RatedPlayer>& starts,
    const std::multimap<RatedPlayer, RatedPlayer>& edges) {
  std::set<RatedPlayer> seen(starts.begin(), starts.end());
  std::vector<RatedPlayer> todo = starts;
  while (!todo.empty()) {
    const RatedPlayer p = todo.back();
    todo.pop_back();
    auto [first, last] = edges.equal_range(p);
    for (auto it = first; it != last; ++it) {
      if (seen.insert(it->second).second) todo.push_back(it->second);
    }
  }
  return seen;
}

// The players connected to a held one by matches: the held players first
// (in `held`'s order), then the others in RatedPlayer order. The rest, and the
// fitted anchors of the options that met nobody, go to `unrated`.
std::vector<RatedPlayer> RatedPlayers(const std::vector<MatchResult>& matches,
                                      const std::vector<RatedPlayer>& held,
                                      const RatingOptions& options,
                                      std::vector<RatedPlayer>& unrated) {
  std::multimap<RatedPlayer, RatedPlayer> met;
  std::set<RatedPlayer> everyone(held.begin(), held.end());
  for (const RatingAnchor& a : options.anchors) everyone.insert({-1, a.name});
  for (const MatchResult& m : matches) {
    if (m.games() == 0) continue;
    met.emplace(PlayerA(m), PlayerB(m));
    met.emplace(PlayerB(m), PlayerA(m));
    everyone.insert(PlayerA(m));
    everyone.insert(PlayerB(m));
  }
  const std::set<RatedPlayer> rated = Reachable(held, met);
  std::vector<RatedPlayer> players = held;
  for (const RatedPlayer& p : everyone) {
    if (!rated.count(p)) {
      unrated.push_back(p);
    } else if (std::find(held.begin(), held.end(), p) == held.end()) {
      players.push_back(p);
    }
  }
  return players;
}

// Games and points per pair of players (indices into `players`), with
// `prior_draws` virtual draws added to each pair that met; also counts
// each player's real games and points into `rows`.
std::vector<PairTally> TallyPairs(const std::vector<RatedPlayer>& players,
                                  const std::vector<MatchResult>& matches,
                                  double prior_draws,
                                  std::vector<Rating>& rows) {
  std::map<RatedPlayer, int> index;
  for (size_t k = 0; k < players.size(); ++k) {
    index[players[k]] = static_cast<int>(k);
  }
  std::map<std::pair<int, int>, PairTally> tallies;
  for (const MatchResult& m : matches) {
    int a = index.at(PlayerA(m)), b = index.at(PlayerB(m));
    double a_points = m.wins + 0.5 * m.draws;
    rows[a].games += m.games();
    rows[a].points += a_points;
    rows[b].games += m.games();
    rows[b].points += m.games() - a_points;
    if (a > b) {
      std::swap(a, b);
      a_points = m.games() - a_points;
    }
    PairTally& t = tallies[{a, b}];
    t.i = a;
    t.j = b;
    t.games += m.games();
    t.points_i += a_points;
  }
  std::vector<PairTally> pairs;
  for (auto& [key, t] : tallies) {
    t.games += prior_draws;
    t.points_i += 0.5 * prior_draws;
    pairs.push_back(t);
  }
  return pairs;
}

// Without a prior the maximum exists only when every free player both
// scored against and conceded to players connected to a held one
// (Zermelo's condition: in the graph "a scored against b" every free
// player reaches a held player, and is reached from one).
absl::Status CheckFiniteMaximum(const std::vector<RatedPlayer>& players,
                                size_t num_held,
                                const std::vector<MatchResult>& matches) {
  std::multimap<RatedPlayer, RatedPlayer> scored, conceded;
  for (const MatchResult& m : matches) {
    const double a_points = m.wins + 0.5 * m.draws;
    const double b_points = m.losses + 0.5 * m.draws;
    if (a_points > 0) scored.emplace(PlayerA(m), PlayerB(m));
    if (b_points > 0) scored.emplace(PlayerB(m), PlayerA(m));
    if (a_points > 0) conceded.emplace(PlayerB(m), PlayerA(m));
    if (b_points > 0) conceded.emplace(PlayerA(m), PlayerB(m));
  }
  const std::vector<RatedPlayer> held(players.begin(),
                                      players.begin() + num_held);
  const std::set<RatedPlayer> down = Reachable(held, scored);
  const std::set<RatedPlayer> up = Reachable(held, conceded);
  std::vector<RatedPlayer> bad;
  for (const RatedPlayer& p : players) {
    if (!down.count(p) || !up.count(p)) bad.push_back(p);
  }
  if (bad.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "ratings: ", PlayerNames(bad),
      " only won or only lost against the rest, so their maximum-likelihood "
      "Elo is infinite; use prior_draws > 0"));
}

// The gradient of the log-likelihood and the Fisher information (minus its
// Hessian) with respect to the free players num_held..num_held+m-1 (the
// held ones do not move), at `elo`.
void GradientAndInformation(const std::vector<PairTally>& pairs,
                            const std::vector<double>& elo, int num_held, int m,
                            std::vector<double>& gradient,
                            std::vector<double>& info) {
  gradient.assign(m, 0.0);
  info.assign(m * m, 0.0);
  for (const PairTally& p : pairs) {
    const double expected = EloToScore(elo[p.i] - elo[p.j]);
    const double g = kC * (p.points_i - p.games * expected);
    const double h = kC * kC * p.games * expected * (1 - expected);
    const int a = p.i - num_held, b = p.j - num_held;  // < 0: held
    if (a >= 0) {
      gradient[a] += g;
      info[a * m + a] += h;
    }
    if (b >= 0) {
      gradient[b] -= g;
      info[b * m + b] += h;
    }
    if (a >= 0 && b >= 0) {
      info[a * m + b] -= h;
      info[b * m + a] -= h;
    }
  }
}

// Newton's method on the log-likelihood (concave, so it converges; early
// steps are damped). `elo` comes in with the held players' values in its
// first num_held entries and leaves with every player's; `error` gets the
// 95% half-widths from the inverse of the information at the maximum (0
// for the held players). The free players start at the held ones' mean.
absl::Status FitElo(const std::vector<PairTally>& pairs, int n, int num_held,
                    std::vector<double>& elo, std::vector<double>& error) {
  const int m = n - num_held;
  double start = 0;
  for (int k = 0; k < num_held; ++k) start += elo[k] / num_held;
  elo.resize(n, start);
  error.assign(n, 0.0);
  if (m == 0) return absl::OkStatus();
  std::vector<double> step, info;
  for (int iteration = 0; iteration < kMaxNewtonSteps; ++iteration) {
    GradientAndInformation(pairs, elo, num_held, m, step, info);
    if (!Cholesky(info, m)) {
      return absl::InternalError("ratings: the likelihood is flat (singular)");
    }
    CholeskySolve(info, m, step);
    double largest = 0;
    for (double d : step) largest = std::max(largest, std::abs(d));
    const double scale = largest > kMaxStepElo ? kMaxStepElo / largest : 1.0;
    for (int k = 0; k < m; ++k) elo[num_held + k] += scale * step[k];
    if (largest >= 1e-9) continue;
    for (int k = 0; k < m; ++k) {
      std::vector<double> unit(m, 0.0);
      unit[k] = 1.0;
      CholeskySolve(info, m, unit);
      error[num_held + k] = kZ95 * std::sqrt(unit[k]);
    }
    return absl::OkStatus();
  }
  return absl::InternalError("ratings: Newton's method did not converge");
}

// Where an anchor row goes in RatingTable::anchors: the options' order
// first, then by name.
int AnchorOrder(const RatingOptions& options, const std::string& name) {
  for (size_t k = 0; k < options.anchors.size(); ++k) {
    if (options.anchors[k].name == name) return static_cast<int>(k);
  }
  return static_cast<int>(options.anchors.size());
}

}  // namespace

MatchResult MatchResultFromSummary(const ArenaSummary& summary,
                                   int64_t generation_a, int64_t generation_b,
                                   int64_t finished_unix_ms) {
  MatchResult m;
  m.generation_a = generation_a;
  m.generation_b = generation_b;
  m.wins = summary.a_black.wins + summary.a_white.wins;
  m.draws = summary.a_black.draws + summary.a_white.draws;
  m.losses = summary.a_black.losses + summary.a_white.losses;
  m.pentanomial = summary.pentanomial.counts;
  m.elo = summary.elo.elo;
  m.elo_error = summary.elo.elo_error;
  if (summary.sprt.has_value()) m.decision = SprtDecisionName(summary.decision);
  m.summary_json = ArenaSummaryJson(summary);
  m.finished_unix_ms = finished_unix_ms;
  return m;
}

MatchResult AnchorMatchResultFromSummary(const ArenaSummary& summary,
                                         int64_t generation_a,
                                         const std::string& anchor_b,
                                         int64_t finished_unix_ms) {
  MatchResult m =
      MatchResultFromSummary(summary, generation_a, -1, finished_unix_ms);
  m.anchor_b = anchor_b;
  return m;
}

std::vector<RatingAnchor> RatingAnchorsOf(const pb::ArenaConfig& arena) {
  std::vector<RatingAnchor> anchors;
  for (const pb::AnchorPlayer& a : arena.anchors()) {
    RatingAnchor anchor;
    anchor.name = a.name();
    if (a.has_elo()) anchor.elo = a.elo();
    anchors.push_back(anchor);
  }
  return anchors;
}

absl::StatusOr<RatingTable> ComputeRatings(
    const std::vector<MatchResult>& matches, const RatingOptions& options) {
  if (!(options.prior_draws >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: prior_draws = ", options.prior_draws, " must be >= 0"));
  }
  const std::vector<std::pair<RatedPlayer, double>> held_elo =
      HeldPlayers(options);
  if (held_elo.empty()) {
    return absl::InvalidArgumentError(
        "ratings: no anchor has a fixed elo, so the ratings have no scale");
  }
  std::vector<RatedPlayer> held;
  std::vector<double> elo;
  for (const auto& [player, value] : held_elo) {
    held.push_back(player);
    elo.push_back(value);
  }
  RatingTable table;
  table.anchor_generation =
      options.anchors.empty() ? options.anchor_generation : -1;
  std::vector<RatedPlayer> unrated;
  const std::vector<RatedPlayer> players =
      RatedPlayers(matches, held, options, unrated);
  const std::set<RatedPlayer> rated_set(players.begin(), players.end());
  std::vector<MatchResult> rated;
  for (const MatchResult& m : matches) {
    if (m.games() > 0 && rated_set.count(PlayerA(m))) rated.push_back(m);
  }
  if (options.prior_draws == 0 && players.size() > held.size()) {
    if (absl::Status s = CheckFiniteMaximum(players, held.size(), rated);
        !s.ok()) {
      return s;
    }
  }
  std::vector<Rating> rows(players.size());
  const std::vector<PairTally> pairs =
      TallyPairs(players, rated, options.prior_draws, rows);
  std::vector<double> error;
  if (absl::Status s = FitElo(pairs, static_cast<int>(players.size()),
                              static_cast<int>(held.size()), elo, error);
      !s.ok()) {
    return s;
  }
  for (size_t k = 0; k < players.size(); ++k) {
    Rating& row = rows[k];
    row.generation = players[k].generation;
    row.anchor = players[k].anchor;
    row.fixed = k < held.size();
    row.elo = elo[k];
    row.elo_error = error[k];
    if (row.anchor.empty()) {
      table.ratings.push_back(row);
    } else {
      row.status = row.fixed ? "fixed" : "fitted";
      table.anchors.push_back(row);
    }
  }
  std::sort(table.ratings.begin(), table.ratings.end(),
            [](const Rating& x, const Rating& y) {
              return x.generation < y.generation;
            });
  std::stable_sort(table.anchors.begin(), table.anchors.end(),
                   [&](const Rating& x, const Rating& y) {
                     return AnchorOrder(options, x.anchor) <
                            AnchorOrder(options, y.anchor);
                   });
  for (const RatedPlayer& p : unrated) {
    if (p.anchor.empty()) {
      table.unrated.push_back(p.generation);
    } else {
      table.unrated_anchors.push_back(p.anchor);
    }
  }
  return table;
}

}  // namespace renju
