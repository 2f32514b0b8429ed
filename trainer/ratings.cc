#include "trainer/ratings.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/file_util.h"
#include "nlohmann/json.hpp"

namespace renju {
namespace {

constexpr double kZ95 = 1.959963984540054;
// d/dr of the logistic Elo curve 1 / (1 + 10^(-r / 400)) is c p (1 - p).
const double kC = std::log(10.0) / 400.0;
constexpr int kMaxNewtonSteps = 200;
constexpr double kMaxStepElo = 400;  // damping for the first steps

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

double ExpectedScore(double elo_diff) {
  return 1.0 / (1.0 + std::pow(10.0, -elo_diff / 400.0));
}

// The generations reachable from `start` along edges (a, b) of `edges`.
std::set<int64_t> Reachable(int64_t start,
                            const std::multimap<int64_t, int64_t>& edges) {
  std::set<int64_t> seen = {start};
  std::vector<int64_t> todo = {start};
  while (!todo.empty()) {
    const int64_t g = todo.back();
    todo.pop_back();
    auto [first, last] = edges.equal_range(g);
    for (auto it = first; it != last; ++it) {
      if (seen.insert(it->second).second) todo.push_back(it->second);
    }
  }
  return seen;
}

// The generations connected to the anchor by matches, the anchor first and
// the others in generation order; the rest go to `unrated`.
std::vector<int64_t> RatedPlayers(const std::vector<MatchResult>& matches,
                                  int64_t anchor,
                                  std::vector<int64_t>& unrated) {
  std::multimap<int64_t, int64_t> met;
  std::set<int64_t> everyone = {anchor};
  for (const MatchResult& m : matches) {
    if (m.games() == 0) continue;
    met.emplace(m.generation_a, m.generation_b);
    met.emplace(m.generation_b, m.generation_a);
    everyone.insert(m.generation_a);
    everyone.insert(m.generation_b);
  }
  const std::set<int64_t> rated = Reachable(anchor, met);
  std::vector<int64_t> players = {anchor};
  for (int64_t g : everyone) {
    if (!rated.count(g)) {
      unrated.push_back(g);
    } else if (g != anchor) {
      players.push_back(g);
    }
  }
  return players;
}

// Games and points per pair of players (indices into `players`), with
// `prior_draws` virtual draws added to each pair that met; also counts
// each player's real games and points into `rows`.
std::vector<PairTally> TallyPairs(const std::vector<int64_t>& players,
                                  const std::vector<MatchResult>& matches,
                                  double prior_draws,
                                  std::vector<Rating>& rows) {
  std::map<int64_t, int> index;
  for (size_t k = 0; k < players.size(); ++k) {
    index[players[k]] = static_cast<int>(k);
  }
  std::map<std::pair<int, int>, PairTally> tallies;
  for (const MatchResult& m : matches) {
    int a = index.at(m.generation_a), b = index.at(m.generation_b);
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

// Without a prior the maximum exists only when every rated generation both
// scored against and conceded to the rest (Zermelo's condition: the graph
// "a scored against b" is strongly connected).
absl::Status CheckFiniteMaximum(const std::vector<int64_t>& players,
                                const std::vector<MatchResult>& matches) {
  std::multimap<int64_t, int64_t> scored, conceded;
  for (const MatchResult& m : matches) {
    const double a_points = m.wins + 0.5 * m.draws;
    const double b_points = m.losses + 0.5 * m.draws;
    if (a_points > 0) scored.emplace(m.generation_a, m.generation_b);
    if (b_points > 0) scored.emplace(m.generation_b, m.generation_a);
    if (a_points > 0) conceded.emplace(m.generation_b, m.generation_a);
    if (b_points > 0) conceded.emplace(m.generation_a, m.generation_b);
  }
  const std::set<int64_t> down = Reachable(players[0], scored);
  const std::set<int64_t> up = Reachable(players[0], conceded);
  std::vector<int64_t> bad;
  for (int64_t g : players) {
    if (!down.count(g) || !up.count(g)) bad.push_back(g);
  }
  if (bad.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "ratings: generations ", absl::StrJoin(bad, ", "),
      " only won or only lost against the rest, so their maximum-likelihood "
      "Elo is infinite; use prior_draws > 0"));
}

// The gradient of the log-likelihood and the Fisher information (minus its
// Hessian) with respect to the free players 1..m (player 0, the anchor, is
// fixed), at `elo`.
void GradientAndInformation(const std::vector<PairTally>& pairs,
                            const std::vector<double>& elo, int m,
                            std::vector<double>& gradient,
                            std::vector<double>& info) {
  gradient.assign(m, 0.0);
  info.assign(m * m, 0.0);
  for (const PairTally& p : pairs) {
    const double expected = ExpectedScore(elo[p.i] - elo[p.j]);
    const double g = kC * (p.points_i - p.games * expected);
    const double h = kC * kC * p.games * expected * (1 - expected);
    const int a = p.i - 1, b = p.j - 1;  // -1: the anchor
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
// steps are damped). Fills elo and the 95% half-widths from the inverse of
// the information at the maximum.
absl::Status FitElo(const std::vector<PairTally>& pairs, int n,
                    std::vector<double>& elo, std::vector<double>& error) {
  const int m = n - 1;
  elo.assign(n, 0.0);
  error.assign(n, 0.0);
  if (m == 0) return absl::OkStatus();
  std::vector<double> step, info;
  for (int iteration = 0; iteration < kMaxNewtonSteps; ++iteration) {
    GradientAndInformation(pairs, elo, m, step, info);
    if (!Cholesky(info, m)) {
      return absl::InternalError("ratings: the likelihood is flat (singular)");
    }
    CholeskySolve(info, m, step);
    double largest = 0;
    for (double d : step) largest = std::max(largest, std::abs(d));
    const double scale = largest > kMaxStepElo ? kMaxStepElo / largest : 1.0;
    for (int k = 0; k < m; ++k) elo[k + 1] += scale * step[k];
    if (largest >= 1e-9) continue;
    for (int k = 0; k < m; ++k) {
      std::vector<double> unit(m, 0.0);
      unit[k] = 1.0;
      CholeskySolve(info, m, unit);
      error[k + 1] = kZ95 * std::sqrt(unit[k]);
    }
    return absl::OkStatus();
  }
  return absl::InternalError("ratings: Newton's method did not converge");
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

int64_t FirstCreated(const RatingTable& table) {
  int64_t first = 0;
  for (const Rating& r : table.ratings) {
    if (r.created_unix_ms > 0 && (first == 0 || r.created_unix_ms < first)) {
      first = r.created_unix_ms;
    }
  }
  return first;
}

}  // namespace

absl::StatusOr<RatingTable> ComputeRatings(
    const std::vector<MatchResult>& matches, const RatingOptions& options) {
  if (!(options.prior_draws >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: prior_draws = ", options.prior_draws, " must be >= 0"));
  }
  RatingTable table;
  table.anchor_generation = options.anchor_generation;
  const std::vector<int64_t> players =
      RatedPlayers(matches, options.anchor_generation, table.unrated);
  std::vector<MatchResult> rated;
  for (const MatchResult& m : matches) {
    if (m.games() > 0 &&
        std::count(players.begin(), players.end(), m.generation_a) > 0) {
      rated.push_back(m);
    }
  }
  if (options.prior_draws == 0 && players.size() > 1) {
    if (absl::Status s = CheckFiniteMaximum(players, rated); !s.ok()) {
      return s;
    }
  }
  std::vector<Rating> rows(players.size());
  const std::vector<PairTally> pairs =
      TallyPairs(players, rated, options.prior_draws, rows);
  std::vector<double> elo, error;
  if (absl::Status s =
          FitElo(pairs, static_cast<int>(players.size()), elo, error);
      !s.ok()) {
    return s;
  }
  for (size_t k = 0; k < players.size(); ++k) {
    rows[k].generation = players[k];
    rows[k].elo = elo[k];
    rows[k].elo_error = error[k];
  }
  std::sort(rows.begin(), rows.end(), [](const Rating& x, const Rating& y) {
    return x.generation < y.generation;
  });
  table.ratings = std::move(rows);
  return table;
}

void AttachModels(const std::vector<ModelEntry>& models, RatingTable& table) {
  std::set<int64_t> unrated(table.unrated.begin(), table.unrated.end());
  for (const ModelEntry& model : models) {
    auto it = std::find_if(
        table.ratings.begin(), table.ratings.end(),
        [&](const Rating& r) { return r.generation == model.generation; });
    if (it == table.ratings.end()) {
      unrated.insert(model.generation);
      continue;
    }
    it->created_unix_ms = model.created_unix_ms;
    it->training_step = model.training_step;
    it->status = model.status;
  }
  table.unrated.assign(unrated.begin(), unrated.end());
}

absl::Status StoreRatings(GameStore& store, const RatingTable& table) {
  absl::StatusOr<std::vector<ModelEntry>> models = store.Models();
  if (!models.ok()) return models.status();
  for (ModelEntry& model : *models) {
    for (const Rating& r : table.ratings) {
      if (r.generation != model.generation) continue;
      model.elo = r.elo;
      if (absl::Status s = store.UpdateModel(model); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

std::string RatingsText(const RatingTable& table) {
  std::string text =
      absl::StrFormat("%5s %8s %7s %6s %6s %8s %7s  %s\n", "gen", "elo", "±95%",
                      "games", "score", "step", "hours", "status");
  const int64_t first = FirstCreated(table);
  for (const Rating& r : table.ratings) {
    const std::string error = r.generation == table.anchor_generation
                                  ? std::string("anchor")
                                  : absl::StrFormat("%.0f", r.elo_error);
    const std::string score =
        r.games > 0 ? absl::StrFormat("%.1f%%", 100 * r.points / r.games) : "-";
    const std::string hours =
        r.created_unix_ms > 0 && first > 0
            ? absl::StrFormat("%.2f", (r.created_unix_ms - first) / 3.6e6)
            : "-";
    absl::StrAppendFormat(&text, "%5d %+8.0f %7s %6d %6s %8d %7s  %s\n",
                          r.generation, r.elo, error, r.games, score,
                          r.training_step, hours, r.status);
  }
  if (!table.unrated.empty()) {
    absl::StrAppend(&text, "unrated: ", absl::StrJoin(table.unrated, ", "),
                    "\n");
  }
  return text;
}

std::string RatingsCsv(const RatingTable& table) {
  std::string csv =
      "generation,elo,elo_error,games,points,training_step,created_unix_ms,"
      "status\n";
  for (const Rating& r : table.ratings) {
    absl::StrAppendFormat(&csv, "%d,%.3f,%.3f,%d,%.1f,%d,%d,%s\n", r.generation,
                          r.elo, r.elo_error, r.games, r.points,
                          r.training_step, r.created_unix_ms,
                          CsvField(r.status));
  }
  return csv;
}

std::string RatingsJson(const RatingTable& table) {
  nlohmann::ordered_json json;
  json["anchor_generation"] = table.anchor_generation;
  json["ratings"] = nlohmann::ordered_json::array();
  for (const Rating& r : table.ratings) {
    json["ratings"].push_back({{"generation", r.generation},
                               {"elo", r.elo},
                               {"elo_error", r.elo_error},
                               {"games", r.games},
                               {"points", r.points},
                               {"training_step", r.training_step},
                               {"created_unix_ms", r.created_unix_ms},
                               {"status", r.status}});
  }
  json["unrated"] = table.unrated;
  return json.dump(2) + "\n";
}

absl::StatusOr<RatingTable> UpdateRatings(GameStore& store, MatchStore& matches,
                                          const std::string& dir,
                                          const RatingOptions& options) {
  absl::StatusOr<std::vector<MatchResult>> all = matches.Matches();
  if (!all.ok()) return all.status();
  absl::StatusOr<RatingTable> table = ComputeRatings(*all, options);
  if (!table.ok()) return table.status();
  absl::StatusOr<std::vector<ModelEntry>> models = store.Models();
  if (!models.ok()) return models.status();
  AttachModels(*models, *table);
  if (absl::Status s = StoreRatings(store, *table); !s.ok()) return s;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::PermissionDeniedError(
        absl::StrCat("ratings: cannot create ", dir, ": ", error.message()));
  }
  const std::filesystem::path base(dir);
  if (absl::Status s = WriteFileAtomically((base / "ratings.csv").string(),
                                           RatingsCsv(*table));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = WriteFileAtomically((base / "ratings.json").string(),
                                           RatingsJson(*table));
      !s.ok()) {
    return s;
  }
  return table;
}

}  // namespace renju
