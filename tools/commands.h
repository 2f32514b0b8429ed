// The `renju` binary's subcommands, one function each (KataGo's MainCmds).
// Each takes the arguments after the command name, writes to stdout/stderr
// and returns the process exit code.
#ifndef RENJU_TOOLS_COMMANDS_H_
#define RENJU_TOOLS_COMMANDS_H_

#include <string>
#include <vector>

namespace renju::commands {

using Argv = std::vector<std::string>;

int Show(const Argv& args);           // show_command.cc
int Arena(const Argv& args);          // arena_command.cc
int Forbidden(const Argv& args);      // forbidden_command.cc
int Replay(const Argv& args);         // replay_command.cc
int Selfplay(const Argv& args);       // selfplay_command.cc
int SelfplayStats(const Argv& args);  // selfplay_command.cc
int Gomocup(const Argv& args);        // gomocup_command.cc
int Serve(const Argv& args);          // serve_command.cc
int Suggest(const Argv& args);        // suggest_command.cc
int Train(const Argv& args);          // train_command.cc
int Trainer(const Argv& args);        // trainer_command.cc

}  // namespace renju::commands

#endif  // RENJU_TOOLS_COMMANDS_H_
