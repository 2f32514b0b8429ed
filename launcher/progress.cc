#include "launcher/progress.h"

#include <unistd.h>

#include "absl/strings/str_format.h"

namespace renju {

ProgressLine::ProgressLine(FILE* out, int64_t interval_ms)
    : out_(out),
      terminal_(isatty(fileno(out)) != 0),
      interval_ms_(interval_ms),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressLine::~ProgressLine() {
  if (terminal_ && dirty_) std::fputc('\n', out_);
}

double ProgressLine::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start_)
      .count();
}

void ProgressLine::Update(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    // \33[K clears what a longer previous line left behind.
    std::fprintf(out_, "\r%s\33[K", text.c_str());
    dirty_ = true;
  } else if (std::chrono::duration_cast<std::chrono::milliseconds>(now - last_)
                 .count() >= interval_ms_) {
    std::fprintf(out_, "%s\n", text.c_str());
    last_ = now;
  }
  std::fflush(out_);
}

void ProgressLine::Finish(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && dirty_) std::fputc('\r', out_);
  std::fprintf(out_, "%s%s\n", text.c_str(), terminal_ ? "\33[K" : "");
  dirty_ = false;
  std::fflush(out_);
}

std::string FormatDuration(double seconds) {
  if (seconds < 0) seconds = 0;
  const int64_t s = static_cast<int64_t>(seconds + 0.5);
  if (s >= 3600) return absl::StrFormat("%dh%02dm", s / 3600, (s % 3600) / 60);
  if (s >= 60) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  return absl::StrFormat("%ds", s);
}

}  // namespace renju
