// Runs a GomocupProtocol in-process, fed through a pipe, for the protocol
// and play-time tests.
#ifndef RENJU_TESTS_GOMOCUP_HARNESS_H_
#define RENJU_TESTS_GOMOCUP_HARNESS_H_

#include <unistd.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "gomocup/gomocup_protocol.h"
#include "gtest/gtest.h"

namespace renju::testing {

// Runs a protocol on its own thread, fed through a pipe; collects replies.
class Harness {
 public:
  explicit Harness(std::unique_ptr<GomocupBrain> brain,
                   GomocupOptions options = {})
      : protocol_(std::move(brain), std::move(options)) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    thread_ = std::thread([this] {
      const absl::Status status =
          protocol_.Run(read_fd_, [this](absl::string_view line) {
            absl::MutexLock lock(&mu_);
            lines_.emplace_back(line);
            return true;
          });
      absl::MutexLock lock(&mu_);
      status_ = status;
      finished_ = true;
    });
  }
  ~Harness() {
    Finish();
    close(read_fd_);
  }

  void Send(const std::string& text) {
    const std::string data = text + "\n";
    ASSERT_EQ(write(write_fd_, data.data(), data.size()),
              static_cast<ssize_t>(data.size()));
  }
  // Waits until `n` replies have come (or a minute, which only a failing
  // test reaches); returns all so far.
  std::vector<std::string> WaitForLines(size_t n) {
    absl::MutexLock lock(&mu_);
    auto have_lines = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return lines_.size() >= n;
    };
    mu_.AwaitWithTimeout(absl::Condition(&have_lines), absl::Seconds(60));
    return lines_;
  }
  // True once Run has returned.
  bool WaitForFinish(absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    return mu_.AwaitWithTimeout(absl::Condition(&finished_), timeout);
  }
  // Closes the input, waits for Run, returns every reply.
  std::vector<std::string> Finish() {
    if (write_fd_ >= 0) close(write_fd_);
    write_fd_ = -1;
    if (thread_.joinable()) thread_.join();
    absl::MutexLock lock(&mu_);
    EXPECT_TRUE(status_.ok()) << status_;
    return lines_;
  }

 private:
  GomocupProtocol protocol_;
  int read_fd_ = -1;
  int write_fd_ = -1;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<std::string> lines_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
};

}  // namespace renju::testing

#endif  // RENJU_TESTS_GOMOCUP_HARNESS_H_
