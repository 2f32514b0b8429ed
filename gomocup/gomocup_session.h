// Internals of GomocupProtocol (gomocup_protocol.h): the input queue that the
// reader thread fills, and the session that handles the commands. Only
// gomocup/gomocup_protocol.cc and gomocup/gomocup_session.cc use this header.
#ifndef RENJU_GOMOCUP_GOMOCUP_SESSION_H_
#define RENJU_GOMOCUP_GOMOCUP_SESSION_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "gomocup/gomocup_protocol.h"
#include "rules/game.h"
#include "rules/opening.h"

namespace renju {

// The first word of a protocol line, upper-cased ("" for a blank line).
std::string GomocupCommandOf(absl::string_view line);

// Lines from the manager, read on their own thread (ReadLoop) and taken in
// order by the session (Pop). It also owns the stop flag of the move being
// thought about: a YXSTOP, STOP or END line read after the command that
// started the thinking raises it, whether it arrived before the thinking
// began or during it. Thread-safe.
class GomocupInput {
 public:
  explicit GomocupInput(int fd) : fd_(fd) {}

  // The reader thread's body: reads until the end of input, an END line or
  // Quit() (noticed within 50 ms).
  void ReadLoop();
  void Quit() { quit_.store(true); }
  // Why reading failed, if it did; read only after ReadLoop has returned.
  const absl::Status& read_status() const { return read_status_; }

  // Blocks for the next line (without its line end) and its 0-based index.
  // False once the input has ended and every line has been taken.
  bool Pop(std::string* line, int64_t* index);

  // Bracket one move's thinking on behalf of line `line_index`. StopAt runs
  // on a watchdog thread: it returns at EndThinking, or raises the stop flag
  // at `deadline`.
  void BeginThinking(int64_t line_index);
  void StopAt(absl::Time deadline);
  void EndThinking();
  const std::atomic<bool>* stop() const { return &stop_; }

 private:
  bool Push(std::string line);  // false after END: stop reading
  void Close();
  bool HasLineOrClosed() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return closed_ || !lines_.empty();
  }

  const int fd_;
  std::atomic<bool> quit_{false};
  std::atomic<bool> stop_{false};
  absl::Status read_status_;  // written by the reader thread only

  absl::Mutex mu_;
  std::deque<std::string> lines_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  int64_t pushed_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t popped_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t last_stop_line_ ABSL_GUARDED_BY(mu_) = -1;
  int64_t thinking_line_ ABSL_GUARDED_BY(mu_) = -1;
  bool think_done_ ABSL_GUARDED_BY(mu_) = true;
};

// One protocol session: the game, the INFO values, and a handler per
// command. Runs on the caller's thread; every reply goes through the writer.
class GomocupSession {
 public:
  GomocupSession(GomocupBrain& brain, const GomocupOptions& options,
                 GomocupInput& input,
                 const GomocupProtocol::LineWriter& write_line);

  // Handles lines until END or the end of input. Errors only when the
  // output is gone.
  // Stops any pondering before returning.
  absl::Status Run();

 private:
  // The multi-line command being read, if any.
  enum class Block { kNone, kBoard, kYxBoard, kSwap2Board };
  struct BoardEntry {
    Point point;
    bool own;  // field 1; field 2 is the opponent's
  };

  void Handle(absl::string_view line, int64_t index);
  void HandleStart(absl::string_view args);
  void HandleRectStart(absl::string_view args);
  void HandleRestart();
  void HandleBegin(int64_t index);
  void HandleTurn(absl::string_view args, int64_t index);
  void HandleTakeback(absl::string_view args);
  void HandleInfo(absl::string_view args);
  void HandleShowForbid();
  void OpenBlock(Block block);
  void HandleBlockLine(absl::string_view line, int64_t index);
  absl::Status ParseBoardEntry(absl::string_view line);
  void FinishBlock(int64_t index);
  absl::Status SetPosition(const std::vector<BoardEntry>& entries);
  // SWAP2BOARD (gomocup/swap2.h): the brain's opening actions, and its
  // move when they end the opening with it to move, within one move's time.
  void HandleSwap2Board(int64_t index);

  // START has come and the rule is played on this board size.
  absl::Status CheckSetup() const;
  // CheckSetup, then replays the game
  // under the current rule if INFO rule changed it.
  absl::Status ReadyGame();
  // Asks the brain for a move, plays it and replies with it.
  void Think(int64_t index);
  // A MESSAGE line: the game is drawn for want of a five (RULES.md §5).
  void TellNoFive();
  Move ChooseLegalMove(int64_t index, const MoveLimits& limits);
  // The brain's action in `state`, or the rule's default when the brain
  // fails or the rule refuses its action.
  OpeningAction ChooseLegalOpeningAction(const OpeningState& state,
                                         int64_t index,
                                         const MoveLimits& limits);
  // Runs `think` (a brain call on behalf of line `index`) while a watchdog
  // raises the stop flag after `budget_ms`.
  void ThinkWithin(int64_t index, int64_t budget_ms,
                   const std::function<void()>& think);
  MoveLimits Limits() const;

  void Reply(absl::string_view line);
  void Error(absl::string_view why);

  GomocupBrain& brain_;
  const GomocupOptions& options_;
  GomocupInput& input_;
  const GomocupProtocol::LineWriter& write_line_;
  bool output_ok_ = true;
  bool done_ = false;

  int size_ = 0;  // 0 until START
  Variant variant_;
  std::optional<Game> game_;  // built under variant_ by ReadyGame

  // From INFO.
  int64_t timeout_turn_ms_;
  std::optional<int64_t> timeout_match_ms_;
  std::optional<int64_t> time_left_ms_;
  bool pondering_ = false;
  MoveLimits info_limits_;  // max_nodes, threads, max_memory_bytes

  Block block_ = Block::kNone;
  std::vector<BoardEntry> block_entries_;
  std::vector<Point> swap2_stones_;  // a SWAP2BOARD block's x,y lines
  int block_lines_ = 0;
  std::string block_error_;  // the first bad line of the block
};

}  // namespace renju

#endif  // RENJU_GOMOCUP_GOMOCUP_SESSION_H_
