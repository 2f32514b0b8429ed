#include "search/gumbel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/logging.h"
#include "search/legal_moves.h"

namespace renju {
namespace {

// A sample of Gumbel(0, 1): -log(-log(u)) with u uniform in (0, 1), both
// ends excluded so that the result is finite.
double SampleGumbel(Random& rng) {
  const double u =
      (static_cast<double>(rng.NextUint64() >> 11) + 0.5) * 0x1.0p-53;
  return -std::log(-std::log(u));
}

// A visited child's q in [0, 1] from its parent's view.
double VisitedQ(const Node& child) {
  switch (child.proof) {
    case Proof::kWin:
      return 0.0;
    case Proof::kLoss:
      return 1.0;
    case Proof::kDraw:
      return 0.5;
    case Proof::kUnknown:
      break;
  }
  return (1.0 - child.Q()) / 2;
}

bool Visited(const Edge& e) { return e.child && e.child->n > 0; }

// ceil(log2(m)) for m >= 2.
int CeilLog2(int m) {
  int phases = 0;
  while ((1 << phases) < m) ++phases;
  return phases;
}

}  // namespace

GumbelRoot::GumbelRoot(const Node& root, const SearchParams& params,
                       int64_t budget, Random& rng)
    : params_(params), budget_(budget) {
  const int num_edges = static_cast<int>(root.edges.size());
  RENJU_CHECK(num_edges >= 2 && budget >= 1)
      << num_edges << " edges, budget " << budget;
  base_.resize(num_edges);
  run_visits_.assign(num_edges, 0);
  for (int i = 0; i < num_edges; ++i) {
    // log(0) = -inf: a move the network rules out is never preferred.
    base_[i] = SampleGumbel(rng) + std::log(root.edges[i].prior);
  }
  std::vector<int> order(num_edges);
  for (int i = 0; i < num_edges; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [this](int a, int b) {
    return base_[a] != base_[b] ? base_[a] > base_[b] : a < b;
  });
  const int m = std::min(params.gumbel_considered_moves, num_edges);
  candidates_.assign(order.begin(), order.begin() + std::max(m, 1));
  survivors_ = candidates_;
  num_phases_ = std::max(1, CeilLog2(static_cast<int>(candidates_.size())));
  phase_target_ = PhaseVisits(static_cast<int>(survivors_.size()));
}

int64_t GumbelRoot::PhaseVisits(int remaining) const {
  return std::max<int64_t>(
      1, budget_ / (static_cast<int64_t>(num_phases_) * remaining));
}

std::vector<double> GumbelRoot::Scores(const Node& root) const {
  const std::vector<double> q = CompletedQ(root);
  const double scale = SigmaScale(root, params_);
  std::vector<double> scores(root.edges.size(),
                             -std::numeric_limits<double>::infinity());
  for (int i : candidates_) scores[i] = base_[i] + scale * q[i];
  return scores;
}

void GumbelRoot::Halve(const Node& root) {
  const std::vector<double> scores = Scores(root);
  std::sort(survivors_.begin(), survivors_.end(), [&scores](int a, int b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  });
  survivors_.resize((survivors_.size() + 1) / 2);
  ++phase_;
  // After the last phase one survivor is left; it takes the rest.
  phase_target_ =
      phase_ < num_phases_
          ? phase_target_ + PhaseVisits(static_cast<int>(survivors_.size()))
          : std::numeric_limits<int64_t>::max();
}

int GumbelRoot::SelectEdge(const Node& root) {
  while (phase_ < num_phases_ &&
         std::all_of(survivors_.begin(), survivors_.end(), [this](int i) {
           return run_visits_[i] >= phase_target_;
         })) {
    Halve(root);
  }
  int best = survivors_.front();
  for (int i : survivors_) {
    if (run_visits_[i] < run_visits_[best]) best = i;
  }
  return best;
}

int GumbelRoot::Winner(const Node& root) const {
  int64_t most = 0;
  for (int i : candidates_) most = std::max(most, run_visits_[i]);
  const std::vector<double> scores = Scores(root);
  int best = -1;
  for (int i : candidates_) {
    if (run_visits_[i] != most) continue;
    if (best < 0 || scores[i] > scores[best] ||
        (scores[i] == scores[best] && i < best)) {
      best = i;
    }
  }
  return best;
}

void GumbelRoot::Summarise(const Node& root, int board_size,
                           SearchResult& result) const {
  result.gumbel = true;
  if (root.proof != Proof::kWin) {
    const Edge& winner = root.edges[Winner(root)];
    result.best_move = winner.move;
    result.pv.assign(1, winner.move);
    if (winner.child) {
      const std::vector<Move> rest =
          PrincipalVariation(*winner.child, board_size);
      result.pv.insert(result.pv.end(), rest.begin(), rest.end());
    }
  }
  const std::vector<double> policy = ImprovedPolicy(root, params_);
  result.policy_target.assign(board_size * board_size, 0.0f);
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Move move = root.edges[i].move;
    if (move.is_pass()) continue;
    result.policy_target[PolicyIndex(move.point(), board_size)] =
        static_cast<float>(policy[i]);
  }
}

std::vector<double> CompletedQ(const Node& root) {
  const double v_mix = MixedValue(root);
  std::vector<double> q;
  q.reserve(root.edges.size());
  for (const Edge& e : root.edges) {
    q.push_back(Visited(e) ? VisitedQ(*e.child) : v_mix);
  }
  return q;
}

double MixedValue(const Node& root) {
  const double v = (1.0 + root.first_score) / 2;
  double visits = 0;
  double visited_prior = 0;
  double weighted_q = 0;
  double plain_q = 0;
  int num_visited = 0;
  for (const Edge& e : root.edges) {
    if (!Visited(e)) continue;
    const double q = VisitedQ(*e.child);
    visits += e.child->n;
    visited_prior += e.prior;
    weighted_q += e.prior * q;
    plain_q += q;
    ++num_visited;
  }
  if (visits == 0) return v;
  // Visited moves the network gave no prior at all: their plain mean.
  const double mean_q =
      visited_prior > 0 ? weighted_q / visited_prior : plain_q / num_visited;
  return (v + visits * mean_q) / (1 + visits);
}

double SigmaScale(const Node& root, const SearchParams& params) {
  int64_t most = 0;
  for (const Edge& e : root.edges) {
    if (e.child) most = std::max(most, e.child->n);
  }
  return (params.gumbel_c_visit + static_cast<double>(most)) *
         params.gumbel_c_scale;
}

std::vector<double> ImprovedPolicy(const Node& root,
                                   const SearchParams& params) {
  const std::vector<double> q = CompletedQ(root);
  const double scale = SigmaScale(root, params);
  // Subtracting the largest exponent keeps exp() finite for large N.
  double top = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < q.size(); ++i) {
    if (root.edges[i].prior > 0) top = std::max(top, scale * q[i]);
  }
  std::vector<double> policy(q.size(), 0.0);
  double sum = 0;
  for (size_t i = 0; i < q.size(); ++i) {
    if (root.edges[i].prior <= 0) continue;
    policy[i] = root.edges[i].prior * std::exp(scale * q[i] - top);
    sum += policy[i];
  }
  for (double& p : policy) {
    p = sum > 0 ? p / sum : 1.0 / static_cast<double>(policy.size());
  }
  return policy;
}

}  // namespace renju
