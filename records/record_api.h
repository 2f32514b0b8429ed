// Record files read and written for the board page (web/board.js "Open
// file" and "Save"): the server uses the project's parsers and writers
// (rules/record.h, records/rif.h, records/game_jsonl.h, through
// records/record_text.h for reading), so the page loads what `renju replay`
// reads and saves what it reads.
//
//   POST /api/records {"name": "game.psq", "text": "Piskvorky 15x15, ..."}
//     -> {"format": "psq", "games": [{"moves": "h8 h9 ...", "rule":
//         "renju" or null, "result": "black" or null, "size": 15,
//         "opening_rule": "rif" or null, "opening_actions": ["Place(h8)",
//         ...]}, ...]}
//
// The format comes from the name's extension, else from how the text
// begins (records/record_text.h). At most kMaxRecordGames games are answered;
// `renju serve` takes bodies up to kMaxRecordBodyBytes here (the rest of
// the API: inference/http_api.h's kMaxHttpBodyBytes).
// Only .jsonl and .game records hold an opening rule and its actions
// (rules/opening.h syntax); for the others they come back null and [].
// Bad input gets 400 with {"error", "field"}: not a JSON object, an
// unknown field, a text that does not parse (the parser's message names
// the line).
//
//   POST /api/records/save {"format": "psq", "moves": "h8 h9",
//                           "rule": "renju", "result": "black",
//                           "size": 15, "opening_rule": "rif",
//                           "opening_actions": ["Place(h8)", ...]}
//     -> {"format": "psq", "name": "renju-game.psq", "text": "Piskvorky
//         15x15, ...", "dropped": ["rule", "result", ...]}
//
// Formats: "moves" (.txt, one line: the result word, then the moves),
// "psq", "sgf", "rif", "jsonl". Only "format" is required. "moves" as
// /api/position takes them ("h8 h9", "pass" passes); "rule" renju (the
// default), standard or freestyle; "result" black, white, draw, unknown or
// null (not known; the game's end on the board is not inferred); "size"
// 15 by default; "opening_rule" and "opening_actions" (a list of actions,
// or one string as /api/position takes them) as a game under an opening
// rule was played: the moves start with the stones the actions placed, and
// an opening not yet over has no moves after its stones. "dropped" lists
// the fields the request gave that the format cannot hold and the text
// leaves out: "rule" (move list, .psq), "result" (.psq), "opening_rule"
// and "opening_actions" (all but .jsonl; SGF and RenjuNet have no notation
// for every opening rule's actions). Bad input gets 400 with {"error",
// "field"}: malformed JSON, an unknown field, a wrong type, an unknown
// format, rule, result or opening rule, a bad or illegal move (occupied,
// after the end), actions the opening rule refuses or moves that do not
// follow them, and a game the format cannot hold ("format": a pass in
// .psq or .rif, a board other than 15x15 in a move list or .rif).
#ifndef RENJU_RECORDS_RECORD_API_H_
#define RENJU_RECORDS_RECORD_API_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/status/statusor.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace renju {

inline constexpr size_t kMaxRecordGames = 100;
// The largest record file /api/records reads: a few thousand games of a
// tournament's or a player's collection (RenjuNet's whole database, tens
// of MB, is for `renju replay`, not the page).
inline constexpr size_t kMaxRecordBodyBytes = 4 << 20;

// The answer to a /api/records body: 200 with the games, or 400 with the
// error and the field at fault.
struct RecordsAnswer {
  nlohmann::ordered_json json;
  std::string error_field;  // set when json is an error
  int status = 200;
};
RecordsAnswer RecordsJson(const std::string& body);

// The answer to a /api/records/save body: 200 with the text, or 400.
RecordsAnswer SaveRecordJson(const std::string& body);

// Adds POST /api/records and /api/records/save to `server`
// (record_routes.cc: the only part here that needs httplib).
void AddRecordRoutes(httplib::Server& server);

}  // namespace renju

#endif  // RENJU_RECORDS_RECORD_API_H_
