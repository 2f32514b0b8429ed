#include "base/logging.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

namespace renju {
namespace {

std::atomic<int> min_severity{static_cast<int>(LogSeverity::kInfo)};

std::mutex& OutputMutex() {
  static std::mutex mutex;
  return mutex;
}

char SeverityLetter(LogSeverity severity) {
  switch (severity) {
    case LogSeverity::kInfo:
      return 'I';
    case LogSeverity::kWarning:
      return 'W';
    case LogSeverity::kError:
      return 'E';
    case LogSeverity::kFatal:
      return 'F';
  }
  return '?';
}

const char* Basename(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

}  // namespace

void SetMinLogSeverity(LogSeverity severity) {
  min_severity.store(static_cast<int>(severity));
}

LogMessage::LogMessage(const char* file, int line, LogSeverity severity)
    : severity_(severity) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const int millis =
      static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                           now.time_since_epoch())
                           .count() %
                       1000);
  std::tm local{};
  localtime_r(&seconds, &local);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &local);
  char millis_text[8];
  std::snprintf(millis_text, sizeof(millis_text), ".%03d", millis);
  stream_ << SeverityLetter(severity) << ' ' << stamp << millis_text << ' '
          << Basename(file) << ':' << line << "] ";
}

LogMessage::~LogMessage() {
  if (static_cast<int>(severity_) >= min_severity.load() ||
      severity_ == LogSeverity::kFatal) {
    stream_ << '\n';
    const std::string text = stream_.str();
    std::lock_guard<std::mutex> lock(OutputMutex());
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
  if (severity_ == LogSeverity::kFatal) std::abort();
}

}  // namespace renju
