#include "search/search_result.h"

#include <algorithm>
#include <cmath>

#include "search/legal_moves.h"
#include "search/puct.h"

namespace renju {
namespace {

constexpr int kMaxPvLength = 64;

int MoveIndex(Move m, int size) {
  return m.is_pass() ? size * size : PolicyIndex(m.point(), size);
}

// Most visits first, then higher prior, then lower policy index.
bool Before(int64_t visits_a, float prior_a, int index_a, int64_t visits_b,
            float prior_b, int index_b) {
  if (visits_a != visits_b) return visits_a > visits_b;
  if (prior_a != prior_b) return prior_a > prior_b;
  return index_a < index_b;
}

// The child to follow in the principal variation, or null.
const Edge* PvEdge(const Node& node, int size) {
  if (node.proof == Proof::kWin) {
    for (const Edge& e : node.edges) {
      if (e.move == node.proof_move) return &e;
    }
    return nullptr;
  }
  const Edge* best = nullptr;
  for (const Edge& e : node.edges) {
    if (!e.child || e.child->n == 0) continue;
    if (best == nullptr ||
        Before(e.child->n, e.prior, MoveIndex(e.move, size), best->child->n,
               best->prior, MoveIndex(best->move, size))) {
      best = &e;
    }
  }
  return best;
}

}  // namespace

std::vector<Move> PrincipalVariation(const Node& start, int size) {
  std::vector<Move> pv;
  const Node* node = &start;
  while (node != nullptr && static_cast<int>(pv.size()) < kMaxPvLength) {
    const Edge* edge = PvEdge(*node, size);
    if (edge != nullptr) {
      pv.push_back(edge->move);
      node = edge->child.get();
    } else {
      // A node won by a tactic has the winning move but no edges.
      if (node->proof == Proof::kWin) pv.push_back(node->proof_move);
      break;
    }
  }
  return pv;
}

namespace {

std::vector<float> Distribution(const std::vector<ChildStats>& children,
                                bool use_target, int size) {
  std::vector<float> out(size * size, 0.0f);
  int64_t total = 0;
  for (const ChildStats& c : children) {
    if (!c.move.is_pass()) total += use_target ? c.target_visits : c.visits;
  }
  if (total == 0) return out;
  for (const ChildStats& c : children) {
    if (c.move.is_pass()) continue;
    const int64_t v = use_target ? c.target_visits : c.visits;
    out[PolicyIndex(c.move.point(), size)] = static_cast<float>(v) / total;
  }
  return out;
}

}  // namespace

SearchResult SummariseRoot(const Node& root, const SearchParams& params,
                           int board_size, bool full_search) {
  SearchResult result;
  result.full_search = full_search;
  const bool prune = params.policy_target_pruning && full_search;
  const std::vector<int64_t> target =
      prune ? PrunedVisits(root, params) : std::vector<int64_t>();
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Edge& e = root.edges[i];
    ChildStats c;
    c.move = e.move;
    c.prior = e.prior;
    if (const Node* child = e.child.get(); child != nullptr) {
      c.visits = child->n;
      c.proof = Flip(child->proof);
      const Wdl mean = child->MeanWdl().Flipped();
      c.q = static_cast<float>(mean.Score());
      c.win = static_cast<float>(mean.win);
      c.draw = static_cast<float>(mean.draw);
      c.loss = static_cast<float>(mean.loss);
    }
    c.target_visits = prune ? target[i] : c.visits;
    result.total_visits += c.visits;
    result.children.push_back(c);
  }
  std::sort(result.children.begin(), result.children.end(),
            [board_size](const ChildStats& a, const ChildStats& b) {
              return Before(a.visits, a.prior, MoveIndex(a.move, board_size),
                            b.visits, b.prior, MoveIndex(b.move, board_size));
            });

  result.proof = root.proof;
  const Wdl value = root.solved() ? Wdl::Of(root.proof) : root.MeanWdl();
  result.win = static_cast<float>(value.win);
  result.draw = static_cast<float>(value.draw);
  result.loss = static_cast<float>(value.loss);
  if (root.proof == Proof::kWin) {
    result.best_move = root.proof_move;
  } else if (!result.children.empty()) {
    result.best_move = result.children.front().move;
  }
  result.pv = PrincipalVariation(root, board_size);
  result.visit_distribution =
      Distribution(result.children, /*use_target=*/false, board_size);
  result.policy_target =
      Distribution(result.children, /*use_target=*/true, board_size);
  const bool no_target =
      std::all_of(result.policy_target.begin(), result.policy_target.end(),
                  [](float v) { return v == 0; });
  if (no_target && !result.best_move.is_pass()) {
    result.policy_target[PolicyIndex(result.best_move.point(), board_size)] =
        1.0f;
  }
  return result;
}

double MoveTemperature(const SearchParams& params, int ply) {
  return params.temperature_final +
         (params.temperature_early - params.temperature_final) *
             std::pow(0.5, ply / params.temperature_halflife_plies);
}

Move ChooseMove(const SearchResult& result, const SearchParams& params, int ply,
                Random& rng) {
  const double temperature = MoveTemperature(params, ply);
  if (temperature <= 0 || result.tactic_decided || result.gumbel ||
      result.proof == Proof::kWin) {
    return result.best_move;
  }
  int64_t most = 0;
  for (const ChildStats& c : result.children) {
    most = std::max(most, c.target_visits);
  }
  if (most == 0) return result.best_move;
  // visits^(1/T), scaled by the largest to stay finite for small T.
  std::vector<double> weights;
  double sum = 0;
  for (const ChildStats& c : result.children) {
    const double w =
        c.target_visits > 0
            ? std::exp(std::log(static_cast<double>(c.target_visits) / most) /
                       temperature)
            : 0.0;
    weights.push_back(w);
    sum += w;
  }
  double r = rng.Uniform() * sum;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] > 0 && r < weights[i]) return result.children[i].move;
    r -= weights[i];
  }
  return result.best_move;
}

}  // namespace renju
