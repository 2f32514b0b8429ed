// Between the rules core and the wire: converting points, variants and
// results to and from their protobuf forms, and the one definition of a
// valid game record, which the trainer applies to every upload before it is
// stored (a malicious or buggy worker cannot store an illegal game).
#ifndef RENJU_RPC_GAME_RECORD_H_
#define RENJU_RPC_GAME_RECORD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/game.pb.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "rules/record.h"

namespace renju {

// Points on the wire are y * size + x; -1 is a pass.
inline int PointIndex(Point p, int size) { return p.y * size + p.x; }
inline Point PointAt(int index, int size) {
  return Point(index % size, index / size);
}
int MoveIndex(Move m, int size);

pb::Variant ToProto(Variant v);
absl::StatusOr<Variant> FromProto(pb::Variant v);
pb::GameResult ToProto(GameResult r);
pb::EndReason ToProto(EndReason r);

// Opening actions on the wire. FromProto's error names the kind or the
// point that does not fit a board of `size`.
pb::OpeningActionRecord ToProto(const OpeningAction& action, int size);
absl::StatusOr<OpeningAction> FromProto(const pb::OpeningActionRecord& action,
                                        int size);
// A record's or a request's actions, in order; the error names the first
// that does not convert: "opening action 4 of 7: kind 42 is not ...".
absl::StatusOr<std::vector<OpeningAction>> OpeningActionsFromProto(
    const google::protobuf::RepeatedPtrField<pb::OpeningActionRecord>& actions,
    int size);

// Sets the record's opening_rule, opening_actions and opening_plies (the
// stones the opening placed) from a finished opening.
void SetOpening(const OpeningState& opening, int size, pb::GameRecord& record);

// A stored game as the rules core's record (rules/record.h), for `renju
// replay`: moves, variant, size, result, opening rule and actions; search
// targets are dropped. Nothing is checked against the rules (ReplayRecord
// does that); errors: an unknown variant, an opening rule or action that
// does not parse.
absl::StatusOr<GameRecord> RecordFromProto(const pb::GameRecord& record);

// Board size of a record or position: 0 means 15.
int BoardSizeOf(int proto_size);

// Replays a position message (moves, or stones plus side to move) into a
// game. Errors name the field and the move or point. A forbidden black move
// in the history is an error.
absl::StatusOr<Game> GameFromPosition(const pb::Position& position);

// Checks everything the trainer relies on and returns the replayed game:
// known variant and a valid size; every move on the board, on an empty
// point, not after the end, never a forbidden point for black; search
// targets well-formed (policy points legal at that ply and probabilities
// summing to 1; WDL in [0, 1] summing to 1); the recorded result and end
// reason agree with the board (a five must be the winner's; resignation,
// move cap and the like are only allowed while the board has no result);
// with an opening rule, the opening actions are legal under it, end the
// opening and placed the first opening_plies moves (CheckOpeningRecord).
// Errors say what and at which ply or opening action.
//
// `no_five` is how a move that leaves neither side a five is judged
// (RULES.md §5). Uploads use kDraws: the game ended there, so a later move
// or another claimed end is an error. kPlaysOn admits games stored before
// the rule, which played on past that point to a full board, the move cap
// or a resignation; NO_FIVE_POSSIBLE is then accepted only as the end of a
// game whose last move left neither side a five.
absl::StatusOr<Game> ValidateGameRecord(
    const pb::GameRecord& record, NoFivePolicy no_five = NoFivePolicy::kDraws);

// Plies that carry a search target (value training positions).
int NumTrainingPositions(const pb::GameRecord& record);

}  // namespace renju

#endif  // RENJU_RPC_GAME_RECORD_H_
