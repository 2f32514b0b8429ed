// Record files read for the board page (web/board.js "Open file"): the
// server reads them with the project's parsers (rules/record.h, tools/rif.h
// through tools/replay.h), so the page loads what `renju replay` reads.
//
//   POST /api/records {"name": "game.psq", "text": "Piskvorky 15x15, ..."}
//     -> {"format": "psq", "games": [{"moves": "h8 h9 ...", "rule":
//         "renju" or null, "result": "black" or null, "size": 15}, ...]}
//
// The format comes from the name's extension, else from how the text
// begins (tools/replay.h). At most kMaxRecordGames games are answered.
// Bad input gets 400 with {"error", "field"}: not a JSON object, an
// unknown field, a text that does not parse (the parser's message names
// the line).
#ifndef RENJU_TOOLS_RECORD_API_H_
#define RENJU_TOOLS_RECORD_API_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/status/statusor.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace renju {

inline constexpr size_t kMaxRecordGames = 100;

// The answer to a /api/records body: 200 with the games, or 400 with the
// error and the field at fault.
struct RecordsAnswer {
  nlohmann::ordered_json json;
  std::string error_field;  // set when json is an error
  int status = 200;
};
RecordsAnswer RecordsJson(const std::string& body);

// Adds POST /api/records to `server`.
void AddRecordRoutes(httplib::Server& server);

}  // namespace renju

#endif  // RENJU_TOOLS_RECORD_API_H_
