// The manager side of the Gomocup (Piskvork) pipe protocol: runs an external
// engine as a child process and asks it for moves, so the arena can measure
// our models against public engines (and against `renju gomocup` itself).
//
// The engine is started with posix_spawnp in a process group of its own,
// its stdin and stdout on pipes. Every read waits with poll() against a
// deadline; MESSAGE, DEBUG, ERROR and UNKNOWN lines are skipped while a
// move is awaited (as c-gomoku-cli does). Each failure is the engine's
// fault and loses it the game:
//   kCrashed      it exited or closed its pipes;
//   kTimedOut     no move within the turn limit (and the match time left)
//                 plus the grace period, and for a freshly launched engine
//                 the start-up allowance (below);
//   kGarbage      a reply that is not "x,y";
//   kIllegalMove  a point off the board, occupied, or forbidden for black
//                 under renju;
//   kRefused      ERROR or UNKNOWN where OK was needed (START), or
//                 where a swap2 answer was (SWAP2BOARD).
// After kCrashed, kTimedOut, kGarbage or kIllegalMove the engine's process
// group has been killed and reaped: Launch a new client for the next game.
// The destructor always reaps the child (END, a short wait, then SIGKILL).
//
// Coordinates on the wire are Gomocup's: x from the left, y from the top
// (gomocup_protocol.h in tools/ converts the same way).
//
// Not thread-safe: one thread drives a client. Different clients may run
// on different threads.
#ifndef RENJU_GOMOCUP_GOMOCUP_CLIENT_H_
#define RENJU_GOMOCUP_GOMOCUP_CLIENT_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"

namespace renju {

class OpeningState;  // rules/opening.h
struct Swap2Turn;    // gomocup/swap2.h

enum class EngineFault : uint8_t {
  kNone = 0,
  kCrashed,
  kTimedOut,
  kGarbage,
  kIllegalMove,
  kRefused,
};
absl::string_view EngineFaultName(EngineFault f);  // "crashed", ...

struct GomocupClientOptions {
  // The program and its arguments; argv[0] is looked up in PATH. No shell.
  std::vector<std::string> argv;
  std::string working_dir;       // where the engine runs; empty = ours
  int64_t turn_time_ms = 5000;   // INFO timeout_turn (0: as fast as it can)
  int64_t match_time_ms = 0;     // INFO timeout_match per game; 0 = none
  int64_t max_memory_bytes = 0;  // INFO max_memory; 0 = none
  // INFO max_node: nodes (for an MCTS engine, visits) per move; 0 = not
  // sent. Matches at equal visits between engines use it.
  int64_t max_nodes = 0;
  // Extra wait past the limit before a move counts as timed out, for
  // pipes and scheduling.
  int64_t grace_ms = 1000;
  // Extra wait for a freshly launched engine, added to every limit until it
  // has answered its first move (START and ABOUT included): process start,
  // loading weights, CUDA, a sanitizer build, a busy machine (an ASan
  // `renju gomocup` needs 2.5 s on a loaded 2-core machine). Gomocup
  // managers allow seconds for this. A slow start is not charged to the
  // match clock.
  int64_t startup_ms = 30000;
  // Limit for answers that need no thinking (START, ABOUT).
  int64_t command_timeout_ms = 5000;
  // How long END may take before the engine is killed.
  int64_t quit_timeout_ms = 1000;
  bool discard_stderr = false;  // else the engine shares our stderr
};

class GomocupClient {
 public:
  // Starts the engine. Errors: an empty argv, a program that cannot be run
  // (named in the message), pipes or processes unavailable.
  static absl::StatusOr<std::unique_ptr<GomocupClient>> Launch(
      GomocupClientOptions options);
  // Quit().
  ~GomocupClient();
  GomocupClient(const GomocupClient&) = delete;
  GomocupClient& operator=(const GomocupClient&) = delete;

  // Sends ABOUT and returns the reply line, e.g. name="X", version="1".
  absl::StatusOr<std::string> About();

  // Starts a game: START size (must be answered OK), then INFO rule and the
  // time and memory limits. Resets the match clock.
  absl::Status NewGame(Variant variant, int size);

  // The engine's move in `game`, which must be ongoing, of the variant and
  // size given to NewGame, and without passes (the protocol has none). The
  // engine is sent TURN with the last move when it has seen all the others,
  // BEGIN on an empty board, and BOARD otherwise, preceded by INFO time_left
  // when the match is timed. On an engine failure the error says what
  // happened and fault() why; the game is lost for the engine. A caller
  // mistake (a game that does not fit) is an error with fault() kNone.
  absl::StatusOr<Move> GetMove(const Game& game);

  // Swap2 by the Gomocup convention (gomocup/swap2.h): sends SWAP2BOARD
  // with the stones of `state`, a swap2 opening after 0, 3 or 5 stones of
  // the variant and size given to NewGame, and returns what the engine's
  // answer stands for: its opening actions and, when they end the opening
  // with the engine to move, its move. Timed as a move. An engine that
  // answers ERROR or UNKNOWN does not know the command: the error is
  // Unimplemented with fault() kRefused and the engine goes on running. An
  // answer that is not SWAP or points is kGarbage, one the rule refuses
  // kIllegalMove; timeouts and crashes as for GetMove. The next GetMove
  // sends the whole position (BOARD), as the convention does.
  absl::StatusOr<Swap2Turn> Swap2Board(const OpeningState& state);

  // Why the last failed call failed (kNone after a success).
  EngineFault fault() const { return fault_; }
  // Wall time of the last GetMove, and what is left of the match time
  // (nullopt when the match is not timed).
  int64_t last_move_ms() const { return last_move_ms_; }
  std::optional<int64_t> time_left_ms() const { return time_left_ms_; }
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  // Sends END, waits up to quit_timeout_ms, then kills the engine's process
  // group and reaps the engine. Idempotent.
  void Quit();

 private:
  GomocupClient(GomocupClientOptions options, pid_t pid, int to_engine,
                int from_engine);

  // Writes one or more lines (a newline is added at the end).
  absl::Status Send(absl::string_view text);
  // The next line within `timeout_ms`, without its line end. A plain
  // DeadlineExceeded error when nothing came; other failures are Fail()ed.
  absl::StatusOr<std::string> ReadLine(int64_t timeout_ms);
  // The answer to `request`: the next line that is not blank, MESSAGE or
  // DEBUG, nor ERROR or UNKNOWN when `skip_errors`.
  absl::StatusOr<std::string> ReadReply(int64_t timeout_ms,
                                        absl::string_view request,
                                        bool skip_errors);
  // Drops whole lines that came unasked (some engines answer INFO with
  // UNKNOWN), so they are not taken for the answer to the next command.
  void DropUnreadLines();
  // The answer to `request`, a command that makes the engine think (a
  // move, a swap2 decision): waits the turn limit, capped by the match time
  // left, plus the grace and the start-up allowance, and charges the time
  // to the match clock.
  absl::StatusOr<std::string> AwaitThought(absl::string_view request,
                                           bool skip_errors);
  // Sends BEGIN, TURN or BOARD; returns the request for messages.
  absl::StatusOr<std::string> SendPosition(const Game& game);
  absl::StatusOr<Move> CheckMove(const Game& game, absl::string_view reply);
  // What a reply may take on top of its limit: the start-up allowance
  // until the first move has come, nothing after.
  int64_t StartupAllowanceMs() const;
  // Records the fault, stops the engine if it must go, returns `status`.
  absl::Status Fail(EngineFault fault, absl::Status status);
  // Waits up to `wait_ms` for the engine to exit, kills its process group,
  // reaps it and closes the pipes; returns how it ended ("exited with
  // status 1", "killed by signal 9").
  std::string Stop(int64_t wait_ms);

  GomocupClientOptions options_;
  std::string name_;  // argv[0], for messages
  pid_t pid_;
  int to_engine_;
  int from_engine_;
  std::string buffer_;           // bytes read but not yet split into lines
  std::string last_error_line_;  // the last ERROR/UNKNOWN, for messages

  Variant variant_ = Variant::kRenju;
  int size_ = 0;                   // 0 until NewGame
  std::vector<Move> known_moves_;  // what the engine has been told or played
  bool first_move_answered_ = false;
  EngineFault fault_ = EngineFault::kNone;
  int64_t last_move_ms_ = 0;
  std::optional<int64_t> time_left_ms_;
};

}  // namespace renju

#endif  // RENJU_GOMOCUP_GOMOCUP_CLIENT_H_
