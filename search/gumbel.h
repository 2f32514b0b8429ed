// Gumbel AlphaZero's root (Danihelka, Guez, Schrittwieser and Silver,
// "Policy improvement by planning with Gumbel", ICLR 2022), which Search
// uses instead of PUCT at the root when SearchParams::gumbel_root is on and
// the search has a visit budget n:
//   1. Gumbel(0, 1) noise g(a) for every root move; the candidates are the
//      m = min(gumbel_considered_moves, moves) moves with the highest
//      g(a) + logits(a), logits = log prior. The root's moves are already
//      the tactics' restriction when the tactics restrict the root.
//   2. Sequential halving over the n playouts of this run, in
//      L = ceil(log2 m) phases: each phase gives every remaining candidate
//      max(1, floor(n / (L * remaining))) more visits, then keeps the better
//      half (rounded up) by g + logits + sigma(q). Whatever the floors leave
//      goes to the last survivor.
//   3. The move to play: among the candidates with the most visits of this
//      run, the one with the highest g + logits + sigma(q).
//   4. The policy target: softmax(logits + sigma(completed q)) over all
//      root moves, where an unvisited move's q is the mixed value v_mix
//      (appendix D, eq. 33).
// Here sigma(q) = (c_visit + max_b N(b)) * c_scale * q, with q the root
// side's score (win - loss) mapped to [0, 1] (the paper's normalisation for
// values in a known range) and N(b) a root child's visits. Proven children
// count at their proven value.
//
// Visits of a reused subtree count in q, N and v_mix but not in the halving,
// which schedules only this run's playouts. Below the root, playouts
// descend with PUCT as usual.
//
// Not synchronised: Search calls it under its tree mutex.
#ifndef RENJU_SEARCH_GUMBEL_H_
#define RENJU_SEARCH_GUMBEL_H_

#include <cstdint>
#include <vector>

#include "base/random.h"
#include "search/node.h"
#include "search/search_params.h"
#include "search/search_result.h"

namespace renju {

class GumbelRoot {
 public:
  // Draws g(a) for every edge of `root` from `rng`, in edge order, and picks
  // the candidates. `root` is expanded and unsolved with at least two
  // edges; `budget` >= 1 is the number of playouts this run will make.
  GumbelRoot(const Node& root, const SearchParams& params, int64_t budget,
             Random& rng);

  // The root edge the next playout should take: the survivor with the
  // fewest visits this run (ties: the better ranked), after halving the
  // survivors if the current phase is complete.
  int SelectEdge(const Node& root);
  // Counts a playout that took root edge `edge`, or takes one back.
  void AddVisit(int edge) { ++run_visits_[edge]; }
  void RemoveVisit(int edge) { --run_visits_[edge]; }

  // The root edge to play (step 3); ties go to the earlier edge.
  int Winner(const Node& root) const;

  // Turns `result` (SummariseRoot's, without pruning) into a Gumbel result:
  // the winner as best_move (a proven win keeps its winning move) and first
  // move of the principal variation, the improved policy as policy_target.
  void Summarise(const Node& root, int board_size, SearchResult& result) const;

  // Candidates as root edge indices, best g + logits first.
  const std::vector<int>& candidates() const { return candidates_; }
  // Playouts this run through each root edge, in edge order.
  const std::vector<int64_t>& run_visits() const { return run_visits_; }

 private:
  // Keeps the better half of the survivors and opens the next phase.
  void Halve(const Node& root);
  // max(1, floor(n / (L * remaining))) for `remaining` survivors.
  int64_t PhaseVisits(int remaining) const;
  // g + logits + sigma(completed q) of each candidate's edge.
  std::vector<double> Scores(const Node& root) const;

  const SearchParams params_;
  const int64_t budget_;
  int num_phases_ = 1;  // L
  int phase_ = 0;
  // Visits this run that each survivor holds when the phase is complete.
  int64_t phase_target_ = 0;
  std::vector<double> base_;  // g + logits, per edge
  std::vector<int64_t> run_visits_;
  std::vector<int> candidates_;
  std::vector<int> survivors_;  // best first as of the last halving
};

// Each root edge's q in [0, 1] from the root's view: the child's mean score
// (or proven value) mapped (score + 1) / 2 when visited; v_mix when not.
std::vector<double> CompletedQ(const Node& root);

// The mixed value v_mix in [0, 1] (appendix D, eq. 33): the network's value
// of the root, v, mixed with the prior-weighted q of the visited children,
//   v_mix = (v + N / (sum_{b visited} P(b)) * sum_{a visited} P(a) q(a))
//           / (1 + N),  N = sum_b N(b).
double MixedValue(const Node& root);

// (c_visit + max_b N(b)) * c_scale: sigma(q) is this times q.
double SigmaScale(const Node& root, const SearchParams& params);

// softmax(logits + sigma(completed q)) over the root's edges, in edge order:
// P(a) exp(sigma(q(a))) normalised, so a move with prior 0 gets 0.
std::vector<double> ImprovedPolicy(const Node& root,
                                   const SearchParams& params);

}  // namespace renju

#endif  // RENJU_SEARCH_GUMBEL_H_
