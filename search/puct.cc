#include "search/puct.h"

#include <algorithm>
#include <cmath>

namespace renju {
namespace {

// Selection values of proven children: always take a win, take a loss last.
constexpr double kProvenWinValue = 1e30;
constexpr double kProvenLossValue = -1e30;
// KataGo's value for a child owed forced playouts.
constexpr double kForcedValue = 1e20;

// Q of a visited child from the parent's view, with virtual loss.
double ChildQ(const Node& child, double virtual_loss) {
  const double pending = virtual_loss * child.n_in_flight;
  return (-child.sum.Score() - pending) / (child.n + pending);
}

}  // namespace

double ExploreScale(const SearchParams& params, double total_child_weight) {
  const double c =
      params.c_puct +
      params.c_puct_log * std::log((total_child_weight + params.c_puct_base) /
                                   params.c_puct_base);
  return c * std::sqrt(total_child_weight + 0.01);
}

int SelectEdge(const Node& node, const SearchParams& params,
               const SelectOptions& options) {
  double total = 0;
  double visited_mass = 0;
  for (const Edge& e : node.edges) {
    if (!e.child) continue;
    const double weight = e.child->n + e.child->n_in_flight;
    total += weight;
    if (weight > 0) visited_mass += e.prior;
  }
  const double explore = ExploreScale(params, total);
  const double reduction =
      options.is_root ? params.root_fpu_reduction : params.fpu_reduction;
  const double fpu =
      std::clamp(node.Q() - reduction * std::sqrt(visited_mass), -1.0, 1.0);
  const double vl = params.virtual_loss;
  // Below the root, edges are sorted by prior: among unvisited children the
  // first has the highest U, and once even Q = 1 cannot beat the best value
  // no later edge can.
  const bool sorted = !options.is_root;

  int best = -1;
  double best_value = -1e300;
  bool seen_unvisited = false;
  for (int i = 0; i < static_cast<int>(node.edges.size()); ++i) {
    const Edge& e = node.edges[i];
    const Node* c = e.child.get();
    const double weight = c ? c->n + c->n_in_flight : 0.0;
    const double u = explore * e.prior / (1.0 + weight);
    double value;
    if (c && c->proof == Proof::kLoss) {
      value = kProvenWinValue;
    } else if (c && c->proof == Proof::kWin) {
      value = kProvenLossValue + e.prior;
    } else if (c && c->n + vl * c->n_in_flight > 0) {
      value = ChildQ(*c, vl) + u;
      if (options.forced_playouts &&
          weight < std::sqrt(params.forced_playouts_k * e.prior * total)) {
        value = kForcedValue;
      }
    } else {
      if (sorted && seen_unvisited) continue;
      seen_unvisited = true;
      value = fpu + u;
    }
    if (value > best_value) {
      best_value = value;
      best = i;
    }
    if (sorted && 1.0 + explore * e.prior < best_value) break;
  }
  return best;
}

std::vector<int64_t> PrunedVisits(const Node& root,
                                  const SearchParams& params) {
  const int num_edges = static_cast<int>(root.edges.size());
  std::vector<int64_t> visits(num_edges, 0);
  int best = -1;
  double total = 0;
  for (int i = 0; i < num_edges; ++i) {
    const Node* c = root.edges[i].child.get();
    visits[i] = c ? c->n : 0;
    total += visits[i];
    if (best < 0 || visits[i] > visits[best]) best = i;
  }
  if (best < 0 || visits[best] == 0) return visits;

  const double explore = ExploreScale(params, total);
  auto q_of = [&](int i) { return -root.edges[i].child->Q(); };
  const double best_value =
      q_of(best) + explore * root.edges[best].prior / (1.0 + visits[best]);
  for (int i = 0; i < num_edges; ++i) {
    if (i == best || visits[i] == 0) continue;
    const double gap = best_value - q_of(i);
    if (gap <= 0) continue;  // PUCT prefers it anyway: keep every visit
    // KataGo getExploreSelectionValueInverse: the weight at which this
    // child's value falls to the best child's.
    const double wanted = explore * root.edges[i].prior / gap - 1.0;
    visits[i] = std::min<int64_t>(
        visits[i], static_cast<int64_t>(std::ceil(std::max(0.0, wanted))));
    if (visits[i] <= 1) visits[i] = 0;
  }
  return visits;
}

}  // namespace renju
