// `renju-full <command> [flags]`: every command of the project, LibTorch
// and gRPC linked in. `renju` (main.cc) starts this binary for the
// commands it does not run itself; Gomocup managers start it as
// `pbrain-renju`.
#include <cstdio>
#include <string>

#include "tools/command_list.h"
#include "tools/commands.h"

namespace {

using renju::commands::Argv;

struct CommandRun {
  const char* name;
  int (*run)(const Argv&);
};

constexpr CommandRun kCommandRuns[] = {
    {"train", renju::commands::Train},
    {"trainer", renju::commands::Trainer},
    {"show", renju::commands::Show},
    {"forbidden", renju::commands::Forbidden},
    {"replay", renju::commands::Replay},
    {"selfplay", renju::commands::Selfplay},
    {"selfplay-stats", renju::commands::SelfplayStats},
    {"gomocup", renju::commands::Gomocup},
    {"arena", renju::commands::Arena},
    {"serve", renju::commands::Serve},
    {"suggest", renju::commands::Suggest},
};

}  // namespace

int main(int argc, char** argv) {
  // Gomocup managers start engines named pbrain-*: be one (gomocup_command.cc).
  if (renju::commands::IsGomocupProgramName(argv[0])) {
    return renju::commands::Gomocup({argv + 1, argv + argc});
  }
  if (argc < 2 || std::string(argv[1]) == "--help" ||
      std::string(argv[1]) == "help") {
    renju::commands::PrintCommandList(stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const Argv args(argv + 2, argv + argc);
  for (const CommandRun& c : kCommandRuns) {
    if (name == c.name) return c.run(args);
  }
  std::fprintf(stderr, "renju: unknown command '%s'\n\n", name.c_str());
  renju::commands::PrintCommandList(stdout);
  return 2;
}
