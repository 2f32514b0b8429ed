#include "inference/http_api.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rpc/game_record.h"
#include "rules/opening.h"

namespace renju {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const std::vector<std::string>& PositionFields() {
  static const auto* fields = new std::vector<std::string>{
      "moves", "rule", "opening_rule", "opening_actions"};
  return *fields;
}

const std::vector<std::string>& SuggestFields() {
  static const auto* fields = new std::vector<std::string>{
      "moves",      "rule",         "visits",         "time_ms",
      "candidates", "opening_rule", "opening_actions"};
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
  } catch (const Json::out_of_range& e) {
    // A number too large for a double, e.g. 1e999.
    error = {"",
             absl::StrCat("a number in the body is out of range: ", e.what())};
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

// The opening rule and its actions, when the body names a rule: the state
// they replay to (rules/opening.h), its stones as the game, and the
// service's opening request. The actions place the stones, so "moves" must
// be empty then.
bool ParseOpening(const Json& object, int size, HttpApiRequest& out,
                  HttpApiError& error) {
  std::string rule_text;
  std::string actions_text;
  if (!GetString(object, "opening_rule", "", rule_text, error) ||
      !GetString(object, "opening_actions", "", actions_text, error)) {
    return false;
  }
  if (rule_text.empty()) {
    if (!actions_text.empty()) {
      error = {"opening_actions",
               "opening actions need an \"opening_rule\" to be played under"};
      return false;
    }
    return true;
  }
  if (!out.game.moves().empty()) {
    error = {"moves",
             "give \"moves\" or an \"opening_rule\", not both: the "
             "opening's actions place its stones"};
    return false;
  }
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(rule_text);
  if (!rule.ok()) {
    error = {"opening_rule", std::string(rule.status().message())};
    return false;
  }
  const Variant variant = out.game.variant();
  absl::StatusOr<OpeningState> empty =
      OpeningState::Create(*rule, variant, size);
  if (!empty.ok()) {
    error = {"opening_rule", std::string(empty.status().message())};
    return false;
  }
  absl::StatusOr<std::vector<OpeningAction>> actions =
      ParseOpeningActionList(actions_text, size);
  if (!actions.ok()) {
    error = {"opening_actions", std::string(actions.status().message())};
    return false;
  }
  absl::StatusOr<OpeningState> state =
      ReplayOpening(*rule, *actions, variant, size);
  if (!state.ok()) {
    error = {"opening_actions", std::string(state.status().message())};
    return false;
  }
  out.game = state->game();
  out.suggest.set_opening_rule(OpeningRuleName(*rule));
  for (const OpeningAction& a : *actions) {
    *out.suggest.add_opening_actions() = ToProto(a, size);
  }
  out.opening = *std::move(state);
  return true;
}

// "Place", "Swap", ...: the names of the action syntax.
std::string KindText(OpeningActionKind kind) {
  switch (kind) {
    case OpeningActionKind::kPlace:
      return "Place";
    case OpeningActionKind::kPass:
      return "Pass";
    case OpeningActionKind::kSwap:
      return "Swap";
    case OpeningActionKind::kKeepColours:
      return "KeepColours";
    case OpeningActionKind::kDeclareCount:
      return "DeclareCount";
    case OpeningActionKind::kOfferFifth:
      return "OfferFifth";
    case OpeningActionKind::kChooseFifth:
      return "ChooseFifth";
  }
  return "?";
}

OrderedJson PointsJson(const std::vector<Point>& points) {
  OrderedJson out = OrderedJson::array();
  for (Point p : points) out.push_back(PointName(p));
  return out;
}

// Where an opening stands: what the rule asks next and of whom.
OrderedJson OpeningJson(const OpeningState& state) {
  OrderedJson actions = OrderedJson::array();
  for (const OpeningAction& a : state.actions()) {
    actions.push_back(a.ToString());
  }
  OrderedJson allows = OrderedJson::array();
  for (int k = 0; k < kNumOpeningActionKinds; ++k) {
    const auto kind = static_cast<OpeningActionKind>(k);
    if (!state.done() && state.Allows(kind)) allows.push_back(KindText(kind));
  }
  const Player player = state.to_act();
  OrderedJson out = {
      {"rule", OpeningRuleName(state.rule())},
      {"actions", actions},
      {"done", state.done()},
      {"expectation",
       state.done() ? std::string("the opening is over") : state.Expectation()},
      {"to_act", std::string(PlayerName(player))},
      {"color", state.PlayerOf(Color::kBlack) == player ? "black" : "white"},
      {"black_player", std::string(PlayerName(state.black_player()))},
      {"allows", allows},
      {"offer_count", state.RequiredOfferCount()},
      {"offered", PointsJson(state.offered())}};
  return out;
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
         ParseGame(object, size, /*may_end_forbidden=*/true, out, error) &&
         ParseOpening(object, size, out, error);
}

bool ParseSuggestRequest(const std::string& body, int size,
                         const pb::ServerConfig& server, HttpApiRequest& out,
                         HttpApiError& error) {
  Json object;
  if (!ParseObject(body, SuggestFields(), object, error) ||
      !ParseGame(object, size, /*may_end_forbidden=*/false, out, error) ||
      !ParseOpening(object, size, out, error)) {
    return false;
  }
  if (out.opening && out.opening->done()) {
    error = {"opening_actions",
             absl::StrCat(out.opening->Expectation(),
                          "; ask for a move with \"moves\" instead")};
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

OrderedJson PositionJson(HttpApiRequest& request) {
  OrderedJson out = PositionJson(request.game);
  if (request.opening) out["opening"] = OpeningJson(*request.opening);
  return out;
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
  OrderedJson out = {
      {"rule", std::string(VariantName(game.variant()))},
      {"size", game.size()},
      {"moves", moves},
      {"ply", game.ply()},
      {"to_move", std::string(ColorName(game.side_to_move()))},
      {"result", std::string(GameResultName(game.result()))},
      {"end_reason", std::string(EndReasonName(game.end_reason()))},
      {"forbidden", forbidden}};
  if (game.end_reason() == EndReason::kForbidden) {
    const ForbiddenMoveRecord& lost = game.forbidden_played().back();
    out["forbidden_move"] = {
        {"point", PointName(lost.point)},
        {"kind", std::string(ForbiddenKindName(lost.kind))}};
  }
  return out;
}

// The model's advice on an opening decision, with the values behind it
// (proto/inference.proto, OpeningSuggestion).
OrderedJson AdviceJson(const pb::OpeningSuggestion& o, int32_t visits,
                       int64_t generation, int size) {
  absl::StatusOr<OpeningAction> action = FromProto(o.action(), size);
  OrderedJson points = OrderedJson::array();
  for (int p : o.action().points()) points.push_back(MoveText(p, size));
  if (o.action().points().empty() && action.ok() &&
      (action->kind == OpeningActionKind::kPlace ||
       action->kind == OpeningActionKind::kChooseFifth)) {
    points.push_back(PointName(action->point));
  }
  OrderedJson candidates = OrderedJson::array();
  for (const pb::OpeningCandidate& c : o.candidates()) {
    candidates.push_back({{"point", MoveText(c.point(), size)},
                          {"black_score", c.black_score()}});
  }
  return {{"action", o.action_text()},
          {"kind", action.ok() ? KindText(action->kind) : "?"},
          {"points", points},
          {"count", o.action().count()},
          {"player", o.player()},
          {"color", o.color() == pb::BLACK ? "black" : "white"},
          {"value", o.value()},
          {"black_score", o.black_score()},
          {"candidates", candidates},
          {"visits", visits},
          {"model_generation", generation}};
}

OrderedJson SuggestJson(HttpApiRequest& parsed,
                        const pb::SuggestResponse& response) {
  Game& game = parsed.game;
  const pb::SuggestRequest& request = parsed.suggest;
  const int size = game.size();
  if (parsed.opening) {
    OrderedJson out = PositionJson(parsed);
    out["opening"]["advice"] = AdviceJson(response.opening(), response.visits(),
                                          response.model_generation(), size);
    out["budget"] = {{"visits", request.visits()},
                     {"time_ms", request.time_ms()}};
    return out;
  }
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
