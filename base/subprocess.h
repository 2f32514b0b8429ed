// Child processes, the one place that starts them (posix_spawnp):
//   - SpawnProcess: a child with its standard streams, folder, process
//     group and signals set as asked; the caller reaps it. Gomocup engines
//     (gomocup/gomocup_client.h, on pipes) and gnuplot (trainer/plots.h).
//   - Subprocess: a child with its output going to a log file, stopped
//     politely (SIGTERM, then SIGKILL after a grace period), always
//     reaped. The launcher's trainer, workers and server (launcher/).
#ifndef RENJU_BASE_SUBPROCESS_H_
#define RENJU_BASE_SUBPROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace renju {

// How SpawnProcess sets up the child. Descriptors named here are dup2'd
// onto the child's; the parent's copies stay open (the caller closes them).
struct SpawnOptions {
  // The child's stdin: this descriptor, or /dev/null when -1.
  int stdin_fd = -1;
  // The child's stdout: this descriptor; when -1, `output_path` if set,
  // else ours.
  int stdout_fd = -1;
  // With stdout_fd -1: stdout and stderr both go to this file (created
  // 0644), appended to or truncated first. Empty: ours.
  std::string output_path;
  bool append_output = true;
  bool discard_stderr = false;  // stderr to /dev/null
  std::string working_dir;      // the child's folder; empty: ours
  // Its own process group (its pid), so that a signal to the group reaches
  // whatever it starts, and a terminal's Ctrl-C does not reach it.
  bool own_process_group = false;
  // No blocked signals and the default SIGPIPE in the child, whatever ours
  // are.
  bool reset_signals = false;
};

// Starts argv[0] (looked up on PATH if it has no slash) and returns its
// pid; the caller reaps it (waitpid). NOT_FOUND when there is no such
// program, INTERNAL for any other failure; the message is the system's
// (strerror), for the caller to put in its own.
absl::StatusOr<pid_t> SpawnProcess(const std::vector<std::string>& argv,
                                   const SpawnOptions& options);

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

#endif  // RENJU_BASE_SUBPROCESS_H_
