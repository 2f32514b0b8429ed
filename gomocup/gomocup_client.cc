// GomocupClient: an external Gomocup engine as a child process.
#include "gomocup/gomocup_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/subprocess.h"
#include "gomocup/swap2.h"
#include "rules/forbidden.h"
#include "rules/opening.h"

namespace renju {
namespace {

// A reply line longer than this is garbage, not a move.
constexpr size_t kMaxLineBytes = 1 << 16;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Writes all of `data`. A closed pipe must give EPIPE, not the default
// SIGPIPE that would end the whole arena: block the signal in this thread
// while writing and consume one that the write raised.
bool WriteAll(int fd, absl::string_view data) {
  sigset_t pipe_set;
  sigset_t old_set;
  sigset_t pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  bool ok = true;
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      if (errno == EPIPE && !was_pending) {
        const timespec zero{0, 0};
        sigtimedwait(&pipe_set, nullptr, &zero);
      }
      break;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return ok;
}

std::string DescribeExit(int status) {
  if (WIFEXITED(status)) {
    return absl::StrCat("exited with status ", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return absl::StrCat("killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return "stopped";
}

bool IsNoteLine(absl::string_view command) {
  return command == "MESSAGE" || command == "DEBUG";
}

bool IsErrorLine(absl::string_view command) {
  return command == "ERROR" || command == "UNKNOWN";
}

std::string FirstWordUpper(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  return absl::AsciiStrToUpper(line.substr(0, line.find_first_of(" \t")));
}

// Gomocup "x,y" for a rules-core point: y counts from the top.
std::string WirePoint(Point p, int size) {
  return absl::StrCat(p.x, ",", size - 1 - p.y);
}

}  // namespace

absl::string_view EngineFaultName(EngineFault f) {
  switch (f) {
    case EngineFault::kNone:
      return "none";
    case EngineFault::kCrashed:
      return "crashed";
    case EngineFault::kTimedOut:
      return "timed out";
    case EngineFault::kGarbage:
      return "garbage reply";
    case EngineFault::kIllegalMove:
      return "illegal move";
    case EngineFault::kRefused:
      return "refused";
  }
  return "unknown";
}

// --- Process -----------------------------------------------------------------

absl::StatusOr<std::unique_ptr<GomocupClient>> GomocupClient::Launch(
    GomocupClientOptions options) {
  if (options.argv.empty()) {
    return absl::InvalidArgumentError("no engine command line given");
  }
  int to_engine[2];
  int from_engine[2];
  if (pipe2(to_engine, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  if (pipe2(from_engine, O_CLOEXEC) != 0) {
    close(to_engine[0]);
    close(to_engine[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  SpawnOptions spawn;
  spawn.stdin_fd = to_engine[0];
  spawn.stdout_fd = from_engine[1];
  spawn.discard_stderr = options.discard_stderr;
  spawn.working_dir = options.working_dir;
  // Its own process group, so a timeout kills whatever the engine started;
  // default SIGPIPE and no blocked signals, whatever ours are.
  spawn.own_process_group = true;
  spawn.reset_signals = true;
  const absl::StatusOr<pid_t> pid = SpawnProcess(options.argv, spawn);
  close(to_engine[0]);
  close(from_engine[1]);
  if (!pid.ok()) {
    close(to_engine[1]);
    close(from_engine[0]);
    const std::string message =
        absl::StrCat("cannot start engine '", absl::StrJoin(options.argv, " "),
                     "': ", pid.status().message());
    return absl::IsNotFound(pid.status())
               ? absl::NotFoundError(message)
               : absl::FailedPreconditionError(message);
  }
  return std::unique_ptr<GomocupClient>(new GomocupClient(
      std::move(options), *pid, to_engine[1], from_engine[0]));
}

GomocupClient::GomocupClient(GomocupClientOptions options, pid_t pid,
                             int to_engine, int from_engine)
    : options_(std::move(options)),
      name_(absl::StrJoin(options_.argv, " ")),
      pid_(pid),
      to_engine_(to_engine),
      from_engine_(from_engine) {}

GomocupClient::~GomocupClient() { Quit(); }

void GomocupClient::Quit() {
  if (pid_ <= 0) return;
  WriteAll(to_engine_, "END\n");
  Stop(options_.quit_timeout_ms);
}

std::string GomocupClient::Stop(int64_t wait_ms) {
  if (pid_ <= 0) return "";
  close(to_engine_);  // an engine waiting for input sees the end of it
  const int64_t deadline = NowMs() + wait_ms;
  // Wait for the exit without reaping: an unreaped engine keeps its process
  // group id from being reused, so the kill below cannot hit a stranger.
  for (;;) {
    siginfo_t info{};
    const int r = waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT);
    if ((r == 0 && info.si_pid == pid_) || (r < 0 && errno != EINTR)) break;
    if (NowMs() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(-pid_, SIGKILL);  // the engine's helpers, and the engine if alive
  kill(pid_, SIGKILL);   // in case it left its process group
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  close(from_engine_);
  pid_ = -1;
  to_engine_ = -1;
  from_engine_ = -1;
  return DescribeExit(status);
}

absl::Status GomocupClient::Fail(EngineFault fault, absl::Status status) {
  fault_ = fault;
  if (fault == EngineFault::kRefused) return status;
  // A crashed engine is usually exiting already; give it a moment so the
  // message can say how it ended.
  const std::string how = Stop(fault == EngineFault::kCrashed ? 200 : 0);
  if (fault != EngineFault::kCrashed || how.empty()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(status.message(), " (it ", how, ")"));
}

// --- Lines -------------------------------------------------------------------

absl::Status GomocupClient::Send(absl::string_view line) {
  if (WriteAll(to_engine_, absl::StrCat(line, "\n"))) return absl::OkStatus();
  return Fail(
      EngineFault::kCrashed,
      absl::UnavailableError(absl::StrCat(
          "engine '", name_, "' closed its input before '", line, "'")));
}

absl::StatusOr<std::string> GomocupClient::ReadLine(int64_t timeout_ms) {
  const int64_t deadline = NowMs() + std::max<int64_t>(timeout_ms, 0);
  for (;;) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buffer_.size() > kMaxLineBytes) {
      return Fail(EngineFault::kGarbage,
                  absl::DataLossError(absl::StrCat(
                      "engine '", name_, "' wrote a line of more than ",
                      kMaxLineBytes, " bytes")));
    }
    const int64_t left = deadline - NowMs();
    if (left <= 0) return absl::DeadlineExceededError("no reply in time");
    pollfd pfd{from_engine_, POLLIN, 0};
    const int ready =
        poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, INT_MAX)));
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    char chunk[4096];
    const ssize_t n = ready < 0 ? -1 : read(from_engine_, chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      return Fail(EngineFault::kCrashed,
                  absl::UnavailableError(
                      absl::StrCat("engine '", name_, "' closed its output")));
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

absl::StatusOr<std::string> GomocupClient::ReadReply(int64_t timeout_ms,
                                                     absl::string_view request,
                                                     bool skip_errors) {
  const int64_t deadline = NowMs() + timeout_ms;
  for (;;) {
    absl::StatusOr<std::string> line = ReadLine(deadline - NowMs());
    if (absl::IsDeadlineExceeded(line.status())) {
      std::string message =
          absl::StrCat("engine '", name_, "' did not answer '", request,
                       "' within ", timeout_ms, " ms");
      if (!last_error_line_.empty()) {
        absl::StrAppend(&message, " (it said '", last_error_line_, "')");
      }
      return Fail(EngineFault::kTimedOut, absl::DeadlineExceededError(message));
    }
    if (!line.ok()) {
      return absl::Status(
          line.status().code(),
          absl::StrCat(line.status().message(),
                       " while we waited for the answer to '", request, "'"));
    }
    const std::string command = FirstWordUpper(*line);
    if (command.empty() || IsNoteLine(command)) continue;
    if (skip_errors && IsErrorLine(command)) {
      last_error_line_ = *line;
      continue;
    }
    return line;
  }
}

int64_t GomocupClient::StartupAllowanceMs() const {
  return first_move_answered_ ? 0 : options_.startup_ms;
}

void GomocupClient::DropUnreadLines() {
  char chunk[4096];
  for (;;) {
    pollfd pfd{from_engine_, POLLIN, 0};
    if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN)) break;
    const ssize_t n = read(from_engine_, chunk, sizeof(chunk));
    if (n <= 0) break;  // the end of the output shows at the next read
    buffer_.append(chunk, static_cast<size_t>(n));
  }
  const size_t last_newline = buffer_.rfind('\n');
  if (last_newline != std::string::npos) buffer_.erase(0, last_newline + 1);
}

// --- Games -------------------------------------------------------------------

absl::StatusOr<std::string> GomocupClient::About() {
  fault_ = EngineFault::kNone;
  if (!running()) {
    return absl::FailedPreconditionError(
        absl::StrCat("engine '", name_, "' is not running"));
  }
  DropUnreadLines();
  if (absl::Status s = Send("ABOUT"); !s.ok()) return s;
  absl::StatusOr<std::string> reply =
      ReadReply(options_.command_timeout_ms + StartupAllowanceMs(), "ABOUT",
                /*skip_errors=*/false);
  if (reply.ok() && IsErrorLine(FirstWordUpper(*reply))) {
    return Fail(
        EngineFault::kRefused,
        absl::UnimplementedError(absl::StrCat(
            "engine '", name_, "' answered ABOUT with '", *reply, "'")));
  }
  return reply;
}

absl::Status GomocupClient::NewGame(Variant variant, int size) {
  fault_ = EngineFault::kNone;
  if (!running()) {
    return absl::FailedPreconditionError(
        absl::StrCat("engine '", name_, "' is not running"));
  }
  if (absl::Status s = ValidateBoardSize(variant, size); !s.ok()) return s;
  const std::string start = absl::StrCat("START ", size);
  DropUnreadLines();
  if (absl::Status s = Send(start); !s.ok()) return s;
  absl::StatusOr<std::string> reply =
      ReadReply(options_.command_timeout_ms + StartupAllowanceMs(), start,
                /*skip_errors=*/false);
  if (!reply.ok()) return reply.status();
  if (absl::AsciiStrToUpper(absl::StripAsciiWhitespace(*reply)) != "OK") {
    const bool refused = IsErrorLine(FirstWordUpper(*reply));
    return Fail(refused ? EngineFault::kRefused : EngineFault::kGarbage,
                absl::FailedPreconditionError(
                    absl::StrCat("engine '", name_, "' answered '", start,
                                 "' with '", *reply, "' instead of OK")));
  }
  std::string info = absl::StrCat(
      "INFO timeout_turn ", options_.turn_time_ms, "\nINFO timeout_match ",
      options_.match_time_ms, "\nINFO max_memory ", options_.max_memory_bytes,
      "\nINFO game_type 1\nINFO rule ",
      variant == Variant::kRenju      ? 4
      : variant == Variant::kStandard ? 1
                                      : 0);
  if (options_.max_nodes > 0) {
    absl::StrAppend(&info, "\nINFO max_node ", options_.max_nodes);
  }
  if (absl::Status s = Send(info); !s.ok()) return s;
  variant_ = variant;
  size_ = size;
  known_moves_.clear();
  last_error_line_.clear();
  time_left_ms_.reset();
  if (options_.match_time_ms > 0) time_left_ms_ = options_.match_time_ms;
  return absl::OkStatus();
}

absl::StatusOr<Move> GomocupClient::GetMove(const Game& game) {
  fault_ = EngineFault::kNone;
  if (!running() || size_ == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "engine '", name_, "' is not ", running() ? "in a game" : "running"));
  }
  if (game.variant() != variant_ || game.size() != size_ || game.over()) {
    return absl::InvalidArgumentError(
        absl::StrCat("GetMove needs an ongoing ", VariantName(variant_),
                     " game on ", size_, "x", size_));
  }
  for (size_t i = 0; i < game.moves().size(); ++i) {
    if (game.moves()[i].is_pass()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1,
                       " is a pass, which the Gomocup protocol cannot send"));
    }
  }
  absl::StatusOr<std::string> request = SendPosition(game);
  if (!request.ok()) return request.status();
  absl::StatusOr<std::string> reply =
      AwaitThought(*request, /*skip_errors=*/true);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<Move> move = CheckMove(game, *reply);
  if (!move.ok()) return move.status();
  known_moves_ = game.moves();
  known_moves_.push_back(*move);
  return move;
}

absl::StatusOr<std::string> GomocupClient::AwaitThought(
    absl::string_view request, bool skip_errors) {
  int64_t limit_ms = options_.turn_time_ms;
  if (time_left_ms_) {
    limit_ms = std::min(limit_ms, std::max<int64_t>(*time_left_ms_, 0));
  }
  const int64_t startup_ms = StartupAllowanceMs();
  const int64_t start_ms = NowMs();
  absl::StatusOr<std::string> reply = ReadReply(
      limit_ms + options_.grace_ms + startup_ms, request, skip_errors);
  last_move_ms_ = NowMs() - start_ms;
  if (time_left_ms_) {
    // What the first answer took past its limit, up to the allowance, was
    // start-up, not thinking.
    const int64_t startup_used =
        std::clamp<int64_t>(last_move_ms_ - limit_ms, 0, startup_ms);
    *time_left_ms_ -= last_move_ms_ - startup_used;
  }
  if (reply.ok()) first_move_answered_ = true;
  return reply;
}

absl::StatusOr<Swap2Turn> GomocupClient::Swap2Board(const OpeningState& state) {
  fault_ = EngineFault::kNone;
  if (!running() || size_ == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "engine '", name_, "' is not ", running() ? "in a game" : "running"));
  }
  const Game& game = state.game();
  if (state.rule().kind != OpeningRuleKind::kSwap2 || state.done() ||
      game.variant() != variant_ || game.size() != size_) {
    return absl::InvalidArgumentError(
        absl::StrCat("Swap2Board needs a swap2 opening in progress, ",
                     VariantName(variant_), " on ", size_, "x", size_));
  }
  std::string text;
  if (time_left_ms_) {
    absl::StrAppend(&text, "INFO time_left ", *time_left_ms_, "\n");
  }
  absl::StrAppend(&text, "SWAP2BOARD\n");
  for (Move m : game.moves()) {
    absl::StrAppend(&text, WirePoint(m.point(), size_), "\n");
  }
  absl::StrAppend(&text, "DONE");
  const std::string request =
      absl::StrCat("SWAP2BOARD (", game.ply(), " stones)");
  DropUnreadLines();
  if (absl::Status s = Send(text); !s.ok()) return s;
  absl::StatusOr<std::string> reply =
      AwaitThought(request, /*skip_errors=*/false);
  if (!reply.ok()) return reply.status();
  const std::string answered = absl::StrCat("engine '", name_, "' answered '",
                                            request, "' with '", *reply, "'");
  if (IsErrorLine(FirstWordUpper(*reply))) {
    return Fail(EngineFault::kRefused, absl::UnimplementedError(answered));
  }
  absl::StatusOr<Swap2Answer> answer = ParseSwap2Answer(*reply, size_);
  if (!answer.ok()) {
    return Fail(EngineFault::kGarbage,
                absl::InvalidArgumentError(
                    absl::StrCat(answered, ": ", answer.status().message())));
  }
  absl::StatusOr<Swap2Turn> turn = Swap2TurnOf(state, *answer);
  if (!turn.ok()) {
    return Fail(EngineFault::kIllegalMove,
                absl::InvalidArgumentError(
                    absl::StrCat(answered, ": ", turn.status().message())));
  }
  known_moves_.clear();
  return turn;
}

absl::StatusOr<std::string> GomocupClient::SendPosition(const Game& game) {
  const std::vector<Move>& moves = game.moves();
  std::string text;
  if (time_left_ms_) {
    absl::StrAppend(&text, "INFO time_left ", *time_left_ms_, "\n");
  }
  std::string request;
  const bool engine_saw_all_but_last =
      known_moves_.size() + 1 == moves.size() &&
      std::equal(known_moves_.begin(), known_moves_.end(), moves.begin());
  if (moves.empty() && known_moves_.empty()) {
    request = "BEGIN";
    absl::StrAppend(&text, request);
  } else if (engine_saw_all_but_last) {
    request = absl::StrCat("TURN ", WirePoint(moves.back().point(), size_));
    absl::StrAppend(&text, request);
  } else {
    // Field 1 marks the side to move's stones; lines in move order.
    request = absl::StrCat("BOARD (", moves.size(), " stones)");
    absl::StrAppend(&text, "BOARD\n");
    const int mover_parity = static_cast<int>(moves.size() % 2);
    for (size_t i = 0; i < moves.size(); ++i) {
      absl::StrAppend(&text, WirePoint(moves[i].point(), size_), ",",
                      static_cast<int>(i % 2) == mover_parity ? 1 : 2, "\n");
    }
    absl::StrAppend(&text, "DONE");
  }
  if (absl::Status s = Send(text); !s.ok()) return s;
  return request;
}

absl::StatusOr<Move> GomocupClient::CheckMove(const Game& game,
                                              absl::string_view reply) {
  const std::vector<absl::string_view> parts = absl::StrSplit(reply, ',');
  int x = 0;
  int y = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &x) ||
      !absl::SimpleAtoi(parts[1], &y)) {
    return Fail(EngineFault::kGarbage, absl::InvalidArgumentError(absl::StrCat(
                                           "engine '", name_, "' answered '",
                                           reply, "' instead of a move x,y")));
  }
  const std::string played =
      absl::StrCat("engine '", name_, "' played ", x, ",", y);
  if (x < 0 || y < 0 || x >= size_ || y >= size_) {
    return Fail(EngineFault::kIllegalMove,
                absl::InvalidArgumentError(absl::StrCat(
                    played, ", off the ", size_, "x", size_, " board")));
  }
  const Point p(x, size_ - 1 - y);
  if (!game.board().IsEmpty(p)) {
    return Fail(EngineFault::kIllegalMove,
                absl::InvalidArgumentError(absl::StrCat(
                    played, " (", PointName(p), "), an occupied point")));
  }
  if (game.variant() == Variant::kRenju &&
      game.side_to_move() == Color::kBlack) {
    Board board = game.board();
    if (const ForbiddenKind kind = ForbiddenAt(board, p);
        kind != ForbiddenKind::kNone) {
      return Fail(EngineFault::kIllegalMove,
                  absl::InvalidArgumentError(absl::StrCat(
                      played, " (", PointName(p), "), forbidden for black (",
                      ForbiddenKindName(kind), ")")));
    }
  }
  return Move::At(p);
}

}  // namespace renju
