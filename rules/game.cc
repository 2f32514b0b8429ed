#include "rules/game.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/logging.h"

namespace renju {
namespace {

constexpr uint64_t kWhiteToMoveKey = 0x9d3f6a2c51e87b41ull;

}  // namespace

absl::string_view GameResultName(GameResult r) {
  switch (r) {
    case GameResult::kOngoing:
      return "ongoing";
    case GameResult::kBlackWin:
      return "black";
    case GameResult::kWhiteWin:
      return "white";
    case GameResult::kDraw:
      return "draw";
  }
  return "?";
}

absl::StatusOr<GameResult> ParseGameResult(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  for (GameResult r : {GameResult::kOngoing, GameResult::kBlackWin,
                       GameResult::kWhiteWin, GameResult::kDraw}) {
    if (lower == GameResultName(r)) return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown result '", text, "': expected black, white, draw or ongoing"));
}

absl::string_view EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kNone:
      return "none";
    case EndReason::kFive:
      return "five";
    case EndReason::kForbidden:
      return "forbidden move";
    case EndReason::kFullBoard:
      return "full board";
    case EndReason::kTwoPasses:
      return "two passes";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kTimeout:
      return "timeout";
    case EndReason::kNoFivePossible:
      return "no five possible";
  }
  return "?";
}

Game::Game(Variant variant, int size)
    : board_(variant, size), windows_(board_) {}

absl::StatusOr<Game> Game::Create(Variant variant, int size) {
  if (absl::Status s = ValidateBoardSize(variant, size); !s.ok()) return s;
  return Game(variant, size);
}

absl::StatusOr<Game> Game::FromMoves(Variant variant, int size,
                                     const std::vector<Move>& moves) {
  absl::StatusOr<Game> game = Create(variant, size);
  if (!game.ok()) return game.status();
  for (Move m : moves) {
    if (absl::Status s = game->Play(m); !s.ok()) return s;
  }
  return game;
}

namespace {

// Longest run of `c` through any of its stones (0 if none).
int LongestRun(const Board& board, Color c) {
  const Cell stone = StoneOf(c);
  int best = 0;
  board.Stones(c).ForEach([&](Point p) {
    for (int d = 0; d < kNumDirections; ++d) {
      const int step_x = d == 1 ? 0 : 1;
      const int step_y = d == 0 ? 0 : (d == 3 ? -1 : 1);
      // Count only from the start of a run.
      const Point before(p.x - step_x, p.y - step_y);
      if (board.OnBoard(before) && board.at(before) == stone) continue;
      int n = 0;
      for (Point q = p; board.OnBoard(q) && board.at(q) == stone;
           q = Point(q.x + step_x, q.y + step_y)) {
        ++n;
      }
      best = std::max(best, n);
    }
  });
  return best;
}

}  // namespace

absl::StatusOr<Game> Game::FromStones(Variant variant, int size,
                                      const std::vector<Point>& black,
                                      const std::vector<Point>& white,
                                      Color side_to_move) {
  absl::StatusOr<Game> game = Create(variant, size);
  if (!game.ok()) return game.status();
  for (const auto& [stones, color] :
       {std::pair{&black, Color::kBlack}, std::pair{&white, Color::kWhite}}) {
    for (Point p : *stones) {
      if (!game->board_.OnBoard(p)) {
        return absl::InvalidArgumentError(
            absl::StrCat(ColorName(color), " stone (", p.x, ", ", p.y,
                         ") is off the board"));
      }
      if (!game->board_.IsEmpty(p)) {
        return absl::InvalidArgumentError(
            absl::StrCat(ColorName(color), " stone on ", PointName(p),
                         ": the point is already occupied"));
      }
      game->board_.Place(p, color);
    }
  }
  const int difference =
      static_cast<int>(black.size()) - static_cast<int>(white.size());
  if (difference < 0 || difference > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        black.size(), " black and ", white.size(),
        " white stones: black must have as many as white or one more"));
  }
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const int run = LongestRun(game->board_, c);
    const bool exact = variant == Variant::kStandard ||
                       (variant == Variant::kRenju && c == Color::kBlack);
    if (run == 5 || (run > 5 && !exact)) {
      return absl::InvalidArgumentError(
          absl::StrCat(ColorName(c), " already has five in a row"));
    }
    if (run > 5 && variant == Variant::kRenju) {
      return absl::InvalidArgumentError(
          "black has an overline on the board, a forbidden move");
    }
  }
  game->side_to_move_ = side_to_move;
  game->windows_ = FiveWindows(game->board_);
  // RULES.md §5: such a position is already a draw.
  if (game->board_.full()) {
    game->result_ = GameResult::kDraw;
    game->end_reason_ = EndReason::kFullBoard;
  } else if (!game->CanMakeFive(Color::kBlack) &&
             !game->CanMakeFive(Color::kWhite)) {
    game->result_ = GameResult::kDraw;
    game->end_reason_ = EndReason::kNoFivePossible;
  }
  return game;
}

uint64_t Game::hash() const {
  return board_.hash() ^ (side_to_move_ == Color::kWhite ? kWhiteToMoveKey : 0);
}

absl::Status Game::CheckMove(Move m) const {
  const int number = ply() + 1;
  if (over()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "move ", number, " (", MoveName(m),
        ") comes after the end of the game (", GameResultName(result_), " by ",
        EndReasonName(end_reason_), ")"));
  }
  if (m.is_pass()) return absl::OkStatus();
  const Point p = m.point();
  if (!board_.OnBoard(p)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "move ", number, " is off the ", size(), "x", size(), " board"));
  }
  if (!board_.IsEmpty(p)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "move ", number, " (", PointName(p), ") is on an occupied point"));
  }
  return absl::OkStatus();
}

absl::Status Game::Play(Move m, ForbiddenMovePolicy policy,
                        NoFivePolicy no_five) {
  if (absl::Status s = CheckMove(m); !s.ok()) return s;
  UndoInfo undo{result_, end_reason_, consecutive_passes_, false};
  const Color mover = side_to_move_;

  if (m.is_pass()) {
    // RULES.md §5: one pass by each side in a row is a draw.
    if (++consecutive_passes_ >= 2) {
      result_ = GameResult::kDraw;
      end_reason_ = EndReason::kTwoPasses;
    }
  } else {
    const Point p = m.point();
    consecutive_passes_ = 0;
    // Five first (RULES.md §4): a five wins even if it would be forbidden.
    const bool five = board_.FivePoints(mover).Contains(p);
    ForbiddenKind forbidden = ForbiddenKind::kNone;
    if (!five && mover == Color::kBlack) forbidden = ForbiddenAt(board_, p);
    board_.Place(p, mover);
    windows_.Place(p, mover);
    if (five) {
      result_ = WinFor(mover);
      end_reason_ = EndReason::kFive;
    } else if (forbidden != ForbiddenKind::kNone) {
      forbidden_played_.push_back({ply() + 1, p, forbidden});
      undo.flagged_forbidden = true;
      if (policy == ForbiddenMovePolicy::kLoses) {
        result_ = GameResult::kWhiteWin;
        end_reason_ = EndReason::kForbidden;
      }
    }
    // Also after a forgiven forbidden move: the game cannot go on.
    if (!over() && board_.full()) {
      result_ = GameResult::kDraw;
      end_reason_ = EndReason::kFullBoard;
    }
    // RULES.md §5, the seeds' basic rule 4: drawn as soon as neither side
    // can make a five. Only a stone can close the last window, so passes
    // need no test. A full board keeps its older, more specific name. A
    // game that played on (kPlaysOn) ends at the next kDraws move, so a
    // search from such a position sees every move as a draw.
    if (result_ != GameResult::kBlackWin && result_ != GameResult::kWhiteWin &&
        !windows_.CanMakeFive(Color::kBlack) &&
        !windows_.CanMakeFive(Color::kWhite)) {
      if (no_five_ply_ == 0) no_five_ply_ = ply() + 1;
      if (no_five == NoFivePolicy::kDraws && !over()) {
        result_ = GameResult::kDraw;
        end_reason_ = EndReason::kNoFivePossible;
      }
    }
  }
  moves_.push_back(m);
  history_.push_back(undo);
  side_to_move_ = Opponent(mover);
  return absl::OkStatus();
}

void Game::Undo() {
  RENJU_CHECK(!history_.empty()) << "Undo with no moves";
  const UndoInfo undo = history_.back();
  const Move m = moves_.back();
  history_.pop_back();
  moves_.pop_back();
  if (!m.is_pass()) {
    // The stone is the previous mover's, the opponent of the side to move.
    windows_.Remove(m.point(), Opponent(side_to_move_));
    board_.Remove(m.point());
  }
  if (undo.flagged_forbidden) forbidden_played_.pop_back();
  // Taking back the stones can only reopen windows.
  if (ply() < no_five_ply_) no_five_ply_ = 0;
  result_ = undo.result;
  end_reason_ = undo.end_reason;
  consecutive_passes_ = undo.consecutive_passes;
  side_to_move_ = Opponent(side_to_move_);
}

void Game::Resign(Color loser) {
  if (over()) return;
  result_ = WinFor(Opponent(loser));
  end_reason_ = EndReason::kResignation;
}

void Game::LoseOnTime(Color loser) {
  if (over()) return;
  result_ = WinFor(Opponent(loser));
  end_reason_ = EndReason::kTimeout;
}

bool Game::IsLegal(Point p) {
  if (!board_.OnBoard(p) || !board_.IsEmpty(p)) return false;
  return side_to_move_ != Color::kBlack || !IsForbidden(board_, p);
}

std::vector<Point> Game::LegalPoints() {
  std::vector<Point> out;
  out.reserve(size() * size() - board_.num_stones());
  for (int y = 0; y < size(); ++y) {
    for (int x = 0; x < size(); ++x) {
      const Point p(x, y);
      if (IsLegal(p)) out.push_back(p);
    }
  }
  return out;
}

}  // namespace renju
