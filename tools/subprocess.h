// Child processes for the launcher (`renju train`): started with their
// output going to a log file, stopped politely (SIGTERM, then SIGKILL after
// a grace period), always reaped.
#ifndef RENJU_TOOLS_SUBPROCESS_H_
#define RENJU_TOOLS_SUBPROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace renju {

class Subprocess {
 public:
  // Starts argv[0] (looked up on PATH if it has no slash) with stdout and
  // stderr appended to `log_path`, in its own process group.
  static absl::StatusOr<Subprocess> Start(const std::vector<std::string>& argv,
                                          const std::string& log_path);
  Subprocess(Subprocess&& other) noexcept;
  Subprocess& operator=(Subprocess&& other) noexcept;
  // Stops the process if it still runs.
  ~Subprocess();

  // True while the process has not exited; reaps it when it has.
  bool Running();
  // Blocks until the process exits (and reaps it) or `timeout_ms` passes;
  // true when it has exited.
  bool WaitForExit(int timeout_ms);
  // Exit status as the shell shows it (128 + signal when killed); -1 while
  // running.
  int exit_code() const { return exit_code_; }
  // SIGTERM, wait up to grace_ms, then SIGKILL; returns the exit code.
  int Stop(int grace_ms = 10000);
  // SIGKILL at once (fault tests).
  void Kill();
  pid_t pid() const { return pid_; }
  const std::string& name() const { return name_; }
  // CPU time (user + system, all threads, and its children once it has
  // reaped them) the process has used so far, or in all once it has been
  // reaped: what a run's CPU budget counts.
  double CpuSeconds() const;

 private:
  Subprocess(pid_t pid, std::string name) : pid_(pid), name_(std::move(name)) {}
  bool Reap(bool block);

  pid_t pid_ = -1;
  std::string name_;
  int exit_code_ = -1;
  double final_cpu_seconds_ = 0;  // from wait4, once reaped
};

// The path of the running binary (/proc/self/exe), to start siblings.
std::string SelfExecutable();

}  // namespace renju

#endif  // RENJU_TOOLS_SUBPROCESS_H_
