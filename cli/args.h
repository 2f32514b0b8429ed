// Command-line flags for one subcommand of the `renju` binary.
//
// absl/flags keeps one process-wide set of flags, which does not fit a binary
// whose subcommands each take their own; KataGo's `katago <command>` uses a
// per-command parser for the same reason. This one is small: declare the
// flags a command takes, parse, read typed values with ranges. Every error
// names the flag and the bad value.
//
//   Args args("show", "Prints a position.");
//   args.AddString("moves", "", "moves in play order, e.g. \"h8 h9\"");
//   args.AddBool("jsonl", "read JSON Lines from stdin");
//   if (absl::Status s = args.Parse(argv_after_command); !s.ok()) ...
//   std::string moves = args.GetString("moves");
#ifndef RENJU_CLI_ARGS_H_
#define RENJU_CLI_ARGS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace renju {

class Args {
 public:
  Args(std::string command, std::string summary);

  // Declarations; `help` is one line. Names are given without dashes.
  void AddString(const std::string& name, const std::string& default_value,
                 const std::string& help);
  void AddInt(const std::string& name, int64_t default_value, int64_t min,
              int64_t max, const std::string& help);
  void AddDouble(const std::string& name, double default_value, double min,
                 double max, const std::string& help);
  void AddBool(const std::string& name, const std::string& help);
  // Allows `count` positional arguments (file names etc.), described by
  // `help`; a negative count allows any number.
  void AllowPositional(int count, const std::string& help);

  // Accepts --name value, --name=value, and --flag / --noflag for booleans.
  // `--help` makes help_requested() true.
  absl::Status Parse(const std::vector<std::string>& argv);

  std::string GetString(const std::string& name) const;
  int64_t GetInt(const std::string& name) const;
  double GetDouble(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  // True if the flag appeared on the command line.
  bool IsSet(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  bool help_requested() const { return help_requested_; }

  std::string Usage() const;

 private:
  enum class Kind { kString, kInt, kDouble, kBool };
  struct Flag {
    Kind kind;
    std::string help;
    std::string value;  // text form, validated at Parse
    double min = 0;
    double max = 0;
    bool set = false;
  };
  absl::Status SetValue(const std::string& name, Flag& flag,
                        const std::string& value);
  const Flag& Find(const std::string& name, Kind kind) const;

  std::string command_;
  std::string summary_;
  std::map<std::string, Flag> flags_;
  std::vector<std::string> order_;
  int positional_count_ = 0;
  std::string positional_help_;
  std::vector<std::string> positional_;
  bool help_requested_ = false;
};

}  // namespace renju

#endif  // RENJU_CLI_ARGS_H_
