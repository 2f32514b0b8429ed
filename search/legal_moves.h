// The points the side to move may play, as search and the fake evaluators
// need them: empty and, for black under renju, not forbidden (RULES.md §4).
#ifndef RENJU_SEARCH_LEGAL_MOVES_H_
#define RENJU_SEARCH_LEGAL_MOVES_H_

#include "rules/game.h"
#include "rules/point_set.h"

namespace renju {

// Black's forbidden points under renju (empty otherwise). Probes the board
// and restores it.
PointSet ForbiddenSet(Board& board);

// Empty points minus, when black is to move, ForbiddenSet. Iterates in
// policy index order (y * size + x).
PointSet LegalPointSet(Game& game);

// Index of a point in a policy vector: y * size + x.
inline int PolicyIndex(Point p, int size) { return p.y * size + p.x; }

}  // namespace renju

#endif  // RENJU_SEARCH_LEGAL_MOVES_H_
