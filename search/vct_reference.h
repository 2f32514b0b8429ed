// A deliberately plain VCT solver, the second opinion that labels the VCT
// puzzle set and that tests compare VctSolver (vct.h) with. Same question,
// same depth count, written differently and without shortcuts:
//   - every empty point is tried as an attacker move and as a defence (no
//     shapes, no neighbourhoods, no move ordering);
//   - a move threatens when the attacker then has a move after which the
//     defender cannot stop a five, found by placing each of the board's
//     four points and counting the five points it leaves;
//   - plain depth-limited AND/OR recursion, deepened one attacker move at a
//     time, with no transposition table.
// It is exponential and meant for shallow depths and small node budgets.
//
// Not thread-safe on a shared board; the board is probed and restored.
#ifndef RENJU_SEARCH_VCT_REFERENCE_H_
#define RENJU_SEARCH_VCT_REFERENCE_H_

#include <cstdint>

#include "rules/board.h"
#include "search/vct.h"

namespace renju {

struct ReferenceVctResult {
  // kWin: a VCT within max_depth exists; kNoWin: none within max_depth;
  // kUnknown: max_nodes ran out first.
  VctOutcome outcome = VctOutcome::kNoWin;
  Point first_move;  // kWin: a winning first move
  int64_t nodes = 0;
};

// `attacker` to move on `board`; the depth counts attacker threat moves
// before the final unstoppable four as VctLimits::max_depth does, and nodes
// count moves played in the tree as VctLimits::max_nodes does.
ReferenceVctResult ReferenceVct(Board& board, Color attacker, int max_depth,
                                int64_t max_nodes);

}  // namespace renju

#endif  // RENJU_SEARCH_VCT_REFERENCE_H_
