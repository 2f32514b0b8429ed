// The JSON Lines inputs: game files for `renju replay` (ReadGameJsonl, each
// game replayed, and written by GameToJson, the board page's Save, read
// back the same) and positions for `renju forbidden --jsonl` (each line
// through BoardFromJson, then the forbidden points of the board it gives).
#include <string>

#include <nlohmann/json.hpp>

#include "absl/strings/str_split.h"
#include "records/game_jsonl.h"
#include "records/json_position.h"
#include "rules/forbidden.h"
#include "tests/fuzz/fuzz_util.h"

namespace renju::fuzz {
namespace {

void CheckGames(absl::string_view text) {
  absl::StatusOr<std::vector<GameRecord>> records = ReadGameJsonl(text);
  if (!records.ok()) return;
  for (const GameRecord& record : *records) {
    RENJU_CHECK(record.line >= 1);
    CheckReplay(record);
    const std::string written = GameToJson(record).dump();
    absl::StatusOr<GameRecord> back =
        GameFromJson(nlohmann::json::parse(written));
    RENJU_CHECK(back.ok()) << back.status().message() << ": " << written;
    CheckSameMoves(record.moves, back->moves);
    RENJU_CHECK(back->result == record.result) << written;
    RENJU_CHECK(back->variant == record.variant) << written;
    RENJU_CHECK(back->size == record.size) << written;
    RENJU_CHECK(back->opening_rule == record.opening_rule) << written;
    RENJU_CHECK(back->opening_actions == record.opening_actions) << written;
  }
}

// What `renju forbidden --jsonl` does with one line.
void CheckPosition(absl::string_view line) {
  const nlohmann::json object =
      nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
  if (object.is_discarded()) return;
  absl::StatusOr<Board> board = BoardFromJson(object);
  if (!board.ok()) {
    // The command prints the message, which quotes the input as it is.
    nlohmann::json error = {{"error", std::string(board.status().message())}};
    error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  for (const ForbiddenPoint& f : ForbiddenPoints(*board)) {
    RENJU_CHECK(board->IsEmpty(f.point)) << PointName(f.point);
  }
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text = renju::fuzz::AsText(data, size);
  renju::fuzz::CheckGames(text);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    renju::fuzz::CheckPosition(line);
  }
  return 0;
}
