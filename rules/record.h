// Game records: plain move lists, Piskvork `.psq` and SGF (GM[4]), and the
// replay of a record through the rules with RIF's referee detail (RULES.md
// §4: an unclaimed forbidden move is flagged and play goes on).
//
// Coordinates. Internally (types.h) x is the column from the left and y the
// row from the BOTTOM: `h8` = {7, 7}, `a1` = {0, 0} is the bottom-left corner.
// The file formats count rows from the TOP, so on a board of size N:
//   renju notation `h8`  column letter a.., row number 1.. from the bottom
//   .psq `x,y`           1-based, x = column from the left, y = row from the
//                        top:  point = {x - 1, N - y}
//   SGF `B[cr]`          two letters, 'a' = 0: column from the left, row
//                        from the top:  point = {c - 'a', N - 1 - (r - 'a')}
// On 15 x 15: renju `i9` = psq `9,7` = SGF `ig` (= Gomocup `8,6`), and the
// centre `h8` = psq `8,8` = SGF `hh`.
//
// Off-board moves. Renju-notation tokens are read as points of any column
// a..z and row 1..99, so a record with `p8` on 15 x 15 reads fine and the
// replay reports the move as off the board. .psq and SGF state the board
// size and are read against it: a coordinate outside it is a read error.
//
// Errors are values; a read error names the 1-based line of the text and
// what was expected. Everything here is thread-compatible (no shared state).
#ifndef RENJU_RULES_RECORD_H_
#define RENJU_RULES_RECORD_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "rules/types.h"

namespace renju {

// One game as a record states it; nothing here has been checked against the
// rules (see ReplayRecord).
struct GameRecord {
  std::optional<Variant> variant;  // absent when the record does not say
  int size = kRenjuBoardSize;
  std::vector<Move> moves;           // play order, black first; passes allowed
  std::optional<GameResult> result;  // the recorded result; absent = unknown
  int line = 0;  // 1-based line where the game starts in its file; 0 = unknown
  // The opening rule the game was played under (RULES.md §6) and its
  // opening actions in order (place, swap, keep, declare, offer, choose);
  // absent for records that do not say, e.g. every file format but .game
  // and JSON Lines, and games written before opening rules were played.
  std::optional<OpeningRule> opening_rule;
  std::vector<OpeningAction> opening_actions;
};

// A renju-notation move as records write it: `h8` (any case), or a pass
// (`pass`, `--`). Accepts columns a..z and rows 1..99 (see above).
absl::StatusOr<Move> ParseRecordMove(absl::string_view token);

// "black", "white", "draw" (case-insensitive) give that result; "unknown"
// gives nullopt (a recorded "I don't know").
absl::StatusOr<std::optional<GameResult>> ParseRecordedResult(
    absl::string_view text);

// The variant a record's rule name implies, case-insensitively: anything
// naming renju or a renju opening rule (RIF, Yamaguchi, Taraguchi, Soosyrv,
// Sakata, Tarannikov) and the Gomocup code "4" give renju; "freestyle" and
// "0" freestyle; "standard", "gomoku" (exactly five, as in Swap2 gomoku) and
// "1" standard. Anything else: nullopt.
std::optional<Variant> VariantFromRuleName(absl::string_view name);

// Plain move-list files: one game per line, moves separated by spaces, commas
// or semicolons (`h8 h9 i10`). A line may start with its result word
// (`black h8 h9 ...`, the format of dasimagin/renju's train files). Blank
// lines and lines starting with '#' are skipped. Size 15, variant unset.
absl::StatusOr<std::vector<GameRecord>> ReadMoveLists(absl::string_view text);
// One line `black h8 h9 ... pass ...` as ReadMoveLists reads it: the result
// word when the result is known, then the moves. Fails on a board other
// than 15 x 15 (a move list does not state its size).
absl::StatusOr<std::string> WriteMoveList(const GameRecord& record);

// Piskvork .psq: header `Piskvorky WxH, o1:o2, h` (square boards of 5..20),
// then `x,y[,ms]` lines; the first other line ends the moves and the trailer
// (engine names, error code) is ignored. A psq states neither the rule nor
// the result: both come back unset.
absl::StatusOr<GameRecord> ReadPsq(absl::string_view text);
// Writes what Piskvork's savePsq writes, with 0 ms per move and error code
// 0. Fails on a pass or an off-board move (psq has neither).
absl::StatusOr<std::string> WritePsq(const GameRecord& record);

// SGF (FF[4]) game trees; a collection gives one record per tree. Reads the
// main line (the first variation at every branch). Properties used: GM (must
// be 4 when present), SZ (default 15), RU, RE, B and W (`[]`, and `[tt]` on
// boards up to 19, are passes). RU goes through VariantFromRuleName; a value
// it does not know leaves the variant unset. RE: B+..., W+..., 0/Draw give
// the result; Void, ? and an empty value leave it unknown. Setup stones (AB,
// AW, AE) are an error: a record here is a move sequence from the empty
// board. Other properties (PB, C, ...) are skipped.
absl::StatusOr<std::vector<GameRecord>> ReadSgf(absl::string_view text);
// `(;FF[4]GM[4]CA[UTF-8]SZ[n]RU[variant]RE[..];B[..];W[..]...)`; RU and RE
// only when known. Fails on an off-board move.
absl::StatusOr<std::string> WriteSgf(const GameRecord& record);

// Why a recorded move could not be played.
enum class IllegalReason : uint8_t { kOffBoard, kOccupied, kAfterEnd };
// "off the board", "occupied", "after the end".
absl::string_view IllegalReasonName(IllegalReason r);

struct IllegalMove {
  int ply = 0;  // 1-based move number
  Move move;
  IllegalReason reason = IllegalReason::kOffBoard;
};

struct ReplayedGame {
  // The game after the last move played; game.forbidden_played() lists the
  // forbidden moves that were flagged and forgiven, game.no_five_ply() the
  // move after which neither side could make a five (0: none).
  Game game;
  std::optional<IllegalMove> illegal;  // the first move that was not played
  // Why the record's opening actions do not fit its opening rule and moves
  // (CheckOpeningRecord: the first illegal action, an unfinished opening,
  // a move that is not the stone the opening placed); absent when they fit
  // or the record has no opening rule. The moves are replayed either way.
  std::optional<std::string> illegal_opening;

  // The result by the rules: the game's own, except that a game that left
  // neither side a five was drawn there, whatever the record played after
  // (RULES.md §5). A board filled by that same move stays "full board".
  GameResult result() const;
  EndReason end_reason() const;
  // Moves the record played after the game was drawn for want of a five.
  bool played_on_after_no_five() const {
    return game.no_five_ply() > 0 && game.ply() > game.no_five_ply();
  }
};

// Plays the record's moves under `variant` with
// ForbiddenMovePolicy::kForgiven and NoFivePolicy::kPlaysOn (human records
// often play on where no five is possible; the ply is noted, not refused),
// stopping at the first illegal move (off the board, occupied, or after the
// game ended by a five, a full board or two passes), and checks a recorded
// opening against its rule (illegal_opening). Fails only when `variant`
// and record.size do not fit together.
absl::StatusOr<ReplayedGame> ReplayRecord(const GameRecord& record,
                                          Variant variant);

}  // namespace renju

#endif  // RENJU_RULES_RECORD_H_
