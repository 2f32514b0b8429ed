#include "inference/http_api.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rpc/game_record.h"

namespace renju {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const std::vector<std::string>& PositionFields() {
  static const auto* fields = new std::vector<std::string>{"moves", "rule"};
  return *fields;
}

const std::vector<std::string>& SuggestFields() {
  static const auto* fields = new std::vector<std::string>{
      "moves", "rule", "visits", "time_ms", "candidates"};
  return *fields;
}

// The body as a JSON object whose every key is in `fields`.
bool ParseObject(const std::string& body,
                 const std::vector<std::string>& fields, Json& out,
                 HttpApiError& error) {
  // The throwing parse is the one that says where the JSON went wrong.
  try {
    out = Json::parse(body);
  } catch (const Json::parse_error& e) {
    error = {"", absl::StrCat("malformed JSON at byte ", e.byte,
                              " of the body; expected an object such as "
                              "{\"moves\": \"h8 h9\", \"rule\": \"renju\"}")};
    return false;
  }
  if (!out.is_object()) {
    error = {"", absl::StrCat("the body must be a JSON object, not ",
                              out.type_name())};
    return false;
  }
  for (const auto& [key, value] : out.items()) {
    if (std::find(fields.begin(), fields.end(), key) == fields.end()) {
      error = {key, absl::StrCat("unknown field \"", key, "\"; expected ",
                                 absl::StrJoin(fields, ", "))};
      return false;
    }
  }
  return true;
}

bool GetString(const Json& object, const std::string& field,
               const std::string& default_value, std::string& out,
               HttpApiError& error) {
  if (!object.contains(field)) {
    out = default_value;
    return true;
  }
  const Json& value = object[field];
  if (!value.is_string()) {
    error = {field, absl::StrCat("expected a string, got ", value.dump())};
    return false;
  }
  out = value.get<std::string>();
  return true;
}

// A non-negative integer (0 when absent), lowered to `limit`.
bool GetBudget(const Json& object, const std::string& field, int limit,
               int& out, HttpApiError& error) {
  out = 0;
  if (!object.contains(field)) return true;
  const Json& value = object[field];
  if (!value.is_number_integer() || value.get<int64_t>() < 0) {
    error = {field, absl::StrCat("expected a non-negative integer (0: the "
                                 "server's default), got ",
                                 value.dump())};
    return false;
  }
  out = static_cast<int>(std::min<int64_t>(value.get<int64_t>(), limit));
  return true;
}

// The rule and the moves: the game they make, and its wire form. A
// suggestion's moves are checked by the service's own position rules
// (rpc/game_record.h), which refuse a forbidden move: there is nothing to
// search after one. A position's game may end on one, as the rules core
// plays it (ForbiddenMovePolicy::kLoses): white has won, and a saved game
// that ended so reads back.
bool ParseGame(const Json& object, int size, bool may_end_forbidden,
               HttpApiRequest& out, HttpApiError& error) {
  std::string rule_text;
  std::string moves_text;
  if (!GetString(object, "rule", "renju", rule_text, error) ||
      !GetString(object, "moves", "", moves_text, error)) {
    return false;
  }
  absl::StatusOr<Variant> variant = ParseVariant(rule_text);
  if (!variant.ok()) {
    error = {"rule", std::string(variant.status().message())};
    return false;
  }
  absl::StatusOr<std::vector<Move>> moves = ParseMoveList(moves_text, size);
  if (!moves.ok()) {
    error = {"moves", std::string(moves.status().message())};
    return false;
  }
  pb::Position* position = out.suggest.mutable_position();
  position->set_variant(ToProto(*variant));
  position->set_board_size(size);
  for (Move m : *moves) position->add_moves(MoveIndex(m, size));
  absl::StatusOr<Game> game = may_end_forbidden
                                  ? Game::FromMoves(*variant, size, *moves)
                                  : GameFromPosition(*position);
  if (!game.ok()) {
    error = {"moves", std::string(game.status().message())};
    return false;
  }
  out.game = *std::move(game);
  return true;
}

// A point index from the service; its answer is trusted no more than any
// other process's.
std::string MoveText(int index, int size) {
  if (index == -1) return "pass";
  if (index < 0 || index >= size * size) return absl::StrCat("?", index);
  return PointName(PointAt(index, size));
}

OrderedJson MovesJson(const google::protobuf::RepeatedField<int32_t>& moves,
                      int size) {
  OrderedJson out = OrderedJson::array();
  for (int m : moves) out.push_back(MoveText(m, size));
  return out;
}

}  // namespace

bool ParsePositionRequest(const std::string& body, int size,
                          HttpApiRequest& out, HttpApiError& error) {
  Json object;
  return ParseObject(body, PositionFields(), object, error) &&
         ParseGame(object, size, /*may_end_forbidden=*/true, out, error);
}

bool ParseSuggestRequest(const std::string& body, int size,
                         const pb::ServerConfig& server, HttpApiRequest& out,
                         HttpApiError& error) {
  Json object;
  if (!ParseObject(body, SuggestFields(), object, error) ||
      !ParseGame(object, size, /*may_end_forbidden=*/false, out, error)) {
    return false;
  }
  if (out.game.over()) {
    error = {"moves", absl::StrCat("the game is already over (",
                                   GameResultName(out.game.result()), " by ",
                                   EndReasonName(out.game.end_reason()),
                                   "); there is no move to suggest")};
    return false;
  }
  int visits = 0;
  int time_ms = 0;
  int candidates = 0;
  if (!GetBudget(object, "visits", server.max_visits(), visits, error) ||
      !GetBudget(object, "time_ms", server.max_time_ms(), time_ms, error) ||
      !GetBudget(object, "candidates", server.max_candidates(), candidates,
                 error)) {
    return false;
  }
  out.suggest.set_visits(visits);
  out.suggest.set_time_ms(time_ms);
  out.suggest.set_num_candidates(candidates);
  return true;
}

OrderedJson PositionJson(Game& game) {
  OrderedJson moves = OrderedJson::array();
  for (Move m : game.moves()) moves.push_back(MoveName(m));
  OrderedJson forbidden = OrderedJson::array();
  if (!game.over() && game.side_to_move() == Color::kBlack) {
    // Empty unless the variant is renju (ForbiddenAt).
    for (const ForbiddenPoint& f : ForbiddenPoints(game.mutable_board())) {
      forbidden.push_back({{"point", PointName(f.point)},
                           {"kind", std::string(ForbiddenKindName(f.kind))}});
    }
  }
  OrderedJson out = {{"rule", std::string(VariantName(game.variant()))},
                     {"size", game.size()},
                     {"moves", moves},
                     {"ply", game.ply()},
                     {"to_move", std::string(ColorName(game.side_to_move()))},
                     {"result", std::string(GameResultName(game.result()))},
                     {"end_reason",
                      std::string(EndReasonName(game.end_reason()))},
                     {"forbidden", forbidden}};
  if (game.end_reason() == EndReason::kForbidden) {
    const ForbiddenMoveRecord& lost = game.forbidden_played().back();
    out["forbidden_move"] = {
        {"point", PointName(lost.point)},
        {"kind", std::string(ForbiddenKindName(lost.kind))}};
  }
  return out;
}

OrderedJson SuggestJson(Game& game, const pb::SuggestRequest& request,
                        const pb::SuggestResponse& response) {
  const int size = game.size();
  OrderedJson candidates = OrderedJson::array();
  for (const pb::Candidate& c : response.candidates()) {
    OrderedJson pv = MovesJson(c.principal_variation(), size);
    if (pv.empty()) pv.push_back(MoveText(c.move(), size));
    candidates.push_back({{"move", MoveText(c.move(), size)},
                          {"visits", c.visits()},
                          {"win", c.win()},
                          {"draw", c.draw()},
                          {"loss", c.loss()},
                          {"prior", c.prior()},
                          {"pv", pv}});
  }
  OrderedJson out = PositionJson(game);
  out["best_move"] = MoveText(response.best_move(), size);
  out["win"] = response.win();
  out["draw"] = response.draw();
  out["loss"] = response.loss();
  out["pv"] = MovesJson(response.principal_variation(), size);
  out["visits"] = response.visits();
  out["model_generation"] = response.model_generation();
  out["decided_by"] = response.decided_by();
  out["budget"] = {{"visits", request.visits()},
                   {"time_ms", request.time_ms()},
                   {"candidates", request.num_candidates()}};
  out["candidates"] = candidates;
  return out;
}

OrderedJson ErrorJson(const HttpApiError& error) {
  return {{"error", error.message}, {"field", error.field}};
}

}  // namespace renju
