// The work of `renju replay` (tools/replay_command.cc): replays every game of
// a record file (read by record_text.h) through the rules and writes, per game,
// the moves, the result by the rules, the recorded result, the first illegal
// move and the forbidden moves played, then a summary (formats and keys:
// replay.cc).
#ifndef RENJU_RECORDS_REPLAY_H_
#define RENJU_RECORDS_REPLAY_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"
#include "rules/types.h"

namespace renju {

// Reads `path` (move list, .psq, .rif, SGF or JSON Lines games), checks
// every game's board size before any output, then writes the report to
// stdout: text, or one JSON object per game with `jsonl`. `rule` overrides
// the records' rule. Errors name the file and line.
absl::Status ReplayFile(const std::string& path, std::optional<Variant> rule,
                        bool jsonl);

}  // namespace renju

#endif  // RENJU_RECORDS_REPLAY_H_
