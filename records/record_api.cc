#include "records/record_api.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "records/game_jsonl.h"
#include "records/record_text.h"
#include "records/rif.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "rules/record.h"

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

// The formats /api/records/save writes, with their file extensions and
// the request fields each cannot hold.
struct SaveFormat {
  const char* name;
  const char* extension;
  const char* title;  // for messages
  std::vector<std::string> not_held;
};

const std::vector<SaveFormat>& SaveFormats() {
  static const auto* formats = new std::vector<SaveFormat>{
      {"moves",
       "txt",
       "a move list",
       {"rule", "opening_rule", "opening_actions"}},
      {"psq",
       "psq",
       ".psq",
       {"rule", "result", "opening_rule", "opening_actions"}},
      {"sgf", "sgf", "SGF", {"opening_rule", "opening_actions"}},
      {"rif", "rif", ".rif", {"opening_rule", "opening_actions"}},
      {"jsonl", "jsonl", "JSON Lines", {}},
  };
  return *formats;
}

// A string field; `out` keeps its value when the field is absent.
bool GetString(const Json& request, const std::string& field, std::string& out,
               RecordsAnswer& error) {
  const auto it = request.find(field);
  if (it == request.end()) return true;
  if (!it->is_string()) {
    error = Error(field, absl::StrCat("expected a string, got ", it->dump()));
    return false;
  }
  out = it->get<std::string>();
  return true;
}

// "opening_actions": a list of actions or one string of them.
absl::StatusOr<std::vector<OpeningAction>> ParseActions(const Json& value,
                                                        int size) {
  if (value.is_string()) {
    return ParseOpeningActionList(value.get<std::string>(), size);
  }
  if (!value.is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a list of actions or a string, got ", value.dump()));
  }
  return OpeningActionsFromJson(value, size);
}

// The request's rule, board size and moves, into `record`; false (with
// `error` the 400) when one is not valid.
bool ReadSaveRequestMoves(const Json& request, GameRecord& record,
                          RecordsAnswer& error) {
  std::string rule_text = "renju";
  std::string moves_text;
  if (!GetString(request, "rule", rule_text, error) ||
      !GetString(request, "moves", moves_text, error)) {
    return false;
  }
  if (const auto size = request.find("size"); size != request.end()) {
    if (!size->is_number_integer() || size->get<int64_t>() < kMinBoardSize ||
        size->get<int64_t>() > kMaxBoardSize) {
      error = Error(
          "size", absl::StrCat("expected a board size in ", kMinBoardSize, "..",
                               kMaxBoardSize, ", got ", size->dump()));
      return false;
    }
    record.size = size->get<int>();
  }
  absl::StatusOr<Variant> variant = ParseVariant(rule_text);
  if (!variant.ok()) {
    error = Error("rule", std::string(variant.status().message()));
    return false;
  }
  record.variant = *variant;
  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList(moves_text, record.size);
  if (!moves.ok()) {
    error = Error("moves", std::string(moves.status().message()));
    return false;
  }
  record.moves = *std::move(moves);
  return true;
}

// The request's "result", when given and not null, into `record`.
bool ReadSaveRequestResult(const Json& request, GameRecord& record,
                           RecordsAnswer& error) {
  const auto result = request.find("result");
  if (result == request.end() || result->is_null()) return true;
  if (!result->is_string()) {
    error = Error("result", absl::StrCat("expected a string or null, got ",
                                         result->dump()));
    return false;
  }
  absl::StatusOr<std::optional<GameResult>> parsed =
      ParseRecordedResult(result->get<std::string>());
  if (!parsed.ok()) {
    error = Error("result", std::string(parsed.status().message()));
    return false;
  }
  record.result = *parsed;
  return true;
}

// Every move playable: on the board, on an empty point, not after the
// end (ReplayRecord; a forbidden move is forgiven there, as records keep
// an unclaimed one, and the page's game ends at it anyway).
bool CheckSaveRequestReplays(const GameRecord& record, RecordsAnswer& error) {
  absl::StatusOr<ReplayedGame> replayed = ReplayRecord(record, *record.variant);
  if (!replayed.ok()) {
    error = Error("size", std::string(replayed.status().message()));
    return false;
  }
  if (replayed->illegal.has_value()) {
    const IllegalMove& illegal = *replayed->illegal;
    error = Error("moves", absl::StrCat("move ", illegal.ply, " (",
                                        MoveName(illegal.move), ") is ",
                                        IllegalReasonName(illegal.reason)));
    return false;
  }
  return true;
}

// The stones the opening placed come first; an opening still in progress
// (saved to go on with later) has nothing after them.
bool CheckMovesFollowOpening(const GameRecord& record,
                             const OpeningState& opening,
                             RecordsAnswer& error) {
  const std::vector<Move>& placed = opening.game().moves();
  for (size_t i = 0; i < placed.size(); ++i) {
    if (i >= record.moves.size() || record.moves[i] != placed[i]) {
      error = Error(
          "moves",
          absl::StrCat(
              "move ", i + 1, " is ",
              i < record.moves.size() ? MoveName(record.moves[i]) : "missing",
              " but the opening actions placed ", MoveName(placed[i])));
      return false;
    }
  }
  if (!opening.done() && record.moves.size() > placed.size()) {
    error = Error("moves", absl::StrCat("move ", placed.size() + 1,
                                        " comes before the opening is over: ",
                                        opening.Expectation()));
    return false;
  }
  return true;
}

// The request's opening rule and actions, into `record`, checked against
// its rule, size and moves. The opening fields may be null, as
// /api/records answers them.
bool ReadSaveRequestOpening(const Json& request, GameRecord& record,
                            RecordsAnswer& error) {
  std::string opening_text;
  if (request.contains("opening_rule") && !request["opening_rule"].is_null() &&
      !GetString(request, "opening_rule", opening_text, error)) {
    return false;
  }
  auto actions = request.find("opening_actions");
  if (actions != request.end() &&
      (actions->is_null() || (actions->is_array() && actions->empty()) ||
       (actions->is_string() && actions->get<std::string>().empty()))) {
    actions = request.end();
  }
  if (opening_text.empty()) {
    if (actions != request.end()) {
      error = Error("opening_actions",
                    "opening actions need an \"opening_rule\" to be played "
                    "under");
      return false;
    }
    return true;
  }
  absl::StatusOr<OpeningRule> opening_rule = ParseOpeningRule(opening_text);
  if (!opening_rule.ok()) {
    error = Error("opening_rule", std::string(opening_rule.status().message()));
    return false;
  }
  record.opening_rule = *opening_rule;
  if (actions != request.end()) {
    absl::StatusOr<std::vector<OpeningAction>> parsed =
        ParseActions(*actions, record.size);
    if (!parsed.ok()) {
      error = Error("opening_actions", std::string(parsed.status().message()));
      return false;
    }
    record.opening_actions = *std::move(parsed);
  }
  if (absl::StatusOr<OpeningState> empty =
          OpeningState::Create(*opening_rule, *record.variant, record.size);
      !empty.ok()) {
    error = Error("opening_rule", std::string(empty.status().message()));
    return false;
  }
  absl::StatusOr<OpeningState> opening = ReplayOpening(
      *opening_rule, record.opening_actions, *record.variant, record.size);
  if (!opening.ok()) {
    error = Error("opening_actions", std::string(opening.status().message()));
    return false;
  }
  return CheckMovesFollowOpening(record, *opening, error);
}

// The record a save request describes, checked against the rules as the
// board page played it; `error` is the 400 when it is not one.
std::optional<GameRecord> SaveRequestRecord(const Json& request,
                                            RecordsAnswer& error) {
  GameRecord record;
  if (!ReadSaveRequestMoves(request, record, error) ||
      !ReadSaveRequestResult(request, record, error) ||
      !CheckSaveRequestReplays(record, error) ||
      !ReadSaveRequestOpening(request, record, error)) {
    return std::nullopt;
  }
  return record;
}

absl::StatusOr<std::string> WriteRecord(const std::string& format,
                                        const GameRecord& record) {
  if (format == "moves") return WriteMoveList(record);
  if (format == "psq") return WritePsq(record);
  if (format == "sgf") return WriteSgf(record);
  if (format == "rif") return WriteRif(record);
  return GameToJson(record).dump() + "\n";
}

// The body as a JSON object; false and the 400 when it is not one we can
// read.
bool ParseBody(const std::string& body, const char* example, Json& out,
               RecordsAnswer& error) {
  try {
    out = Json::parse(body);
  } catch (const Json::parse_error& e) {
    error = Error("", absl::StrCat("malformed JSON at byte ", e.byte,
                                   " of the body; expected ", example));
    return false;
  } catch (const Json::out_of_range& e) {
    // A number too large for a double, e.g. 1e999.
    error = Error(
        "", absl::StrCat("a number in the body is out of range: ", e.what()));
    return false;
  }
  if (!out.is_object()) {
    error = Error("", "the body must be a JSON object");
    return false;
  }
  return true;
}

}  // namespace

RecordsAnswer SaveRecordJson(const std::string& body) {
  Json request;
  RecordsAnswer error;
  if (!ParseBody(body, "{\"format\": ..., \"moves\": ...}", request, error)) {
    return error;
  }
  static const std::vector<std::string> kFields = {
      "format", "moves",        "rule",           "result",
      "size",   "opening_rule", "opening_actions"};
  for (const auto& [key, value] : request.items()) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
      return Error(key, absl::StrCat("unknown field \"", key, "\"; expected ",
                                     absl::StrJoin(kFields, ", ")));
    }
  }
  std::string format_name;
  if (!GetString(request, "format", format_name, error)) return error;
  std::vector<std::string> names;
  const SaveFormat* format = nullptr;
  for (const SaveFormat& f : SaveFormats()) {
    names.push_back(f.name);
    if (format_name == f.name) format = &f;
  }
  if (format == nullptr) {
    return Error(
        "format",
        absl::StrCat(format_name.empty()
                         ? "missing"
                         : absl::StrCat("unknown format \"", format_name, "\""),
                     "; expected one of ", absl::StrJoin(names, ", ")));
  }
  std::optional<GameRecord> record = SaveRequestRecord(request, error);
  if (!record.has_value()) return error;
  absl::StatusOr<std::string> text = WriteRecord(format->name, *record);
  if (!text.ok()) {
    return Error("format",
                 absl::StrCat(format->title, " cannot hold this game: ",
                              text.status().message()));
  }
  // What the request gave that the text leaves out.
  OrderedJson dropped = OrderedJson::array();
  for (const std::string& field : format->not_held) {
    const bool given =
        (field == "rule" && request.contains("rule")) ||
        (field == "result" && record->result.has_value()) ||
        (field == "opening_rule" && record->opening_rule.has_value()) ||
        (field == "opening_actions" && !record->opening_actions.empty());
    if (given) dropped.push_back(field);
  }
  RecordsAnswer answer;
  answer.json = {{"format", format->name},
                 {"name", absl::StrCat("renju-game.", format->extension)},
                 {"text", *std::move(text)},
                 {"dropped", std::move(dropped)}};
  return answer;
}

RecordsAnswer RecordsJson(const std::string& body) {
  Json request;
  RecordsAnswer error;
  if (!ParseBody(body, "{\"name\": ..., \"text\": ...}", request, error)) {
    return error;
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
    game["opening_rule"] = nullptr;
    game["opening_actions"] = OrderedJson::array();
    if (record.opening_rule.has_value()) {
      game["opening_rule"] = OpeningRuleName(*record.opening_rule);
      for (const OpeningAction& a : record.opening_actions) {
        game["opening_actions"].push_back(a.ToString());
      }
    }
    answer.json["games"].push_back(std::move(game));
  }
  return answer;
}

}  // namespace renju
