#include "base/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace renju {

absl::StatusOr<pid_t> SpawnProcess(const std::vector<std::string>& argv,
                                   const SpawnOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command line");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.stdin_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.stdin_fd, STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                     O_RDONLY, 0);
  }
  if (options.stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, options.stdout_fd,
                                     STDOUT_FILENO);
  } else if (!options.output_path.empty()) {
    posix_spawn_file_actions_addopen(
        &actions, STDOUT_FILENO, options.output_path.c_str(),
        O_WRONLY | O_CREAT | (options.append_output ? O_APPEND : O_TRUNC),
        0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  if (options.discard_stderr) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                     O_WRONLY, 0);
  }
  if (!options.working_dir.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.working_dir.c_str());
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  short flags = 0;
  if (options.own_process_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  if (options.reset_signals) {
    flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    sigset_t signals;
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attributes, &signals);
    sigaddset(&signals, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &signals);
  }
  posix_spawnattr_setflags(&attributes, flags);
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc =
      posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc == ENOENT) return absl::NotFoundError(std::strerror(rc));
  if (rc != 0) return absl::InternalError(std::strerror(rc));
  return pid;
}

absl::StatusOr<Subprocess> Subprocess::Start(
    const std::vector<std::string>& argv, const std::string& log_path) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command line");
  SpawnOptions options;
  options.output_path = log_path;
  // Its own process group, so a terminal's Ctrl-C reaches only the
  // launcher, which then stops the children in order.
  options.own_process_group = true;
  absl::StatusOr<pid_t> pid = SpawnProcess(argv, options);
  if (!pid.ok()) {
    return absl::InternalError(
        absl::StrCat("cannot start ", argv[0], ": ", pid.status().message()));
  }
  return Subprocess(*pid, argv[0]);
}

Subprocess::Subprocess(Subprocess&& other) noexcept
    : pid_(other.pid_),
      name_(std::move(other.name_)),
      exit_code_(other.exit_code_),
      final_cpu_seconds_(other.final_cpu_seconds_) {
  other.pid_ = -1;
}

Subprocess& Subprocess::operator=(Subprocess&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0) Stop(2000);
    pid_ = other.pid_;
    name_ = std::move(other.name_);
    exit_code_ = other.exit_code_;
    final_cpu_seconds_ = other.final_cpu_seconds_;
    other.pid_ = -1;
  }
  return *this;
}

Subprocess::~Subprocess() {
  if (pid_ > 0) Stop(2000);
}

bool Subprocess::Reap(bool block) {
  if (pid_ <= 0) return true;
  int status = 0;
  rusage usage{};
  const pid_t r = wait4(pid_, &status, block ? 0 : WNOHANG, &usage);
  if (r == 0) return false;
  if (r == pid_) {
    exit_code_ =
        WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    final_cpu_seconds_ = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
                         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
  }
  pid_ = -1;
  return true;
}

bool Subprocess::Running() { return !Reap(false); }

bool Subprocess::WaitForExit(int timeout_ms) {
  if (Reap(false)) return true;
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  // A pidfd becomes readable when the process exits: one blocking poll
  // instead of waking up to ask. Kernels before 5.3 have none; ask then.
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  while (!Reap(false)) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    if (pidfd >= 0) {
      pollfd pfd{pidfd, POLLIN, 0};
      poll(&pfd, 1, static_cast<int>(left.count()));
    } else {
      std::this_thread::sleep_for(
          std::min(left, std::chrono::milliseconds(20)));
    }
  }
  if (pidfd >= 0) close(pidfd);
  return pid_ <= 0;
}

int Subprocess::Stop(int grace_ms) {
  if (pid_ <= 0) return exit_code_;
  kill(pid_, SIGTERM);
  if (WaitForExit(grace_ms)) return exit_code_;
  kill(pid_, SIGKILL);
  Reap(true);
  return exit_code_;
}

void Subprocess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  Reap(true);
}

double Subprocess::CpuSeconds() const {
  if (pid_ <= 0) return final_cpu_seconds_;
  // /proc/<pid>/stat: fields 14 to 17 are utime, stime and the same for
  // the children it has reaped (e.g. a trainer's anchor engines), in clock
  // ticks, as wait4 counts them once this process is reaped; field 2, the
  // command name, is parenthesised and may hold spaces.
  std::ifstream in(absl::StrCat("/proc/", pid_, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double ticks = 0;
  // Field 3 (the state) is the first after the name.
  for (int i = 3; i <= 17 && fields >> field; ++i) {
    if (i >= 14) ticks += std::strtod(field.c_str(), nullptr);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string SelfExecutable() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "renju";
  return std::string(buffer, static_cast<size_t>(n));
}

}  // namespace renju
