// `renju <command> [flags]`: one binary for every tool of the project.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/commands.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const renju::commands::Argv&);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"train", renju::commands::Train,
     "run the whole training loop on this machine (trainer, workers, server)"},
    {"trainer", renju::commands::Trainer,
     "the trainer process: stores games, trains, publishes generations"},
    {"show", renju::commands::Show,
     "print a position: board, side to move, result, opening, forbidden "
     "points"},
    {"forbidden", renju::commands::Forbidden,
     "label black's forbidden points of JSON Lines positions on stdin"},
    {"replay", renju::commands::Replay, "replay game records, checking moves"},
    {"selfplay", renju::commands::Selfplay,
     "play self-play games (offline into a folder, or for a trainer)"},
    {"selfplay-stats", renju::commands::SelfplayStats,
     "summarise a folder of self-play games"},
    {"gomocup", renju::commands::Gomocup,
     "play through the Gomocup (Piskvork) protocol on stdin/stdout"},
    {"arena", renju::commands::Arena,
     "play a match between models, Gomocup engines or a random mover"},
    {"serve", renju::commands::Serve,
     "serve a model over gRPC: Suggest (search), Evaluate, ListModels"},
    {"suggest", renju::commands::Suggest,
     "ask an inference server for the best move of a position"},
};

void PrintHelp() {
  std::printf("usage: renju <command> [flags]   (renju <command> --help)\n\n");
  for (const Command& c : kCommands)
    std::printf("  %-12s %s\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  // Gomocup managers start engines named pbrain-*: be one (gomocup_command.cc).
  if (renju::commands::IsGomocupProgramName(argv[0])) {
    return renju::commands::Gomocup({argv + 1, argv + argc});
  }
  if (argc < 2 || std::string(argv[1]) == "--help" ||
      std::string(argv[1]) == "help") {
    PrintHelp();
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const renju::commands::Argv args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (name == c.name) return c.run(args);
  }
  std::fprintf(stderr, "renju: unknown command '%s'\n\n", name.c_str());
  PrintHelp();
  return 2;
}
