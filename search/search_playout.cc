// The three steps of a playout (see search.h): select, evaluate and
// expand, back up; plus taking a playout back.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "search/legal_moves.h"
#include "search/puct.h"
#include "search/search.h"
#include "search/search_internal.h"

namespace renju {
namespace {

// The proof of a finished game from the side to move's view.
Proof TerminalProof(const Game& game) {
  if (game.result() == GameResult::kDraw) return Proof::kDraw;
  return game.result() == WinFor(game.side_to_move()) ? Proof::kWin
                                                      : Proof::kLoss;
}

// Edges for `points` (in policy index order) with priors from `policy`,
// renormalised over them (uniform if they get no mass), highest prior
// first, ties by policy index. No points at all: the only move is a pass.
absl::Status BuildEdges(const std::vector<Point>& points,
                        const std::vector<float>& policy, int size,
                        std::vector<Edge>& edges) {
  edges.clear();
  if (points.empty()) {
    edges.push_back(Edge{Move::Pass(), 1.0f, nullptr});
    return absl::OkStatus();
  }
  // Sorting small (prior, order) pairs is much cheaper than sorting edges.
  std::vector<std::pair<float, int>> order;
  order.reserve(points.size());
  double sum = 0;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    const float prior = policy[PolicyIndex(points[i], size)];
    if (!(prior >= 0) || !std::isfinite(prior)) {
      return absl::InternalError(absl::StrCat(
          "evaluator returned prior ", prior, " for ", PointName(points[i])));
    }
    order.emplace_back(prior, i);
    sum += prior;
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  edges.reserve(points.size());
  for (const auto& [prior, i] : order) {
    const float p = sum > 0 ? static_cast<float>(prior / sum)
                            : 1.0f / static_cast<float>(points.size());
    edges.push_back(Edge{Move::At(points[i]), p, nullptr});
  }
  return absl::OkStatus();
}

}  // namespace

// --- Step 1: select ----------------------------------------------------------

Search::LeafKind Search::SelectLeaf(Worker& w, RunState& run) {
  if (ShouldStopLocked(run)) return LeafKind::kStop;
  w.path.assign(1, root_.get());
  w.edges.clear();
  w.moves.clear();
  w.created_leaf = false;
  Node* node = root_.get();
  ++node->n_in_flight;
  while (node->expanded && !node->solved()) {
    const bool is_root = node == root_.get();
    const int i = is_root && run.gumbel
                      ? run.gumbel->SelectEdge(*node)
                      : SelectEdge(*node, params_,
                                   is_root ? run.root_select : SelectOptions{});
    RENJU_CHECK(i >= 0) << "an expanded, unsolved node has no moves";
    Edge& edge = node->edges[i];
    if (edge.child && !edge.child->expanded) {
      // Another thread is expanding it: back off and try again.
      for (Node* n : w.path) --n->n_in_flight;
      return LeafKind::kCollision;
    }
    if (!edge.child) {
      edge.child = std::make_unique<Node>();
      w.created_leaf = true;
    }
    node = edge.child.get();
    ++node->n_in_flight;
    w.path.push_back(node);
    w.edges.push_back(i);
    w.moves.push_back(edge.move);
  }
  if (w.path.size() > 1) {
    ++root_playouts_in_flight_;
    if (run.gumbel) run.gumbel->AddVisit(w.edges[0]);
  }
  return w.created_leaf ? LeafKind::kNew : LeafKind::kSolved;
}

// --- Step 2: evaluate and expand ---------------------------------------------

absl::Status Search::EvaluateLeaf(Worker& w, const TacticsResult& tactics,
                                  bool is_root, Expansion& out) {
  out = Expansion{};
  Game& game = w.game;
  if (game.over()) {
    out.proof = TerminalProof(game);
    out.value = Wdl::Of(out.proof);
    return absl::OkStatus();
  }
  out.tactic = tactics.tactic;
  if (tactics.proven_win() || (tactics.proven_loss() && !is_root)) {
    // A proof overrides the network's value; nothing to expand.
    out.proof = tactics.proven_win() ? Proof::kWin : Proof::kLoss;
    if (tactics.proven_win()) out.proof_move = Move::At(tactics.winning_move);
    out.value = Wdl::Of(out.proof);
    return absl::OkStatus();
  }
  if (absl::Status s = evaluator_.Evaluate(game, w.evaluation); !s.ok()) {
    return s;
  }
  const Evaluation& eval = w.evaluation;
  const int size = game.size();
  if (static_cast<int>(eval.policy.size()) != size * size) {
    return absl::InternalError(absl::StrCat("evaluator returned ",
                                            eval.policy.size(), " priors for ",
                                            size * size, " points"));
  }
  const bool valid_value =
      eval.win >= 0 && eval.draw >= 0 && eval.loss >= 0 &&
      std::fabs(eval.win + eval.draw + eval.loss - 1) < 1e-3f;
  if (!valid_value) {
    return absl::InternalError(absl::StrCat(
        "evaluator returned win/draw/loss ", eval.win, "/", eval.draw, "/",
        eval.loss, ", which is not a distribution"));
  }
  out.value = Wdl{eval.win, eval.draw, eval.loss};
  if (tactics.proven_loss()) {
    // The root of a lost game still needs a move: any legal one, by the
    // network's liking, and the search can stop at once.
    out.proof = Proof::kLoss;
    out.value = Wdl::Of(Proof::kLoss);
  }
  return BuildEdges(tactics.restricts_moves() ? tactics.moves : LegalPointSet(game).ToVector(),
                    eval.policy, size, out.edges);
}

// --- Step 3: back up ---------------------------------------------------------

void Search::BackUp(Worker& w, Expansion* expansion) {
  Node* leaf = w.path.back();
  Wdl value;
  if (expansion != nullptr) {
    leaf->edges = std::move(expansion->edges);
    leaf->proof = expansion->proof;
    leaf->tactic = expansion->tactic;
    leaf->proof_move = expansion->proof_move;
    leaf->expanded = true;
    value = expansion->value;
    leaf->first_score = static_cast<float>(value.Score());
  } else {
    value = Wdl::Of(leaf->proof);
  }
  for (int i = static_cast<int>(w.path.size()) - 1; i >= 0; --i) {
    Node* node = w.path[i];
    ++node->n;
    --node->n_in_flight;
    node->sum.win += value.win;
    node->sum.draw += value.draw;
    node->sum.loss += value.loss;
    value = value.Flipped();
  }
  if (w.path.size() > 1) {
    ++root_child_visits_;
    --root_playouts_in_flight_;
  }
  UpdateProofs(w);
}

// MCTS-solver lite: a child proven lost wins for its parent; a parent whose
// children are all expanded and proven won is lost.
void Search::UpdateProofs(const Worker& w) {
  for (int i = static_cast<int>(w.path.size()) - 2; i >= 0; --i) {
    Node* parent = w.path[i];
    const Node* child = w.path[i + 1];
    if (parent->solved()) continue;
    if (child->proof == Proof::kLoss) {
      parent->proof = Proof::kWin;
      parent->proof_move = parent->edges[w.edges[i]].move;
    } else if (child->proof == Proof::kWin) {
      const bool all_won = std::all_of(
          parent->edges.begin(), parent->edges.end(), [](const Edge& e) {
            return e.child && e.child->proof == Proof::kWin;
          });
      if (all_won) parent->proof = Proof::kLoss;
    }
  }
}

// Takes back a selected playout that will not be backed up (an evaluator
// error), dropping the leaf it created so no one waits on it.
void Search::CancelPlayout(Worker& w, RunState& run) {
  for (Node* n : w.path) --n->n_in_flight;
  if (w.path.size() > 1) {
    --root_playouts_in_flight_;
    if (run.gumbel) run.gumbel->RemoveVisit(w.edges[0]);
  }
  if (w.created_leaf) {
    w.path[w.path.size() - 2]->edges[w.edges.back()].child.reset();
  }
}

void Search::UndoPath(Worker& w) {
  for (size_t i = 0; i < w.moves.size(); ++i) w.game.Undo();
}

}  // namespace renju
