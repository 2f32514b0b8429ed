// The network's input: a rules-core position as float planes.
//
// For a board of size S the input is NumInputPlanes(version) planes of S x S
// floats, plane-major, each point at [plane][y * S + x] (the policy index
// convention of search/evaluator.h). Values are 0 or 1.
//
// Encoding version 1:
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
//
// Encoding version 2: the same 13 planes, then six threat planes:
//  13  kOwnFivePlane         five points of the side to move
//  14  kOwnFourPlane         four points of the side to move
//  15  kOwnThreePlane        three points of the side to move
//  16  kOpponentFivePlane    five points of the other side
//  17  kOpponentFourPlane    four points of the other side
//  18  kOpponentThreePlane   three points of the other side
// For a colour, by the game's variant (RULES.md §2-4), an empty point is a
//   five point   if a stone there makes a five: exactly five for black under
//                renju and for both colours under standard, five or more
//                for white under renju and for both under freestyle (so a
//                white overline point is a white five point under renju);
//   four point   if it makes at least one four (straight or not, on any
//                line) and no five: a five point is never a four point;
//   three point  if it makes at least one live three and no five. A three
//                is a line with no four on it on which one more stone makes
//                a straight four through the new one (LineShape::kThree in
//                rules/board.h). For white, and for both colours in the
//                gomoku variants (no forbidden points), every three is live.
//                For black under renju the three must also pass the rules
//                core's exact recursive live-three test (IsLiveThree in
//                rules/forbidden.h, RULES.md §3): one of its straight-four
//                points, judged with the new stone on the board, makes no
//                five elsewhere and is not itself forbidden.
// For black under renju, a point forbidden for black (RULES.md §4) is never
// a black four or three point, whoever is to move: black cannot play there
// (and a five point is never forbidden: five first). A point may be both a
// four and a three point (a 4-3). The forbidden plane keeps its version-1
// meaning.
//
// Any change to a version's list is a new version: checkpoints record the
// version they were trained with (checkpoint.h) and are encoded with it.
#ifndef RENJU_NN_ENCODING_H_
#define RENJU_NN_ENCODING_H_

#include "rules/game.h"

namespace renju {

inline constexpr int kMinEncodingVersion = 1;
inline constexpr int kMaxEncodingVersion = 2;

// Version 1.
inline constexpr int kOwnStonesPlane = 0;
inline constexpr int kOpponentStonesPlane = 1;
inline constexpr int kBlackToMovePlane = 2;
inline constexpr int kForbiddenPlane = 3;
inline constexpr int kLegalPlane = 4;
inline constexpr int kLastMovesPlane = 5;
inline constexpr int kNumLastMoves = 4;
inline constexpr int kOnBoardPlane = kLastMovesPlane + kNumLastMoves;
inline constexpr int kVariantPlane = kOnBoardPlane + 1;
inline constexpr int kNumInputPlanesV1 = kVariantPlane + kNumVariants;

// Version 2 adds these.
inline constexpr int kOwnFivePlane = kNumInputPlanesV1;
inline constexpr int kOwnFourPlane = kOwnFivePlane + 1;
inline constexpr int kOwnThreePlane = kOwnFivePlane + 2;
inline constexpr int kOpponentFivePlane = kOwnFivePlane + 3;
inline constexpr int kOpponentFourPlane = kOwnFivePlane + 4;
inline constexpr int kOpponentThreePlane = kOwnFivePlane + 5;
inline constexpr int kNumInputPlanesV2 = kOwnFivePlane + 6;

constexpr bool IsKnownEncodingVersion(int version) {
  return version >= kMinEncodingVersion && version <= kMaxEncodingVersion;
}

// Planes of a known encoding version.
constexpr int NumInputPlanes(int encoding_version) {
  return encoding_version == 1 ? kNumInputPlanesV1 : kNumInputPlanesV2;
}

// Floats in one encoded position of a size x size board.
constexpr int EncodedSize(int size, int encoding_version) {
  return NumInputPlanes(encoding_version) * size * size;
}

// Writes EncodedSize(game.size(), encoding_version) floats to `planes`;
// `encoding_version` must be known. The game is probed for forbidden points
// and live threes and is unchanged on return (see forbidden.h). Version 1
// costs one pass over the planes plus the forbidden-point check of each renju
// candidate point; version 2 adds a scan of the board's precomputed line
// shapes, the forbidden-point check whoever is to move and, for black under
// renju, a probe stone for each three whose four point might be forbidden
// by a further double-three (MakesLiveThree in forbidden.h).
void EncodePosition(Game& game, int encoding_version, float* planes);

}  // namespace renju

#endif  // RENJU_NN_ENCODING_H_
