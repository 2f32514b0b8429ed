// PUCT: which child a playout visits next, and the policy target after
// forced playouts, with KataGo's formulas (searchexplorehelpers.cpp,
// searchresults.cpp; notes in /tmp/research/formats.md §5.1-5.5).
// Q values here are scores (win - loss) from the parent's side to move.
// The caller holds the tree mutex.
#ifndef RENJU_SEARCH_PUCT_H_
#define RENJU_SEARCH_PUCT_H_

#include <cstdint>
#include <vector>

#include "search/node.h"
#include "search/search_params.h"

namespace renju {

// c(N) * sqrt(N + 0.01), the factor of P / (1 + n) in U; N is the total
// child weight (visits, plus playouts in flight).
double ExploreScale(const SearchParams& params, double total_child_weight);

struct SelectOptions {
  bool is_root = false;
  // Root of a full search with forced playouts on.
  bool forced_playouts = false;
};

// The index of the edge of `node` (expanded, unsolved) to visit next:
// highest Q + U, where an unvisited child is valued at the first-play
// urgency and a playout in flight counts as virtual_loss losses; ties go to
// the earlier edge. -1 if the node has no edges.
int SelectEdge(const Node& node, const SearchParams& params,
               const SelectOptions& options);

// The root's child visits, in edge order, with KataGo's policy target
// pruning: every child but the most visited keeps only the visits PUCT
// would have given it without forced playouts, and a child left with one
// visit or fewer drops to zero.
std::vector<int64_t> PrunedVisits(const Node& root, const SearchParams& params);

}  // namespace renju

#endif  // RENJU_SEARCH_PUCT_H_
