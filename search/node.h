// The search tree: nodes with the paper's statistics (N, W, Q) and edges
// with priors (P). A node's children are one contiguous array allocated
// when it is expanded; a child node exists once its edge was first chosen.
//
// Statistics are from the node's own side-to-move view. Nodes are not
// synchronised: the Search holding them guards every access with its tree
// mutex.
#ifndef RENJU_SEARCH_NODE_H_
#define RENJU_SEARCH_NODE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "rules/types.h"
#include "search/tactics.h"

namespace renju {

// What is known for certain about a node, from its side to move's view.
enum class Proof : uint8_t {
  kUnknown = 0,
  kWin,   // a five point, a VCF, or a child proven lost
  kLoss,  // the game is lost, an unstoppable five, or every child won
  kDraw,  // the game ended drawn (full board, two passes, no five possible)
};
absl::string_view ProofName(Proof p);  // "unknown", "win", ...

// The other side's view of a proof.
constexpr Proof Flip(Proof p) {
  return p == Proof::kWin ? Proof::kLoss : p == Proof::kLoss ? Proof::kWin : p;
}

// Win/draw/loss probabilities, from one side's view.
struct Wdl {
  double win = 0;
  double draw = 0;
  double loss = 0;

  Wdl Flipped() const { return Wdl{loss, draw, win}; }
  double Score() const { return win - loss; }
  static Wdl Of(Proof p);  // kUnknown: all zero
};

struct Node;

struct Edge {
  Move move = Move::Pass();
  float prior = 0;              // P
  std::unique_ptr<Node> child;  // null until first chosen
};

struct Node {
  int64_t n = 0;            // N: completed visits
  int32_t n_in_flight = 0;  // playouts through here not yet backed up
  // The value of the first visit as a score (win - loss): the evaluator's,
  // or the proof's; Gumbel's mixed value needs the network's own estimate.
  float first_score = 0;
  Wdl sum;  // W: summed values of the completed visits

  Proof proof = Proof::kUnknown;
  Tactic tactic = Tactic::kNone;  // what the tactics said at expansion
  // proof == kWin: the winning move (for the principal variation).
  Move proof_move = Move::Pass();

  // Set by the one playout that expands the node; a solved node (proof
  // known at expansion) may have no edges. Edges are sorted by prior,
  // highest first, ties by policy index; root noise changes the root's
  // priors afterwards, so selection scans the root in full.
  bool expanded = false;
  std::vector<Edge> edges;

  // Q as a score in [-1, 1] (win - loss); 0 before the first visit.
  double Q() const { return n > 0 ? sum.Score() / n : 0.0; }
  Wdl MeanWdl() const;
  bool solved() const { return proof != Proof::kUnknown; }
};

}  // namespace renju

#endif  // RENJU_SEARCH_NODE_H_
