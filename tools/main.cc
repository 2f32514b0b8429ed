// `renju <command> [flags]`: the project's command-line tool. This binary
// runs the commands that need no network (show, forbidden, replay,
// selfplay-stats) and every command's --help itself, linking neither
// LibTorch nor gRPC, so it starts in milliseconds; for the others it
// becomes renju-full (full_main.cc) beside it, with the same arguments.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/subprocess.h"
#include "tools/command_help.h"
#include "tools/command_list.h"
#include "tools/commands.h"

namespace {

using renju::commands::Argv;

struct LocalCommand {
  const char* name;
  int (*run)(const Argv&);
};

constexpr LocalCommand kLocalCommands[] = {
    {"show", renju::commands::Show},
    {"forbidden", renju::commands::Forbidden},
    {"replay", renju::commands::Replay},
    {"selfplay-stats", renju::commands::SelfplayStats},
};

// Replaces this process with renju-full, beside this binary, running
// `args`; returns only when it cannot (the exit code, after saying why).
int BecomeFullBinary(const std::vector<std::string>& args) {
  const std::string self = renju::SelfExecutable();
  const std::string full = self.substr(0, self.rfind('/') + 1) + "renju-full";
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(full.c_str()));
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(full.c_str(), argv.data());
  std::fprintf(stderr, "renju: cannot start %s for '%s': %s\n", full.c_str(),
               args.empty() ? "" : args[0].c_str(), std::strerror(errno));
  return 127;
}

bool AsksForHelpOnly(const Argv& args) {
  return args.size() == 1 && (args[0] == "--help" || args[0] == "-h");
}

}  // namespace

int main(int argc, char** argv) {
  if (renju::commands::IsGomocupProgramName(argv[0])) {
    std::vector<std::string> args = {"gomocup"};
    args.insert(args.end(), argv + 1, argv + argc);
    return BecomeFullBinary(args);
  }
  if (argc < 2 || std::string(argv[1]) == "--help" ||
      std::string(argv[1]) == "help") {
    renju::commands::PrintCommandList(stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const Argv args(argv + 2, argv + argc);
  for (const LocalCommand& c : kLocalCommands) {
    if (name == c.name) return c.run(args);
  }
  if (renju::commands::FindCommand(name.c_str()) == nullptr) {
    std::fprintf(stderr, "renju: unknown command '%s'\n\n", name.c_str());
    renju::commands::PrintCommandList(stdout);
    return 2;
  }
  if (AsksForHelpOnly(args)) {
    if (const char* help = renju::commands::StoredCommandHelp(name)) {
      std::fputs(help, stdout);
      return 0;
    }
  }
  return BecomeFullBinary({argv + 1, argv + argc});
}
