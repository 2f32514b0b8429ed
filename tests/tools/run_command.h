// Runs the built `renju` binary with a shell command line and captures its
// stdout and exit code.
#ifndef RENJU_TESTS_TOOLS_RUN_COMMAND_H_
#define RENJU_TESTS_TOOLS_RUN_COMMAND_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace renju::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
};

// `args` is appended to the binary path and run by /bin/sh.
inline CommandResult RunRenju(const std::string& args) {
  const std::string command =
      std::string(RENJU_BINARY_DIR) + "/renju " + args;
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

inline std::string SharedData(const std::string& name) {
  return std::string(RENJU_SHARED_DIR) + "/data/" + name;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_TOOLS_RUN_COMMAND_H_
