#include "records/game_jsonl.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace renju {
namespace {

absl::Status KeyError(absl::string_view key, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("\"", key, "\" ", what));
}

absl::Status ReadMoves(const nlohmann::json& moves, GameRecord& record) {
  std::vector<std::string> tokens;
  if (moves.is_string()) {
    tokens = absl::StrSplit(moves.get<std::string>(), absl::ByAnyChar(" \t,;"),
                            absl::SkipEmpty());
  } else if (moves.is_array()) {
    for (const nlohmann::json& move : moves) {
      if (!move.is_string()) {
        return KeyError("moves",
                        absl::StrCat("entry ", tokens.size() + 1,
                                     " is not a string: ", move.dump()));
      }
      tokens.push_back(move.get<std::string>());
    }
  } else {
    return KeyError("moves", "is not a list of moves or a string");
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    absl::StatusOr<Move> move = ParseRecordMove(tokens[i]);
    if (!move.ok()) {
      return KeyError("moves", absl::StrCat("entry ", i + 1, ": ",
                                            move.status().message()));
    }
    record.moves.push_back(*move);
  }
  return absl::OkStatus();
}

// A string-valued optional key: nullopt when absent or null.
absl::StatusOr<std::optional<std::string>> OptionalString(
    const nlohmann::json& object, absl::string_view key) {
  const auto it = object.find(std::string(key));
  if (it == object.end() || it->is_null()) {
    return std::optional<std::string>();
  }
  if (!it->is_string()) return KeyError(key, "is not a string");
  return std::optional<std::string>(it->get<std::string>());
}

// "opening_rule" and "opening_actions"; the actions are read after "size".
absl::Status ReadOpening(const nlohmann::json& object, GameRecord& record) {
  absl::StatusOr<std::optional<std::string>> rule =
      OptionalString(object, "opening_rule");
  if (!rule.ok()) return rule.status();
  const auto actions = object.find("opening_actions");
  const bool has_actions = actions != object.end() && !actions->is_null();
  if (!rule->has_value()) {
    if (has_actions)
      return KeyError("opening_actions", "needs \"opening_rule\"");
    return absl::OkStatus();
  }
  absl::StatusOr<OpeningRule> parsed = ParseOpeningRule(**rule);
  if (!parsed.ok()) return KeyError("opening_rule", parsed.status().message());
  record.opening_rule = *parsed;
  if (!has_actions) return absl::OkStatus();
  if (!actions->is_array()) {
    return KeyError("opening_actions", "is not a list of actions");
  }
  absl::StatusOr<std::vector<OpeningAction>> list =
      OpeningActionsFromJson(*actions, record.size);
  if (!list.ok()) return KeyError("opening_actions", list.status().message());
  record.opening_actions = *std::move(list);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<OpeningAction>> OpeningActionsFromJson(
    const nlohmann::json& list, int size) {
  std::vector<OpeningAction> actions;
  for (const nlohmann::json& entry : list) {
    const size_t n = actions.size() + 1;
    if (!entry.is_string()) {
      return absl::InvalidArgumentError(
          absl::StrCat("entry ", n, " is not a string: ", entry.dump()));
    }
    absl::StatusOr<OpeningAction> action =
        ParseOpeningAction(entry.get<std::string>(), size);
    if (!action.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("entry ", n, ": ", action.status().message()));
    }
    actions.push_back(*std::move(action));
  }
  return actions;
}

absl::StatusOr<GameRecord> GameFromJson(const nlohmann::json& object) {
  if (!object.is_object()) {
    return absl::InvalidArgumentError("not a JSON object");
  }
  GameRecord record;
  const auto moves = object.find("moves");
  if (moves == object.end()) return KeyError("moves", "is missing");
  if (absl::Status s = ReadMoves(*moves, record); !s.ok()) return s;

  absl::StatusOr<std::optional<std::string>> result =
      OptionalString(object, "result");
  if (!result.ok()) return result.status();
  if (result->has_value()) {
    absl::StatusOr<std::optional<GameResult>> parsed =
        ParseRecordedResult(**result);
    if (!parsed.ok()) return KeyError("result", parsed.status().message());
    record.result = *parsed;
  }

  absl::StatusOr<std::optional<std::string>> rule =
      OptionalString(object, "rule");
  if (!rule.ok()) return rule.status();
  if (rule->has_value()) {
    absl::StatusOr<Variant> variant = ParseVariant(**rule);
    if (!variant.ok()) return KeyError("rule", variant.status().message());
    record.variant = *variant;
  }

  const auto size = object.find("size");
  if (size != object.end() && !size->is_null()) {
    if (!size->is_number_integer() || size->get<int64_t>() < kMinBoardSize ||
        size->get<int64_t>() > kMaxBoardSize) {
      return KeyError("size", absl::StrCat("is not a board size in ",
                                           kMinBoardSize, "..", kMaxBoardSize));
    }
    record.size = size->get<int>();
  }
  if (absl::Status s = ReadOpening(object, record); !s.ok()) return s;
  return record;
}

nlohmann::ordered_json GameToJson(const GameRecord& record) {
  nlohmann::ordered_json moves = nlohmann::ordered_json::array();
  for (Move m : record.moves) moves.push_back(MoveName(m));
  nlohmann::ordered_json object = {{"moves", std::move(moves)}};
  if (record.result.has_value() && *record.result != GameResult::kOngoing) {
    object["result"] = std::string(GameResultName(*record.result));
  }
  if (record.variant.has_value()) {
    object["rule"] = std::string(VariantName(*record.variant));
  }
  object["size"] = record.size;
  if (record.opening_rule.has_value()) {
    object["opening_rule"] = OpeningRuleName(*record.opening_rule);
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (const OpeningAction& a : record.opening_actions) {
      actions.push_back(a.ToString());
    }
    object["opening_actions"] = std::move(actions);
  }
  return object;
}

absl::StatusOr<std::vector<GameRecord>> ReadGameJsonl(absl::string_view text) {
  std::vector<GameRecord> games;
  int line_number = 0;
  absl::ConsumePrefix(&text, "\xEF\xBB\xBF");  // a UTF-8 byte order mark
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    const nlohmann::json object =
        nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    absl::StatusOr<GameRecord> record =
        object.is_discarded() ? absl::InvalidArgumentError("not valid JSON")
                              : GameFromJson(object);
    if (!record.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ": ", record.status().message()));
    }
    record->line = line_number;
    games.push_back(std::move(*record));
  }
  return games;
}

}  // namespace renju
