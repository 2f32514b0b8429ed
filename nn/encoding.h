// The network's input: a rules-core position as float planes.
//
// Encoding version 1. For a board of size S the input is kNumInputPlanes
// planes of S x S floats, plane-major, each point at [plane][y * S + x] (the
// policy index convention of search/evaluator.h). Values are 0 or 1:
//   0  kOwnStonesPlane        stones of the side to move
//   1  kOpponentStonesPlane   stones of the other side
//   2  kBlackToMovePlane      all ones when black is to move
//   3  kForbiddenPlane        black's forbidden points, set only under renju
//                             with black to move (RULES.md §4)
//   4  kLegalPlane            points the side to move may play: empty and,
//                             for black under renju, not forbidden
//   5  kLastMovesPlane + k    the (k+1)-th most recent move, k < kNumLastMoves;
//                             all zero for a pass or before the game's start
//   9  kOnBoardPlane          all ones (lets zero-padded convs see the edge)
//  10  kVariantPlane + v      all ones on the plane of the game's variant
//                             (v = freestyle 0, standard 1, renju 2)
// Any change to this list is a new kEncodingVersion: checkpoints record the
// version they were trained with and refuse to load under another.
#ifndef RENJU_NN_ENCODING_H_
#define RENJU_NN_ENCODING_H_

#include "rules/game.h"

namespace renju {

inline constexpr int kEncodingVersion = 1;

inline constexpr int kOwnStonesPlane = 0;
inline constexpr int kOpponentStonesPlane = 1;
inline constexpr int kBlackToMovePlane = 2;
inline constexpr int kForbiddenPlane = 3;
inline constexpr int kLegalPlane = 4;
inline constexpr int kLastMovesPlane = 5;
inline constexpr int kNumLastMoves = 4;
inline constexpr int kOnBoardPlane = kLastMovesPlane + kNumLastMoves;
inline constexpr int kVariantPlane = kOnBoardPlane + 1;
inline constexpr int kNumInputPlanes = kVariantPlane + kNumVariants;

// Floats in one encoded position of a size x size board.
constexpr int EncodedSize(int size) { return kNumInputPlanes * size * size; }

// Writes EncodedSize(game.size()) floats to `planes`. The game is probed for
// forbidden points and is unchanged on return (see forbidden.h); the cost is
// one pass over the planes plus the forbidden-point check of each renju
// candidate point.
void EncodePosition(Game& game, float* planes);

}  // namespace renju

#endif  // RENJU_NN_ENCODING_H_
