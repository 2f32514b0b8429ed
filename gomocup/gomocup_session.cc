// GomocupSession: one handler per Gomocup command (gomocup_session.h).
#include "gomocup/gomocup_session.h"

#include <algorithm>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/logging.h"
#include "base/random.h"
#include "gomocup/swap2.h"
#include "gomocup/time_manager.h"
#include "rules/forbidden.h"
#include "search/opening_player.h"

namespace renju {
namespace {

// What follows the command word, without surrounding blanks.
absl::string_view ArgsOf(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  const size_t end = line.find_first_of(" \t");
  if (end == absl::string_view::npos) return "";
  return absl::StripAsciiWhitespace(line.substr(end));
}

// INFO time_left at or above this means "no match limit" (Piskvork sends
// 2147483647).
constexpr int64_t kUnlimitedTimeLeftMs = std::numeric_limits<int32_t>::max();

// A share of what is left before `deadline` for one of `calls` brain calls
// still to come.
MoveLimits ShareOf(const MoveLimits& limits, absl::Time deadline, int calls) {
  const int64_t left =
      std::max<int64_t>(absl::ToInt64Milliseconds(deadline - absl::Now()), 0);
  MoveLimits share = limits;
  share.budget_ms = left / std::max(calls, 1);
  share.optimum_ms = std::min(limits.optimum_ms, share.budget_ms);
  return share;
}

}  // namespace

std::string GomocupCommandOf(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  return absl::AsciiStrToUpper(line.substr(0, line.find_first_of(" \t")));
}

GomocupSession::GomocupSession(GomocupBrain& brain,
                               const GomocupOptions& options,
                               GomocupInput& input,
                               const GomocupProtocol::LineWriter& write_line)
    : brain_(brain),
      options_(options),
      input_(input),
      write_line_(write_line),
      variant_(options.default_variant),
      timeout_turn_ms_(options.default_turn_ms) {}

absl::Status GomocupSession::Run() {
  std::string line;
  int64_t index = 0;
  while (!done_ && output_ok_ && input_.Pop(&line, &index)) {
    // Whatever the line asks, the brain's full attention goes to it.
    brain_.StopPondering();
    Handle(line, index);
  }
  brain_.StopPondering();
  if (!output_ok_) {
    return absl::UnavailableError("the manager no longer reads our replies");
  }
  return absl::OkStatus();
}

void GomocupSession::Reply(absl::string_view line) {
  if (output_ok_) output_ok_ = write_line_(line);
}

void GomocupSession::Error(absl::string_view why) {
  Reply(absl::StrCat("ERROR ", why));
}

void GomocupSession::Handle(absl::string_view line, int64_t index) {
  if (block_ != Block::kNone) return HandleBlockLine(line, index);
  const std::string command = GomocupCommandOf(line);
  const absl::string_view args = ArgsOf(line);
  if (command.empty()) return;
  if (command == "START") return HandleStart(args);
  if (command == "RECTSTART") return HandleRectStart(args);
  if (command == "RESTART") return HandleRestart();
  if (command == "BEGIN") return HandleBegin(index);
  if (command == "TURN") return HandleTurn(args, index);
  if (command == "BOARD") return OpenBlock(Block::kBoard);
  if (command == "YXBOARD") return OpenBlock(Block::kYxBoard);
  if (command == "SWAP2BOARD") return OpenBlock(Block::kSwap2Board);
  if (command == "TAKEBACK") return HandleTakeback(args);
  if (command == "INFO") return HandleInfo(args);
  if (command == "ABOUT") return Reply(options_.about);
  if (command == "YXSHOWFORBID") return HandleShowForbid();
  if (command == "END") {
    done_ = true;
    return;
  }
  // The input thread has already stopped any thinking; nothing else to do.
  if (command == "YXSTOP" || command == "STOP") return;
  Reply(absl::StrCat("UNKNOWN command '", command, "' is not supported"));
}

// --- Board setup -------------------------------------------------------------

void GomocupSession::HandleStart(absl::string_view args) {
  int size = 0;
  if (!absl::SimpleAtoi(args, &size)) {
    return Error(absl::StrCat("START expects a board size, got '", args, "'"));
  }
  if (size < kMinBoardSize || size > kMaxBoardSize) {
    return Error(absl::StrCat("unsupported board size ", size,
                              ": this engine plays ", kMinBoardSize, "x",
                              kMinBoardSize, " to ", kMaxBoardSize, "x",
                              kMaxBoardSize, " (renju: 15x15)"));
  }
  size_ = size;
  game_.reset();
  Reply("OK");
}

void GomocupSession::HandleRectStart(absl::string_view args) {
  const std::vector<absl::string_view> parts = absl::StrSplit(args, ',');
  int width = 0;
  int height = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &width) ||
      !absl::SimpleAtoi(parts[1], &height)) {
    return Error(
        absl::StrCat("RECTSTART expects width,height, got '", args, "'"));
  }
  if (width != height) {
    return Error(absl::StrCat("rectangular boards (", width, "x", height,
                              ") are not supported"));
  }
  HandleStart(absl::StrCat(width));
}

void GomocupSession::HandleRestart() {
  if (size_ == 0) return Error("RESTART before START: no board size yet");
  game_.reset();
  Reply("OK");
}

absl::Status GomocupSession::CheckSetup() const {
  if (size_ == 0) {
    return absl::FailedPreconditionError("no board yet: send START first");
  }
  if (absl::Status s = ValidateBoardSize(variant_, size_); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(s.message(), " (START ", size_, ", INFO rule ",
                     GomocupRuleOf(variant_), ")"));
  }
  return absl::OkStatus();
}

absl::Status GomocupSession::ReadyGame() {
  if (absl::Status s = CheckSetup(); !s.ok()) return s;
  if (game_.has_value() && game_->variant() == variant_) {
    return absl::OkStatus();
  }
  Game game(variant_, size_);
  if (game_.has_value()) {
    for (Move m : game_->moves()) {
      if (absl::Status s = game.Play(m, ForbiddenMovePolicy::kForgiven,
                                     NoFivePolicy::kPlaysOn);
          !s.ok()) {
        return absl::FailedPreconditionError(
            absl::StrCat("the moves so far are not a game under ",
                         VariantName(variant_), ": ", s.message()));
      }
    }
  }
  game_ = std::move(game);
  return absl::OkStatus();
}

// --- Moves -------------------------------------------------------------------

void GomocupSession::HandleBegin(int64_t index) {
  if (absl::Status s = ReadyGame(); !s.ok()) return Error(s.message());
  if (game_->board().num_stones() > 0) {
    return Error(absl::StrCat("BEGIN needs an empty board; it has ",
                              game_->board().num_stones(),
                              " stones (send START or RESTART first)"));
  }
  Think(index);
}

void GomocupSession::HandleTurn(absl::string_view args, int64_t index) {
  if (absl::Status s = ReadyGame(); !s.ok()) return Error(s.message());
  absl::StatusOr<Point> p = ParseGomocupPoint(args, size_);
  if (!p.ok()) return Error(absl::StrCat("TURN: ", p.status().message()));
  // The manager, not the engine, ends the game: it may not know the
  // no-five draw, so play on past it (Think tells the manager).
  if (absl::Status s = game_->Play(Move::At(*p), ForbiddenMovePolicy::kLoses,
                                   NoFivePolicy::kPlaysOn);
      !s.ok()) {
    return Error(absl::StrCat("TURN ", args, ": ", s.message()));
  }
  Think(index);
}

void GomocupSession::HandleTakeback(absl::string_view args) {
  if (absl::Status s = ReadyGame(); !s.ok()) return Error(s.message());
  absl::StatusOr<Point> p = ParseGomocupPoint(args, size_);
  if (!p.ok()) return Error(absl::StrCat("TAKEBACK: ", p.status().message()));
  if (game_->ply() == 0) {
    return Error("TAKEBACK: there is no move to take back");
  }
  const Move last = game_->moves().back();
  if (last != Move::At(*p)) {
    return Error(absl::StrCat(
        "TAKEBACK ", args, ": the last move is ",
        last.is_pass() ? "a pass" : GomocupPointText(last.point(), size_)));
  }
  game_->Undo();
  Reply("OK");
}

void GomocupSession::TellNoFive() {
  Reply(
      absl::StrCat("MESSAGE draw: no five possible for either side after "
                   "move ",
                   game_->no_five_ply(), "; playing on"));
}

void GomocupSession::Think(int64_t index) {
  if (game_->over()) {
    return Error(
        absl::StrCat("the game is over: ", GameResultName(game_->result()),
                     " by ", EndReasonName(game_->end_reason())));
  }
  // RULES.md §5: a draw once neither side can make a five. Managers do
  // not know this rule and go on asking for moves, so the engine says so
  // once, when the move that closed the last window is the latest one
  // (the manager's, the last stone of a BOARD, or ours below), and keeps
  // playing; its search sees every move there as a draw.
  if (game_->no_five_ply() > 0 && game_->no_five_ply() == game_->ply()) {
    TellNoFive();
  }
  const MoveLimits limits = Limits();
  const Move move = ChooseLegalMove(index, limits);
  if (move.is_pass()) return Error("no legal point to play");
  RENJU_CHECK(
      game_->Play(move, ForbiddenMovePolicy::kLoses, NoFivePolicy::kPlaysOn)
          .ok());
  if (game_->no_five_ply() == game_->ply()) TellNoFive();
  if (const std::string summary = brain_.LastMoveSummary(); !summary.empty()) {
    Reply(absl::StrCat("MESSAGE ", summary));
  }
  // Also after a YXSTOP or END cut the thinking short: the manager may be
  // waiting for this move, and if it has gone the line is simply lost.
  Reply(GomocupPointText(move.point(), size_));
  if (pondering_ && !game_->over()) brain_.StartPondering(*game_, limits);
}

void GomocupSession::ThinkWithin(int64_t index, int64_t budget_ms,
                                 const std::function<void()>& think) {
  const absl::Time deadline = absl::Now() + absl::Milliseconds(budget_ms);
  input_.BeginThinking(index);
  std::thread watchdog([this, deadline] { input_.StopAt(deadline); });
  think();
  input_.EndThinking();
  watchdog.join();
}

Move GomocupSession::ChooseLegalMove(int64_t index, const MoveLimits& limits) {
  absl::StatusOr<Move> move;
  ThinkWithin(index, limits.budget_ms,
              [&] { move = brain_.ChooseMove(*game_, limits, input_.stop()); });
  if (move.ok() && !move->is_pass() && game_->IsLegal(move->point())) {
    return *move;
  }
  // A brain bug must not lose the game on an illegal or forbidden point.
  RENJU_LOG(ERROR) << "the brain's move "
                   << (move.ok() ? MoveName(*move) + " is not legal"
                                 : std::string(move.status().message()))
                   << "; playing the tactical brain's move instead";
  TacticalBrain fallback(/*seed=*/0);
  move = fallback.ChooseMove(*game_, limits, input_.stop());
  return move.ok() ? *move : Move::Pass();
}

MoveLimits GomocupSession::Limits() const {
  MoveLimits limits = info_limits_;
  if (options_.time_management) {
    TimeControl control;
    control.turn_ms = timeout_turn_ms_;
    control.match_ms = timeout_match_ms_;
    control.time_left_ms = time_left_ms_;
    const MoveTime time = PlanMoveTime(control, game_->ply());
    limits.budget_ms = time.maximum_ms;
    limits.optimum_ms = time.optimum_ms;
    limits.stop_when_settled = true;
  } else {
    limits.budget_ms = MoveBudgetMs(timeout_turn_ms_, time_left_ms_);
    limits.optimum_ms = limits.budget_ms;
  }
  return limits;
}

// --- INFO and Yixin-Board queries --------------------------------------------

void GomocupSession::HandleInfo(absl::string_view args) {
  const std::string key = absl::AsciiStrToLower(GomocupCommandOf(args));
  const absl::string_view value = ArgsOf(args);
  if (key.empty()) return Error("INFO needs a key and a value");
  int64_t v = 0;
  auto bad = [&](absl::string_view expected) {
    Error(absl::StrCat("INFO ", key, ": expected ", expected, ", got '", value,
                       "'"));
  };
  const bool is_int = absl::SimpleAtoi(value, &v);
  if (key == "timeout_turn" || key == "timeout_match" || key == "max_memory") {
    if (!is_int || v < 0) return bad("a non-negative integer");
    if (key == "timeout_turn") timeout_turn_ms_ = v;
    if (key == "timeout_match") timeout_match_ms_ = v;
    if (key == "max_memory") info_limits_.max_memory_bytes = v;
  } else if (key == "time_left") {
    if (!is_int) return bad("an integer (milliseconds)");
    time_left_ms_ =
        v >= kUnlimitedTimeLeftMs ? std::nullopt : std::optional<int64_t>(v);
  } else if (key == "rule") {
    if (!is_int) return bad("a rule bitmask");
    absl::StatusOr<Variant> variant = VariantFromGomocupRule(v);
    if (!variant.ok()) return Error(variant.status().message());
    variant_ = *variant;
  } else if (key == "max_node") {
    uint64_t nodes = 0;
    if (!absl::SimpleAtoi(value, &nodes)) return bad("a node count");
    info_limits_.max_nodes = nodes;
  } else if (key == "thread_num") {
    if (!is_int || v < 1 || v > 1024) return bad("a thread count in 1..1024");
    info_limits_.threads = static_cast<int>(v);
  } else if (key == "pondering") {
    if (!is_int || v < 0 || v > 1) return bad("0 or 1");
    pondering_ = v == 1;
  } else if (key == "game_type") {
    if (!is_int || v < 0 || v > 3) return bad("a game type in 0..3");
  }
  // Other keys (folder, evaluate, the Yixin-Board options) do not apply to
  // this engine; the protocol lets a brain ignore them.
}

void GomocupSession::HandleShowForbid() {
  if (absl::Status s = ReadyGame(); !s.ok()) return Error(s.message());
  std::vector<Point> points;
  if (variant_ == Variant::kRenju && !game_->over() &&
      game_->side_to_move() == Color::kBlack) {
    for (const ForbiddenPoint& f : ForbiddenPoints(game_->mutable_board())) {
      points.push_back(f.point);
    }
  }
  // Rapfi's format: x then y (from the top), two digits each, then '.'.
  const int size = size_;
  std::sort(points.begin(), points.end(), [size](Point a, Point b) {
    return a.x != b.x ? a.x < b.x : size - a.y < size - b.y;
  });
  std::string out = "FORBID ";
  for (Point p : points) {
    absl::StrAppendFormat(&out, "%02d%02d", p.x, size - 1 - p.y);
  }
  Reply(absl::StrCat(out, "."));
}

// --- BOARD, YXBOARD and SWAP2BOARD blocks ------------------------------------

void GomocupSession::OpenBlock(Block block) {
  block_ = block;
  block_entries_.clear();
  swap2_stones_.clear();
  block_lines_ = 0;
  block_error_.clear();
}

void GomocupSession::HandleBlockLine(absl::string_view line, int64_t index) {
  const std::string command = GomocupCommandOf(line);
  if (command == "DONE") return FinishBlock(index);
  if (command == "END") {
    block_ = Block::kNone;
    done_ = true;
    return;
  }
  ++block_lines_;
  if (!block_error_.empty()) return;
  absl::Status s;
  if (block_ == Block::kSwap2Board) {
    absl::StatusOr<Point> p =
        size_ == 0
            ? absl::FailedPreconditionError("no board yet: send START first")
            : ParseGomocupPoint(absl::StripAsciiWhitespace(line), size_);
    if (p.ok()) swap2_stones_.push_back(*p);
    s = p.status();
  } else {
    s = ParseBoardEntry(line);
  }
  if (!s.ok()) {
    block_error_ = absl::StrCat("line ", block_lines_, " '", line,
                                "' of the position: ", s.message());
  }
}

absl::Status GomocupSession::ParseBoardEntry(absl::string_view line) {
  if (size_ == 0) {
    return absl::FailedPreconditionError("no board yet: send START first");
  }
  const size_t comma = line.rfind(',');
  int field = 0;
  if (comma == absl::string_view::npos ||
      !absl::SimpleAtoi(line.substr(comma + 1), &field)) {
    return absl::InvalidArgumentError("expected x,y,field");
  }
  absl::StatusOr<Point> p = ParseGomocupPoint(line.substr(0, comma), size_);
  if (!p.ok()) return p.status();
  if (field == 3) {
    return absl::UnimplementedError(
        "field 3 (a continuous-game stone) is not supported");
  }
  if (field != 1 && field != 2) {
    return absl::InvalidArgumentError(
        "the field must be 1 (own stone) or 2 (opponent's stone)");
  }
  block_entries_.push_back({*p, field == 1});
  return absl::OkStatus();
}

void GomocupSession::FinishBlock(int64_t index) {
  const Block block = block_;
  block_ = Block::kNone;
  if (block == Block::kSwap2Board) return HandleSwap2Board(index);
  const char* name = block == Block::kBoard ? "BOARD" : "YXBOARD";
  absl::Status s = block_error_.empty()
                       ? SetPosition(block_entries_)
                       : absl::InvalidArgumentError(block_error_);
  if (!s.ok()) return Error(absl::StrCat(name, ": ", s.message()));
  // YXBOARD only sets the position (Yixin-Board extension).
  if (block == Block::kBoard) Think(index);
}

absl::Status GomocupSession::SetPosition(
    const std::vector<BoardEntry>& entries) {
  if (absl::Status s = CheckSetup(); !s.ok()) return s;
  // Field 1 is the side to move: black if both have as many stones.
  const int own = static_cast<int>(
      std::count_if(entries.begin(), entries.end(),
                    [](const BoardEntry& e) { return e.own; }));
  const int opponent = static_cast<int>(entries.size()) - own;
  if (own != opponent && own + 1 != opponent) {
    return absl::InvalidArgumentError(
        absl::StrCat(own, " own and ", opponent,
                     " opponent stones: the side to move must "
                     "have as many stones as the opponent, or one fewer"));
  }
  const bool own_is_black = own == opponent;
  // Renju lines come in move order (protocol doc); for the gomoku rules any
  // order is allowed, and interleaving the colours gives a valid history.
  std::vector<Point> black;
  std::vector<Point> white;
  for (const BoardEntry& e : entries) {
    (e.own == own_is_black ? black : white).push_back(e.point);
  }
  Game game(variant_, size_);
  for (size_t i = 0; i < black.size(); ++i) {
    for (Point p : {black[i], i < white.size() ? white[i] : Point()}) {
      if (!p.OnBoard(size_)) continue;
      if (absl::Status s =
              game.Play(Move::At(p), ForbiddenMovePolicy::kForgiven,
                        NoFivePolicy::kPlaysOn);
          !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "stone ", GomocupPointText(p, size_), ": ", s.message()));
      }
    }
  }
  if (game.over()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the position is already decided (", GameResultName(game.result()),
        " by ", EndReasonName(game.end_reason()), ")"));
  }
  game_ = std::move(game);
  return absl::OkStatus();
}

// --- SWAP2BOARD --------------------------------------------------------------

OpeningAction GomocupSession::ChooseLegalOpeningAction(
    const OpeningState& state, int64_t index, const MoveLimits& limits) {
  absl::StatusOr<OpeningAction> action;
  ThinkWithin(index, limits.budget_ms, [&] {
    action = brain_.ChooseOpeningAction(state, limits, input_.stop());
  });
  absl::Status refused = action.status();
  if (action.ok()) {
    OpeningState probe = state;
    refused = probe.Apply(*action);
    if (refused.ok()) return *action;
  }
  // As for moves: a brain bug must not lose the game.
  RENJU_LOG(ERROR) << "the brain's opening action: " << refused
                   << "; taking the rule's default instead";
  Random rng(state.game().hash(), state.actions().size());
  return DefaultOpeningAction(state, rng);
}

void GomocupSession::HandleSwap2Board(int64_t index) {
  if (absl::Status s = CheckSetup(); !s.ok()) {
    return Error(absl::StrCat("SWAP2BOARD: ", s.message()));
  }
  if (!block_error_.empty()) {
    return Error(absl::StrCat("SWAP2BOARD: ", block_error_));
  }
  absl::StatusOr<OpeningState> state =
      Swap2StateOf(swap2_stones_, variant_, size_);
  if (!state.ok()) {
    return Error(absl::StrCat("SWAP2BOARD: ", state.status().message()));
  }
  game_ = state->game();
  // One move's time for the whole answer, shared by the brain's calls:
  // three stones on the empty board, else a decision and maybe a move.
  const MoveLimits limits = Limits();
  const absl::Time deadline =
      absl::Now() + absl::Milliseconds(limits.budget_ms);
  int calls = game_->ply() == 0 ? 3 : 2;
  const Player me = state->to_act();
  Swap2Answer answer;
  while (!state->done() && state->to_act() == me) {
    const OpeningAction action = ChooseLegalOpeningAction(
        *state, index, ShareOf(limits, deadline, calls--));
    RENJU_CHECK(state->Apply(action).ok());
    if (action.kind == OpeningActionKind::kPlace) {
      answer.points.push_back(action.point);
    }
    if (const std::string summary = brain_.LastMoveSummary();
        !summary.empty()) {
      Reply(absl::StrCat("MESSAGE ", summary));
    }
  }
  // The game as the answer leaves it, so that a TURN may follow as well as
  // the BOARD the convention sends.
  game_ = state->game();
  if (state->done()) {
    // The convention: SWAP when the opponent has the move, else our move.
    answer.swap = state->PlayerOf(game_->side_to_move()) != me;
    if (!answer.swap) {
      const Move move =
          ChooseLegalMove(index, ShareOf(limits, deadline, calls));
      if (move.is_pass()) return Error("SWAP2BOARD: no legal point to play");
      RENJU_CHECK(
          game_->Play(move, ForbiddenMovePolicy::kLoses, NoFivePolicy::kPlaysOn)
              .ok());
      if (const std::string summary = brain_.LastMoveSummary();
          !summary.empty()) {
        Reply(absl::StrCat("MESSAGE ", summary));
      }
      answer.points = {move.point()};
    }
  }
  Reply(Swap2AnswerText(answer, size_));
}

}  // namespace renju
