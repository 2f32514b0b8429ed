// GomocupProtocol: the engine side of the Gomocup pipe protocol. The
// handlers for single commands live in gomocup_session.cc; this file has the
// coordinate and rule helpers, the time budget and the input thread.
#include "gomocup/gomocup_protocol.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/random.h"
#include "gomocup/gomocup_session.h"
#include "search/opening_player.h"

namespace renju {

absl::StatusOr<OpeningAction> GomocupBrain::ChooseOpeningAction(
    const OpeningState& state, const MoveLimits&, const std::atomic<bool>*) {
  Random rng(state.game().hash(), state.actions().size());
  return DefaultOpeningAction(state, rng);
}

Point FromGomocup(int x, int y, int size) { return Point(x, size - 1 - y); }

std::string GomocupPointText(Point p, int size) {
  return absl::StrCat(p.x, ",", size - 1 - p.y);
}

absl::StatusOr<Point> ParseGomocupPoint(absl::string_view text, int size) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  int x = 0;
  int y = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &x) ||
      !absl::SimpleAtoi(parts[1], &y)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a point: expected x,y"));
  }
  if (x < 0 || y < 0 || x >= size || y >= size) {
    return absl::OutOfRangeError(absl::StrCat("point ", x, ",", y,
                                              " is off the ", size, "x", size,
                                              " board (0..", size - 1, ")"));
  }
  return FromGomocup(x, y, size);
}

absl::StatusOr<Variant> VariantFromGomocupRule(int64_t rule) {
  if (rule < 0 || rule > 15) {
    return absl::InvalidArgumentError(
        absl::StrCat("INFO rule ", rule, " is not a rule bitmask (0..15)"));
  }
  if (rule & 8) {
    return absl::UnimplementedError(
        absl::StrCat("INFO rule ", rule, ": caro (8) is not supported"));
  }
  if (rule == 2 || (rule & 4)) return Variant::kRenju;  // 2: Yixin-Board
  return (rule & 1) ? Variant::kStandard : Variant::kFreestyle;
}

int GomocupRuleOf(Variant v) {
  switch (v) {
    case Variant::kFreestyle:
      return 0;
    case Variant::kStandard:
      return 1;
    case Variant::kRenju:
      return 4;
  }
  return 0;
}

int64_t MoveBudgetMs(int64_t timeout_turn_ms,
                     std::optional<int64_t> time_left_ms) {
  // Spend at most 1/15 of the match time left on one move, and keep 30 ms
  // plus 5% back for process scheduling and the pipes.
  constexpr int64_t kMatchShare = 15;
  constexpr int64_t kMarginMs = 30;
  int64_t budget = std::max<int64_t>(timeout_turn_ms, 0);
  if (time_left_ms.has_value()) {
    budget =
        std::min(budget, std::max<int64_t>(*time_left_ms, 0) / kMatchShare);
  }
  return std::max<int64_t>(budget - kMarginMs - budget / 20, 0);
}

GomocupProtocol::GomocupProtocol(std::unique_ptr<GomocupBrain> brain,
                                 GomocupOptions options)
    : brain_(std::move(brain)), options_(std::move(options)) {}

GomocupProtocol::~GomocupProtocol() = default;

absl::Status GomocupProtocol::Run(int input_fd, const LineWriter& write_line) {
  GomocupInput input(input_fd);
  GomocupSession session(*brain_, options_, input, write_line);
  std::thread reader([&input] { input.ReadLoop(); });
  absl::Status status = session.Run();
  input.Quit();
  reader.join();
  if (status.ok()) status = input.read_status();
  return status;
}

// --- GomocupInput ------------------------------------------------------------

void GomocupInput::ReadLoop() {
  // Poll with a short timeout so Quit() is noticed even if the input never
  // closes (the caller's thread stopped on a write error).
  constexpr int kPollMs = 50;
  std::string pending;
  char buffer[4096];
  while (!quit_.load()) {
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = poll(&pfd, 1, kPollMs);
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    const ssize_t n = ready < 0 ? -1 : read(fd_, buffer, sizeof(buffer));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      read_status_ = absl::DataLossError(
          absl::StrCat("reading commands: ", std::strerror(errno)));
    }
    if (n <= 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos;
         start = nl + 1) {
      if (!Push(pending.substr(start, nl - start))) {
        Close();
        return;
      }
    }
    pending.erase(0, start);
  }
  if (!pending.empty()) Push(pending);
  Close();
}

bool GomocupInput::Push(std::string line) {
  // The manager ends lines with CRLF; trailing blanks mean nothing.
  line = std::string(absl::StripTrailingAsciiWhitespace(line));
  const std::string command = GomocupCommandOf(line);
  absl::MutexLock lock(&mu_);
  const int64_t index = pushed_++;
  const bool is_end = command == "END";
  if (is_end || command == "YXSTOP" || command == "STOP") {
    last_stop_line_ = index;
    if (thinking_line_ >= 0 && index > thinking_line_) stop_.store(true);
  }
  lines_.push_back(std::move(line));
  return !is_end;
}

void GomocupInput::Close() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
}

bool GomocupInput::Pop(std::string* line, int64_t* index) {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(this, &GomocupInput::HasLineOrClosed));
  if (lines_.empty()) return false;
  *line = std::move(lines_.front());
  lines_.pop_front();
  *index = popped_++;
  return true;
}

void GomocupInput::BeginThinking(int64_t line_index) {
  absl::MutexLock lock(&mu_);
  thinking_line_ = line_index;
  think_done_ = false;
  stop_.store(last_stop_line_ > line_index);
}

void GomocupInput::StopAt(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  if (!mu_.AwaitWithDeadline(absl::Condition(&think_done_), deadline)) {
    stop_.store(true);
  }
}

void GomocupInput::EndThinking() {
  absl::MutexLock lock(&mu_);
  thinking_line_ = -1;
  think_done_ = true;
}

}  // namespace renju
