// Progress lines for long-running commands: on a terminal one line redrawn
// in place (\r), in logs plain lines at a steady interval. Thread-safe.
#ifndef RENJU_LAUNCHER_PROGRESS_H_
#define RENJU_LAUNCHER_PROGRESS_H_

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace renju {

class ProgressLine {
 public:
  // `interval_ms`: how often a log line is written when not on a terminal.
  explicit ProgressLine(FILE* out = stderr, int64_t interval_ms = 10000);
  ~ProgressLine();

  // Shows `text` now on a terminal, or when the interval has passed in a log.
  void Update(const std::string& text);
  // Writes `text` as a final line (always).
  void Finish(const std::string& text);

  double elapsed_seconds() const;
  bool on_terminal() const { return terminal_; }

 private:
  FILE* out_;
  const bool terminal_;
  const int64_t interval_ms_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  bool dirty_ = false;
  std::mutex mutex_;
};

// "1h02m", "3m05s", "42s" for ETAs and durations.
std::string FormatDuration(double seconds);

}  // namespace renju

#endif  // RENJU_LAUNCHER_PROGRESS_H_
