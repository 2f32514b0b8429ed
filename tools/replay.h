// The work of `renju replay` (tools/replay_command.cc): replays every game of
// a record file through the rules and writes, per game, the moves, the
// result by the rules, the recorded result, the first illegal move and the
// forbidden moves played, then a summary (formats and keys: replay.cc).
#ifndef RENJU_TOOLS_REPLAY_H_
#define RENJU_TOOLS_REPLAY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"
#include "rules/types.h"

namespace renju {

// The games of a record file's text: the format from the file's name
// (.psq, .sgf, .rif/.xml, .jsonl/.json, .game), else from how the text
// begins, else move lists. Errors name the line.
absl::StatusOr<std::vector<GameRecord>> ReadRecordText(
    const std::string& name, absl::string_view text);
// The format ReadRecordText reads `name` and `text` as: "psq", "sgf",
// "rif", "jsonl", "game" or "moves".
std::string RecordFormatName(const std::string& name, absl::string_view text);

// Reads `path` (move list, .psq, .rif, SGF or JSON Lines games), checks
// every game's board size before any output, then writes the report to
// stdout: text, or one JSON object per game with `jsonl`. `rule` overrides
// the records' rule. Errors name the file and line.
absl::Status ReplayFile(const std::string& path, std::optional<Variant> rule,
                        bool jsonl);

}  // namespace renju

#endif  // RENJU_TOOLS_REPLAY_H_
