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

Search::LeafKind Search::SelectLeaf(Playout& p, RunState& run) {
  if (ShouldStopLocked(run)) return LeafKind::kStop;
  p.path.assign(1, root_.get());
  p.edges.clear();
  p.moves.clear();
  p.created_leaf = false;
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
    if (edge.child && !edge.child->expanded && edge.child->n_in_flight > 0) {
      // A playout in flight (this thread's or another's) is expanding it.
      // The path, the leaf included, holds virtual loss until the caller
      // takes it back.
      ++edge.child->n_in_flight;
      p.path.push_back(edge.child.get());
      return LeafKind::kCollision;
    }
    if (!edge.child) edge.child = std::make_unique<Node>();
    // A child not expanded and not in flight is new, or was left by a
    // cancelled playout that others still held.
    if (!edge.child->expanded) p.created_leaf = true;
    node = edge.child.get();
    ++node->n_in_flight;
    p.path.push_back(node);
    p.edges.push_back(i);
    p.moves.push_back(edge.move);
  }
  if (p.path.size() > 1) {
    ++root_playouts_in_flight_;
    if (run.gumbel) run.gumbel->AddVisit(p.edges[0]);
  }
  return p.created_leaf ? LeafKind::kNew : LeafKind::kSolved;
}

// --- Step 2: evaluate and expand ---------------------------------------------

bool Search::ResolveLeaf(Playout& p, bool is_root) {
  Expansion& out = p.expansion;
  out = Expansion{};
  const Game& game = p.game;
  if (game.over()) {
    out.proof = TerminalProof(game);
    out.value = Wdl::Of(out.proof);
    return true;
  }
  const TacticsResult& tactics = p.tactics;
  out.tactic = tactics.tactic;
  if (tactics.proven_win() || (tactics.proven_loss() && !is_root)) {
    // A proof overrides the network's value; nothing to expand.
    out.proof = tactics.proven_win() ? Proof::kWin : Proof::kLoss;
    if (tactics.proven_win()) out.proof_move = Move::At(tactics.winning_move);
    out.value = Wdl::Of(out.proof);
    return true;
  }
  return false;
}

absl::Status Search::ExpandLeaf(Playout& p, bool is_root) {
  Expansion& out = p.expansion;
  const Evaluation& eval = p.evaluation;
  const int size = p.game.size();
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
  const TacticsResult& tactics = p.tactics;
  if (tactics.proven_loss()) {
    // The root of a lost game still needs a move: any legal one, by the
    // network's liking, and the search can stop at once.
    RENJU_CHECK(is_root) << "a lost leaf below the root needs no evaluation";
    out.proof = Proof::kLoss;
    out.value = Wdl::Of(Proof::kLoss);
  }
  return BuildEdges(tactics.restricts_moves()
                        ? tactics.moves
                        : LegalPointSet(p.game).ToVector(),
                    eval.policy, size, out.edges);
}

// --- Step 3: back up ---------------------------------------------------------

void Search::BackUp(Playout& p, Expansion* expansion) {
  Node* leaf = p.path.back();
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
  for (int i = static_cast<int>(p.path.size()) - 1; i >= 0; --i) {
    Node* node = p.path[i];
    ++node->n;
    --node->n_in_flight;
    node->sum.win += value.win;
    node->sum.draw += value.draw;
    node->sum.loss += value.loss;
    value = value.Flipped();
  }
  if (p.path.size() > 1) {
    ++root_child_visits_;
    --root_playouts_in_flight_;
  }
  UpdateProofs(p);
}

// MCTS-solver lite: a child proven lost wins for its parent; a parent whose
// children are all expanded and proven won is lost.
void Search::UpdateProofs(const Playout& p) {
  for (int i = static_cast<int>(p.path.size()) - 2; i >= 0; --i) {
    Node* parent = p.path[i];
    const Node* child = p.path[i + 1];
    if (parent->solved()) continue;
    if (child->proof == Proof::kLoss) {
      parent->proof = Proof::kWin;
      parent->proof_move = parent->edges[p.edges[i]].move;
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
// error), dropping the leaf it created unless a collision still holds it.
void Search::CancelPlayout(Playout& p, RunState& run) {
  for (Node* n : p.path) --n->n_in_flight;
  if (p.path.size() > 1) {
    --root_playouts_in_flight_;
    if (run.gumbel) run.gumbel->RemoveVisit(p.edges[0]);
  }
  Node* leaf = p.path.back();
  if (p.created_leaf && leaf->n_in_flight == 0) {
    p.path[p.path.size() - 2]->edges[p.edges.back()].child.reset();
  }
}

void Search::UndoPath(Playout& p) {
  for (size_t i = 0; i < p.moves.size(); ++i) p.game.Undo();
}

// --- Gathering ---------------------------------------------------------------

int Search::GatherLeaves(Worker& w, RunState& run, bool* stop) {
  *stop = false;
  int leaves = 0;
  int collisions = 0;
  while (leaves < run.minibatch_size) {
    Playout& p = w.playouts[leaves];
    LeafKind kind;
    {
      std::lock_guard<std::mutex> lock(tree_mutex_);
      kind = SelectLeaf(p, run);
      if (kind == LeafKind::kCollision && leaves == 0) {
        // Nothing of this thread's is in flight: another thread expands
        // the leaf, and this one waits for it (the caller yields).
        for (Node* n : p.path) --n->n_in_flight;
        return 0;
      }
      if (kind == LeafKind::kSolved) {
        BackUp(p, nullptr);
        ++run.playouts;
      }
    }
    if (kind == LeafKind::kStop) {
      *stop = true;
      break;
    }
    if (kind == LeafKind::kCollision) {
      w.collisions.push_back(p.path);
      if (++collisions > params_.max_collisions) break;
      continue;
    }
    if (kind == LeafKind::kSolved) continue;
    for (Move m : p.moves) {
      const absl::Status played = p.game.Play(m);
      RENJU_CHECK(played.ok()) << played;
    }
    p.tactics = TacticsResult{};
    if (params_.tactics && !p.game.over()) {
      p.tactics = w.tactics.Analyze(p.game, TacticsOptionsFor(false));
    }
    if (ResolveLeaf(p, /*is_root=*/false)) {
      UndoPath(p);
      std::lock_guard<std::mutex> lock(tree_mutex_);
      BackUp(p, &p.expansion);
      ++run.playouts;
      continue;
    }
    ++leaves;  // its game stays at the leaf until it is evaluated
  }
  return leaves;
}

bool Search::EvaluateGathered(Worker& w, RunState& run, int leaves,
                              SearchClock::time_point gather_start) {
  w.batch_games.clear();
  w.batch_outs.clear();
  for (int i = 0; i < leaves; ++i) {
    w.batch_games.push_back(&w.playouts[i].game);
    w.batch_outs.push_back(&w.playouts[i].evaluation);
  }
  absl::Status status = evaluator_.EvaluateBatch(w.batch_games, w.batch_outs);
  for (int i = 0; i < leaves && status.ok(); ++i) {
    status = ExpandLeaf(w.playouts[i], /*is_root=*/false);
  }
  for (int i = 0; i < leaves; ++i) UndoPath(w.playouts[i]);
  std::lock_guard<std::mutex> lock(tree_mutex_);
  // Collisions first: a cancelled playout may drop a leaf they point at.
  for (const std::vector<Node*>& path : w.collisions) {
    for (Node* n : path) --n->n_in_flight;
  }
  w.collisions.clear();
  for (int i = 0; i < leaves; ++i) {
    if (status.ok()) {
      BackUp(w.playouts[i], &w.playouts[i].expansion);
      ++run.playouts;
    } else {
      CancelPlayout(w.playouts[i], run);
    }
  }
  if (!status.ok() && !failed_.exchange(true)) error_ = status;
  run.last_batch_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          NowOn(*run.options) - gather_start)
                          .count();
  return status.ok();
}

}  // namespace renju
