// Runs a `renju` command the way a user does, as the built binary with a
// shell command line (RunRenju), or its command function in this process
// (RunCommand), capturing stdout and the exit code either way.
//
// Each `renju` process start costs seconds of CPU under the sanitizers
// (LibTorch and its ~280 shared libraries load and initialise every time,
// BENCHMARKS.md "CI time"), so a command's tests run it in-process and keep
// one real process start per command: the binary's dispatch and start-up
// are the same for every case, the command's code is the same function.
#ifndef RENJU_TESTS_TOOLS_RUN_COMMAND_H_
#define RENJU_TESTS_TOOLS_RUN_COMMAND_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/commands.h"

namespace renju::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
};

// `command` run by /bin/sh, its stdout captured.
inline CommandResult RunShell(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    result.out.append(buffer, n);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// `args` is appended to the binary path and run by /bin/sh.
inline CommandResult RunRenju(const std::string& args) {
  return RunShell(std::string(RENJU_BINARY_DIR) + "/renju " + args);
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Where RunCommand sends the command's stderr: to the test's own stderr,
// or into `out` with stdout (as `2>&1` does for RunRenju).
enum class Stderr { kShown, kCaptured };

// Calls `command` (one of tools/commands.h) with `args` in this process,
// with `input` as its stdin, and returns its stdout (and stderr when
// captured) and its return value. stdout is a file while it runs, so it is
// buffered as it is in a piped process and lands in `out` in the same
// order relative to stderr. Signal handlers a command installs (arena's
// SIGINT/SIGTERM) are put back afterwards.
inline CommandResult RunCommand(int (*command)(const commands::Argv&),
                                const commands::Argv& args,
                                Stderr stderr_to = Stderr::kShown,
                                const std::string& input = "") {
  CommandResult result;
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* out = std::tmpfile();
  std::FILE* in = std::tmpfile();
  if (out == nullptr || in == nullptr) {
    result.out = "RunCommand: no temporary file";
    return result;
  }
  std::fputs(input.c_str(), in);
  std::fflush(in);
  std::rewind(in);
  struct sigaction old_int = {};
  struct sigaction old_term = {};
  sigaction(SIGINT, nullptr, &old_int);
  sigaction(SIGTERM, nullptr, &old_term);
  const int saved_stdin = dup(STDIN_FILENO);
  const int saved_stdout = dup(STDOUT_FILENO);
  const int saved_stderr = dup(STDERR_FILENO);
  dup2(fileno(in), STDIN_FILENO);
  dup2(fileno(out), STDOUT_FILENO);
  if (stderr_to == Stderr::kCaptured) dup2(fileno(out), STDERR_FILENO);

  result.exit_code = command(args);

  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_stdin, STDIN_FILENO);
  dup2(saved_stdout, STDOUT_FILENO);
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stdin);
  close(saved_stdout);
  close(saved_stderr);
  // The command may have read stdin to its end: the next one starts afresh.
  std::clearerr(stdin);
  std::cin.clear();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);

  std::rewind(out);
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), out)) > 0) {
    result.out.append(buffer, n);
  }
  std::fclose(out);
  std::fclose(in);
  return result;
}

inline std::string SharedData(const std::string& name) {
  return std::string(RENJU_SHARED_DIR) + "/data/" + name;
}

// A command's output line by line.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_TOOLS_RUN_COMMAND_H_
