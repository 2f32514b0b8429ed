#include "tools/record_api.h"

#include <httplib.h>

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rules/game.h"
#include "rules/record.h"
#include "tools/replay.h"
#include "web/http_server.h"

namespace renju {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

RecordsAnswer Error(const std::string& field, const std::string& message) {
  RecordsAnswer answer;
  answer.status = 400;
  answer.error_field = field;
  answer.json = {{"error", message}, {"field", field}};
  return answer;
}

}  // namespace

RecordsAnswer RecordsJson(const std::string& body) {
  Json request;
  try {
    request = Json::parse(body);
  } catch (const Json::parse_error& e) {
    return Error("", absl::StrCat("malformed JSON at byte ", e.byte,
                                  " of the body; expected {\"name\": ..., "
                                  "\"text\": ...}"));
  }
  if (!request.is_object()) {
    return Error("", "the body must be a JSON object");
  }
  for (const auto& [key, value] : request.items()) {
    if (key != "name" && key != "text") {
      return Error(key, absl::StrCat("unknown field \"", key,
                                     "\"; expected name, text"));
    }
    if (!value.is_string()) {
      return Error(key, absl::StrCat("expected a string, got ", value.dump()));
    }
  }
  if (!request.contains("text")) return Error("text", "missing");
  const std::string name = request.value("name", "");
  const std::string text = request["text"].get<std::string>();
  absl::StatusOr<std::vector<GameRecord>> records = ReadRecordText(name, text);
  if (!records.ok()) {
    return Error("text", absl::StrCat(name.empty() ? "the text" : name, ": ",
                                      records.status().message()));
  }
  if (records->empty()) {
    return Error("text", absl::StrCat(name.empty() ? "the text" : name,
                                      ": no game in it"));
  }
  RecordsAnswer answer;
  answer.json = {{"format", RecordFormatName(name, text)},
                 {"games", OrderedJson::array()}};
  for (size_t i = 0; i < records->size() && i < kMaxRecordGames; ++i) {
    const GameRecord& record = (*records)[i];
    std::vector<std::string> moves;
    for (Move m : record.moves) moves.push_back(MoveName(m));
    OrderedJson game = {{"moves", absl::StrJoin(moves, " ")},
                        {"rule", nullptr},
                        {"result", nullptr},
                        {"size", record.size}};
    if (record.variant.has_value()) {
      game["rule"] = std::string(VariantName(*record.variant));
    }
    if (record.result.has_value()) {
      game["result"] = std::string(GameResultName(*record.result));
    }
    answer.json["games"].push_back(std::move(game));
  }
  return answer;
}

void AddRecordRoutes(httplib::Server& server) {
  server.Post("/api/records", [](const httplib::Request& request,
                                 httplib::Response& response) {
    const RecordsAnswer answer = RecordsJson(request.body);
    ReplyJson(response, answer.status, answer.json);
  });
}

}  // namespace renju
