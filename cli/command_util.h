// Shared plumbing for the `renju` binary's commands: flag parsing with
// --help, error exits, and stopping on SIGINT/SIGTERM.
#ifndef RENJU_CLI_COMMAND_UTIL_H_
#define RENJU_CLI_COMMAND_UTIL_H_

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/args.h"

namespace renju::commands {

// Parses `argv` into `args`. Returns -1 to go on, or the exit code to return
// now (0 after --help, 2 after a bad flag).
inline int ParseOrExit(Args& args, const std::vector<std::string>& argv) {
  if (absl::Status s = args.Parse(argv); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 2;
  }
  if (args.help_requested()) {
    std::printf("%s", args.Usage().c_str());
    return 0;
  }
  return -1;
}

// Prints a final error status the way every command does; returns 1.
inline int Fail(const absl::Status& status) {
  std::fprintf(stderr, "error: %s\n", std::string(status.message()).c_str());
  return 1;
}

// Set by SIGINT or SIGTERM once StopOnSignals() ran: the long-running
// commands (train, selfplay, arena) check it and stop cleanly, saving what
// they have.
inline std::atomic<bool> interrupted{false};

inline void OnSignal(int) { interrupted = true; }

// Installs the handlers and clears the flag, so that a command run after
// an interrupted one in the same process starts afresh.
inline void StopOnSignals() {
  interrupted = false;
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
}

}  // namespace renju::commands

#endif  // RENJU_CLI_COMMAND_UTIL_H_
