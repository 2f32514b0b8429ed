// `renju selfplay-stats DIR`: a summary of a folder of self-play games.
#include <cstdio>

#include "cli/command_util.h"
#include "selfplay/selfplay_stats.h"
#include "tools/commands.h"

namespace renju::commands {

int SelfplayStats(const Argv& argv) {
  Args args("selfplay-stats", "Summarises a directory of self-play games.");
  args.AllowPositional(1, "DIR");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  if (args.positional().size() != 1) {
    std::fprintf(stderr, "selfplay-stats: give one directory\n");
    return 2;
  }
  absl::StatusOr<int64_t> unreadable = PrintSelfplayStats(args.positional()[0]);
  if (!unreadable.ok()) return Fail(unreadable.status());
  return *unreadable ? 1 : 0;
}

}  // namespace renju::commands
