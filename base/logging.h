// Small thread-safe logging and invariant checks, in the shape of Minigo's
// cc/logging.h. Debian 12's Abseil (20220623) has no absl/log, so this is the
// project's one logging facility.
//
//   RENJU_LOG(INFO) << "games " << n;     // timestamped line on stderr
//   RENJU_CHECK(x > 0) << "x=" << x;      // aborts with context when false
//   RENJU_DCHECK(board.IsConsistent());   // a CHECK in debug builds only
//
// Invariants use CHECK/DCHECK; outside input never does (it gets absl::Status).
// The macros carry a RENJU_ prefix because LibTorch's c10 defines LOG and
// CHECK.
#ifndef RENJU_BASE_LOGGING_H_
#define RENJU_BASE_LOGGING_H_

#include <sstream>
#include <string>

namespace renju {

enum class LogSeverity { kInfo, kWarning, kError, kFatal };

// Accumulates one message and writes it as a single line when destroyed, so
// lines from different threads never interleave. kFatal aborts after writing.
class LogMessage {
 public:
  LogMessage(const char* file, int line, LogSeverity severity);
  ~LogMessage();
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;

  std::ostream& stream() { return stream_; }

 private:
  LogSeverity severity_;
  std::ostringstream stream_;
};

// Lets `CHECK(cond) << ...` be an expression of type void.
struct LogMessageVoidify {
  void operator&(std::ostream&) {}
};

// Set the minimum severity written (default kInfo). Thread-safe.
void SetMinLogSeverity(LogSeverity severity);

}  // namespace renju

#define RENJU_LOG_INFO ::renju::LogSeverity::kInfo
#define RENJU_LOG_WARNING ::renju::LogSeverity::kWarning
#define RENJU_LOG_ERROR ::renju::LogSeverity::kError
#define RENJU_LOG_FATAL ::renju::LogSeverity::kFatal

#define RENJU_LOG(severity) \
  ::renju::LogMessage(__FILE__, __LINE__, RENJU_LOG_##severity).stream()

// The glog idiom: `condition` stays unparenthesised in the message text.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define RENJU_CHECK(condition)                                                \
  (condition)                                                                 \
      ? (void)0                                                               \
      : ::renju::LogMessageVoidify() &                                        \
            ::renju::LogMessage(__FILE__, __LINE__, RENJU_LOG_FATAL).stream() \
                << "Check failed: " #condition " "
// NOLINTEND(bugprone-macro-parentheses)

#ifdef NDEBUG
#define RENJU_DCHECK(condition) \
  while (false) RENJU_CHECK(condition)
#else
#define RENJU_DCHECK(condition) RENJU_CHECK(condition)
#endif

#endif  // RENJU_BASE_LOGGING_H_
