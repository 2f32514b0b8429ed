// Swap2 through the Gomocup protocol: the SWAP2BOARD command that Gomocup's
// experimental tournaments added in 2020, read in terms of the swap2
// procedure of rules/opening.h. Both sides use it: our engine answers the
// command (gomocup_session.cc), our arena asks external engines
// (gomocup_client.h).
//
// The manager sends SWAP2BOARD, the stones placed so far in move order as
// "x,y" lines (0, 3 or 5 of them), then DONE, and the engine answers with
// one line:
//   0 stones  three points: moves 1-3 (the engine is the first player);
//   3 stones  SWAP: it takes black and the first player, now white, plays
//             move 4; one point: it keeps white and that is move 4; two
//             points: moves 4 and 5, and the first player chooses a colour;
//   5 stones  SWAP: it takes black and the other player, white, plays
//             move 6; one point: it takes white and that is move 6.
// So SWAP always means "the opening is over and the opponent has the move",
// and a single point "the opening is over and this is my move". In the
// rule's own terms SWAP after five stones is the first player's
// KeepColours (it was tentative black) and a point there is its Swap: the
// arena counts swaps in those terms.
#ifndef RENJU_GOMOCUP_SWAP2_H_
#define RENJU_GOMOCUP_SWAP2_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/opening.h"
#include "rules/types.h"

namespace renju {

// One engine's answer to SWAP2BOARD.
struct Swap2Answer {
  bool swap = false;          // "SWAP"
  std::vector<Point> points;  // otherwise, in move order
};

// "SWAP", or the points as "x,y x,y" in Gomocup coordinates.
std::string Swap2AnswerText(const Swap2Answer& answer, int size);
// "SWAP" (any case), or one to three points "x,y" separated by blanks, on
// a size x size board. The error quotes the text.
absl::StatusOr<Swap2Answer> ParseSwap2Answer(absl::string_view text, int size);

// What an answer stands for in a swap2 opening: the answering player's
// actions in order, and the move it plays once they end the opening.
struct Swap2Turn {
  std::vector<OpeningAction> actions;
  std::optional<Point> move;
};

// Reads `answer` for state.to_act() in `state`, a swap2 opening after 0, 3
// or 5 stones, and checks every action against the rule and the move
// against the game. The error says what the convention or the rule
// expected.
absl::StatusOr<Swap2Turn> Swap2TurnOf(const OpeningState& state,
                                      const Swap2Answer& answer);

// The swap2 opening after `stones`, placed in order (what SWAP2BOARD
// lists). Errors: another count than 0, 3 or 5, or a stone the rule
// refuses (named by its place in the list).
absl::StatusOr<OpeningState> Swap2StateOf(const std::vector<Point>& stones,
                                          Variant variant, int size);

}  // namespace renju

#endif  // RENJU_GOMOCUP_SWAP2_H_
