// What one search reports: everything a caller needs to play a move, record
// a training target or show an analysis. Search never prints; formatting
// belongs to the protocol front ends.
#ifndef RENJU_SEARCH_SEARCH_RESULT_H_
#define RENJU_SEARCH_SEARCH_RESULT_H_

#include <cstdint>
#include <vector>

#include "base/random.h"
#include "rules/types.h"
#include "search/node.h"
#include "search/search_params.h"
#include "search/tactics.h"

namespace renju {

// One root move as searched.
struct ChildStats {
  Move move = Move::Pass();
  int64_t visits = 0;  // N
  // Visits counted in the policy target: `visits` less pruned forced
  // playouts when policy target pruning is on.
  int64_t target_visits = 0;
  float prior = 0;  // P, with root noise when there was any
  // Mean value from the root side to move's view; Q = win - loss. All zero
  // while unvisited.
  float q = 0;
  float win = 0;
  float draw = 0;
  float loss = 0;
  Proof proof = Proof::kUnknown;  // root side to move's view of this move
};

struct SearchResult {
  // The move to play at temperature 0: a proven win, or the most visited
  // (ties: higher prior, then lower policy index); for a Gumbel root, the
  // Gumbel winner.
  Move best_move = Move::Pass();
  // Root moves, most visited first, same tie order.
  std::vector<ChildStats> children;
  int64_t total_visits = 0;  // sum of children[i].visits
  int64_t playouts = 0;      // playouts run by this call (not reused ones)
  // Visits the root's children already held when this call began: a
  // subtree kept from an earlier search (tree reuse, pondering).
  int64_t reused_visits = 0;

  // Root value, side to move's view; a proven result overrides the mean.
  float win = 0;
  float draw = 0;
  float loss = 0;
  Proof proof = Proof::kUnknown;

  // Principal variation from the root: most visited children, then the
  // proven winning move where a node was solved.
  std::vector<Move> pv;

  // The root's tactic. kWinInOne, kVcf and kVct decide the move without
  // search (tactic_decided: `children` is the winning move alone, with no
  // visits, and policy_target is one-hot on it); kBlockFive, kDefendVcf and
  // kDefendVct restrict the root's moves; kLostToFive proves the root lost,
  // so the search stops at once and best_move is the network's favourite
  // legal move.
  Tactic tactic = Tactic::kNone;
  bool tactic_decided = false;
  std::vector<Point> vcf_line;  // kVcf, kDefendVcf
  std::vector<Point> vct_line;  // kVct, kDefendVct

  // Playout-cap randomisation: true for a full search, whose visits are a
  // policy target; false for a fast move that only advances the game.
  bool full_search = true;
  // The root was searched by Gumbel AlphaZero (gumbel.h): best_move is the
  // Gumbel winner, already a sample, so ChooseMove plays it at any
  // temperature, and policy_target is the improved policy.
  bool gumbel = false;
  // Indexed y * size + x, summing to 1 (pass is not a point; a pass-only
  // root gives all zeros). visit_distribution is the raw visit share;
  // policy_target has forced playouts pruned when pruning is on, and is
  // one-hot on best_move when nothing was visited (Gumbel: see above).
  std::vector<float> visit_distribution;
  std::vector<float> policy_target;

  double elapsed_ms = 0;
};

// The result of a searched root, less what only the search knows
// (playouts, tactic, timing). Used by Search; the caller holds its lock.
SearchResult SummariseRoot(const Node& root, const SearchParams& params,
                           int board_size, bool full_search);

// From `node`: the most visited children (ties: higher prior, then lower
// policy index), then the proven winning move where a node was solved; at
// most 64 moves.
std::vector<Move> PrincipalVariation(const Node& node, int board_size);

// Temperature for the move at 0-based `ply`: final + (early - final) *
// 0.5^(ply / halflife).
double MoveTemperature(const SearchParams& params, int ply);

// The move to play: best_move at temperature 0, when the result is proven,
// decided by a tactic or a Gumbel root's; otherwise sampled with
// probability proportional to target_visits^(1 / temperature).
Move ChooseMove(const SearchResult& result, const SearchParams& params, int ply,
                Random& rng);

}  // namespace renju

#endif  // RENJU_SEARCH_SEARCH_RESULT_H_
