// The JSON Lines game format of ../shared/data/renju-games.jsonl: one game
// per line, e.g.
//   {"moves":["h8","h9","h6"],"result":"white","rule":"renju","line":2}
// Keys read:
//   "moves"  required; a list of renju-notation moves ("h8", rows from the
//            bottom; "pass"/"--" are passes) or one string "h8 h9 h6"
//   "result" optional; "black", "white", "draw", "unknown" or null
//   "rule"   optional; "renju", "standard" or "freestyle"
//   "size"   optional; the board size, default 15
//   "opening_rule"     optional; the opening rule the game was played under
//                      (rif, yamaguchi, tarannikov, taraguchi10, swap1,
//                      swap3, swap2, ...: rules/opening.h)
//   "opening_actions"  optional, only with "opening_rule"; the opening
//                      actions in order as OpeningAction::ToString writes
//                      them: ["Place(h8)", "Place(h9)", "Place(j10)",
//                      "KeepColours", "Place(i10)", "OfferFifth(j9 g7)",
//                      "ChooseFifth(g7)"]
// Other keys ("source", "line", ...) are ignored. Blank lines are skipped.
#ifndef RENJU_RECORDS_GAME_JSONL_H_
#define RENJU_RECORDS_GAME_JSONL_H_

#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"

namespace renju {

// One game object; the error names the key and what was wrong with it.
absl::StatusOr<GameRecord> GameFromJson(const nlohmann::json& object);

// The object GameFromJson reads back as `record`: "moves" as a list, then
// "result" and "rule" when known, "size", and "opening_rule" with
// "opening_actions" when the record has an opening rule. One line of a
// .jsonl file is its dump() and a newline.
nlohmann::ordered_json GameToJson(const GameRecord& record);

// A JSON list of opening actions as OpeningAction::ToString writes them
// (["Place(h8)", "Swap", ...]) on a board of `size`; the error names the
// 1-based entry at fault.
absl::StatusOr<std::vector<OpeningAction>> OpeningActionsFromJson(
    const nlohmann::json& list, int size);

// Every line of `text`; GameRecord::line is the 1-based line number. The
// error names the line.
absl::StatusOr<std::vector<GameRecord>> ReadGameJsonl(absl::string_view text);

}  // namespace renju

#endif  // RENJU_RECORDS_GAME_JSONL_H_
