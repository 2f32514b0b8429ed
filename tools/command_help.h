// Each command's --help text, as `renju-full <command> --help` printed it
// when the build ran it (tools/command_help.cmake writes the definition),
// so that `renju <command> --help` answers without starting renju-full.
#ifndef RENJU_TOOLS_COMMAND_HELP_H_
#define RENJU_TOOLS_COMMAND_HELP_H_

#include <string_view>

namespace renju::commands {

// The help text of the command `name`; nullptr for a command without one.
const char* StoredCommandHelp(std::string_view name);

}  // namespace renju::commands

#endif  // RENJU_TOOLS_COMMAND_HELP_H_
