// The one format dispatcher for game-record files: move lists, Piskvork
// .psq and SGF (rules/record.h), RenjuNet .rif (rif.h), JSON Lines
// (game_jsonl.h) and a stored .game (a serialized pb::GameRecord,
// rpc/game_record.h). `renju replay` (replay.h) and the board page's
// /api/records (record_api.h) read records through it.
#ifndef RENJU_RECORDS_RECORD_TEXT_H_
#define RENJU_RECORDS_RECORD_TEXT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"

namespace renju {

// The games of a record file's text: the format from the file's name
// (.psq, .sgf, .rif/.xml, .jsonl/.json, .game), else from how the text
// begins, else move lists. Errors name the line.
absl::StatusOr<std::vector<GameRecord>> ReadRecordText(const std::string& name,
                                                       absl::string_view text);
// The format ReadRecordText reads `name` and `text` as: "psq", "sgf",
// "rif", "jsonl", "game" or "moves".
std::string RecordFormatName(const std::string& name, absl::string_view text);

}  // namespace renju

#endif  // RENJU_RECORDS_RECORD_TEXT_H_
