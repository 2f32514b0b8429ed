// The `renju` binary's commands, by name, with a line each for `renju
// --help`. Two binaries share the list: `renju` (main.cc), which runs the
// commands that need no network itself and starts quickly, and
// `renju-full` (full_main.cc), which has every command and LibTorch and
// gRPC linked in; `renju` hands the others to it.
#ifndef RENJU_TOOLS_COMMAND_LIST_H_
#define RENJU_TOOLS_COMMAND_LIST_H_

#include <cstdio>
#include <cstring>
#include <string_view>

namespace renju::commands {

struct CommandSummary {
  const char* name;
  const char* summary;
};

inline constexpr CommandSummary kCommandList[] = {
    {"train",
     "run the whole training loop on this machine (trainer, workers, server)"},
    {"trainer",
     "the trainer process: stores games, trains, publishes "
     "generations"},
    {"show",
     "print a position: board, side to move, result, opening, forbidden "
     "points"},
    {"forbidden",
     "label black's forbidden points of JSON Lines positions on stdin"},
    {"replay", "replay game records, checking moves"},
    {"selfplay",
     "play self-play games (offline into a folder, or for a "
     "trainer)"},
    {"selfplay-stats", "summarise a folder of self-play games"},
    {"gomocup", "play through the Gomocup (Piskvork) protocol on stdin/stdout"},
    {"arena", "play a match between models, Gomocup engines or a random mover"},
    {"serve",
     "serve a model over gRPC: Suggest (search), Evaluate, ListModels"},
    {"suggest", "ask an inference server for the best move of a position"},
};

// The command of that name; nullptr for none.
inline const CommandSummary* FindCommand(const char* name) {
  for (const CommandSummary& c : kCommandList) {
    if (std::string_view(c.name) == name) return &c;
  }
  return nullptr;
}

// Gomocup managers start engines named pbrain-*; either binary started
// under such a name plays `renju gomocup`.
inline bool IsGomocupProgramName(const char* argv0) {
  const char* slash = std::strrchr(argv0, '/');
  return std::strncmp(slash ? slash + 1 : argv0, "pbrain-", 7) == 0;
}

inline void PrintCommandList(std::FILE* out) {
  std::fprintf(out,
               "usage: renju <command> [flags]   (renju <command> --help)\n\n");
  for (const CommandSummary& c : kCommandList)
    std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
}

}  // namespace renju::commands

#endif  // RENJU_TOOLS_COMMAND_LIST_H_
