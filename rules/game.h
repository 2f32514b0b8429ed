// A game in progress: the board plus turn, history, passes and the result,
// judged by the variant's rules (RULES.md §2, §4, §5). KataGo keeps the same
// split between its fast Board and BoardHistory.
//
// Opening rules (who places which stone before normal play) live in
// opening.h; a Game sees only the stones, alternating from black.
#ifndef RENJU_RULES_GAME_H_
#define RENJU_RULES_GAME_H_

#include <cstdint>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rules/board.h"
#include "rules/five_windows.h"
#include "rules/forbidden.h"
#include "rules/types.h"

namespace renju {

enum class GameResult : uint8_t { kOngoing = 0, kBlackWin, kWhiteWin, kDraw };
absl::string_view GameResultName(GameResult r);  // "ongoing", "black", ...
absl::StatusOr<GameResult> ParseGameResult(absl::string_view text);

constexpr GameResult WinFor(Color c) {
  return c == Color::kBlack ? GameResult::kBlackWin : GameResult::kWhiteWin;
}

enum class EndReason : uint8_t {
  kNone = 0,
  kFive,       // the winner made a five (RULES.md §2)
  kForbidden,  // black played a forbidden point (renju)
  kFullBoard,  // draw
  kTwoPasses,  // draw
  kResignation,
  kTimeout,
  kNoFivePossible,  // draw: a move left neither side a five (RULES.md §5)
};
absl::string_view EndReasonName(EndReason r);

// What a black move on a forbidden point does (renju).
enum class ForbiddenMovePolicy : uint8_t {
  kLoses,     // engine play: the game ends, white wins (RULES.md §4)
  kForgiven,  // human records: an unclaimed forbidden move is flagged and
              // play goes on (RULES.md §4, referee detail)
};

// What a move that leaves neither side a possible five does (RULES.md §5).
enum class NoFivePolicy : uint8_t {
  kDraws,    // engine play and the seeds' rule: the game ends drawn at once
  kPlaysOn,  // human records that played on: the ply is noted
             // (Game::no_five_ply) and play goes on to a five that cannot
             // come, a full board or two passes
};

struct ForbiddenMoveRecord {
  int ply = 0;  // 1-based move number
  Point point;
  ForbiddenKind kind = ForbiddenKind::kNone;
};

class Game {
 public:
  explicit Game(Variant variant = Variant::kRenju, int size = kRenjuBoardSize);
  // Validates the variant/size pair first.
  static absl::StatusOr<Game> Create(Variant variant, int size);
  // Plays `moves` from the empty board with ForbiddenMovePolicy::kLoses; the
  // error names the move number of the first bad move.
  static absl::StatusOr<Game> FromMoves(Variant variant, int size,
                                        const std::vector<Move>& moves);
  // A position without history (Undo cannot go before it): the stones and
  // the side to move. Errors name the bad point: off the board, occupied,
  // black not having as many stones as white or one more, or a finished
  // position (a winning five, or a black overline under renju). A position
  // where neither side can make a five any more is returned drawn
  // (kNoFivePossible, or kFullBoard when full), with no_five_ply() 0.
  static absl::StatusOr<Game> FromStones(Variant variant, int size,
                                         const std::vector<Point>& black,
                                         const std::vector<Point>& white,
                                         Color side_to_move);

  Variant variant() const { return board_.variant(); }
  int size() const { return board_.size(); }
  const Board& board() const { return board_; }
  // For probes by search and move generation; they must restore it.
  Board& mutable_board() { return board_; }
  // Whether each side can still make a five (RULES.md §5).
  const FiveWindows& five_windows() const { return windows_; }
  bool CanMakeFive(Color c) const { return windows_.CanMakeFive(c); }

  Color side_to_move() const { return side_to_move_; }
  int ply() const { return static_cast<int>(history_.size()); }
  const std::vector<Move>& moves() const { return moves_; }
  // Hash of the stones and the side to move.
  uint64_t hash() const;

  GameResult result() const { return result_; }
  EndReason end_reason() const { return end_reason_; }
  bool over() const { return result_ != GameResult::kOngoing; }
  int consecutive_passes() const { return consecutive_passes_; }
  const std::vector<ForbiddenMoveRecord>& forbidden_played() const {
    return forbidden_played_;
  }
  // The move number after which neither side could make a five any more,
  // or 0 while one still can (or the game was won first). Under
  // NoFivePolicy::kDraws the game ended there; under kPlaysOn it went on.
  int no_five_ply() const { return no_five_ply_; }

  // Why `m` cannot be played now, naming the move: the game is over, the
  // point is off the board or occupied. A forbidden point is not an error
  // here: playing it loses (see ForbiddenMovePolicy).
  absl::Status CheckMove(Move m) const;
  // Plays `m` for the side to move. On error the game is unchanged.
  absl::Status Play(Move m,
                    ForbiddenMovePolicy policy = ForbiddenMovePolicy::kLoses,
                    NoFivePolicy no_five = NoFivePolicy::kDraws);
  // Takes back the last move; ply() must be positive.
  void Undo();

  // Ends the game for a reason outside the board (resignation, time).
  void Resign(Color loser);
  void LoseOnTime(Color loser);

  // A point the side to move may play without losing at once: empty and,
  // for black under renju, not forbidden.
  bool IsLegal(Point p);
  std::vector<Point> LegalPoints();

 private:
  // What Undo() restores.
  struct UndoInfo {
    GameResult result;
    EndReason end_reason;
    int consecutive_passes;
    bool flagged_forbidden;
  };

  Board board_;
  FiveWindows windows_;  // of board_'s stones; declared after board_
  Color side_to_move_ = Color::kBlack;
  GameResult result_ = GameResult::kOngoing;
  EndReason end_reason_ = EndReason::kNone;
  int consecutive_passes_ = 0;
  int no_five_ply_ = 0;
  std::vector<Move> moves_;
  std::vector<UndoInfo> history_;
  std::vector<ForbiddenMoveRecord> forbidden_played_;
};

}  // namespace renju

#endif  // RENJU_RULES_GAME_H_
