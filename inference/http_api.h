// The JSON side of the inference server's HTTP API (http_frontend.h): what
// a request body may hold, how it becomes the gRPC service's SuggestRequest,
// and how the answers read. No sockets here, so that every rule about bad
// input is tested without a server.
//
//   POST /api/position {"moves": "h8 h9", "rule": "renju"}
//     -> {"rule", "size", "moves": [...], "ply", "to_move", "result",
//         "end_reason", "forbidden": [{"point": "e7", "kind":
//         "double-three"}, ...]}, and "forbidden_move": {"point", "kind"}
//         when black lost by playing a forbidden point (end_reason
//         "forbidden move")
//   POST /api/suggest {"moves": "h8 h9 i10", "rule": "renju", "visits": 200,
//                      "time_ms": 0, "candidates": 5}
//     -> the position's fields plus {"best_move", "win", "draw", "loss",
//         "pv", "visits", "model_generation", "decided_by", "budget",
//         "candidates": [{"move", "visits", "win", "draw", "loss", "prior",
//         "pv"}, ...]}
//   Both also take {"opening_rule": "rif", "opening_actions": "Place(h8)
//   Place(h9) Place(i10) Swap ..."} (rules/opening.h: rules and action
//   syntax) instead of "moves": the actions replay under the rule (a 400
//   names the first one it refuses) and the answer gains "opening":
//     {"rule", "actions", "done", "expectation", "to_act" ("first" or
//      "second"), "color" (the colour the actor holds now), "black_player",
//      "allows": ["Place", "Swap", "KeepColours", "DeclareCount",
//      "OfferFifth", "ChooseFifth"] (those allowed now), "offer_count",
//      "offered": [...]}
//   and /api/suggest asks the model for the next action (not for a finished
//   opening): "opening" then holds "advice": {"action" ("Swap",
//   "OfferFifth(j9 g7)", ...), "kind", "points", "count", "player",
//   "color", "value", "black_score", "candidates": [{"point",
//   "black_score"}], "visits", "model_generation"}; scores are win - loss,
//   -1..1 (inference.proto, OpeningSuggestion).
//
// Moves are in play order from the empty board, separated by spaces or
// commas ("pass" passes). Win, draw and loss are for the side to move. A
// budget above the server's limit is lowered to the limit, and "budget"
// says what the search was given. Forbidden points are listed when black
// is to move under renju and the game is not over.
#ifndef RENJU_INFERENCE_HTTP_API_H_
#define RENJU_INFERENCE_HTTP_API_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "proto/config.pb.h"
#include "proto/inference.pb.h"
#include "rules/game.h"
#include "rules/opening.h"

namespace renju {

// A request the API refuses: HTTP 400 with {"error": message, "field":
// field}. `field` is the request's field at fault, or "" for the body as a
// whole.
struct HttpApiError {
  std::string field;
  std::string message;
};

// A checked request body: the game its moves make (not over for a
// suggestion) or its opening's stones, the opening when it names a rule,
// and, for /api/suggest, the service's request.
struct HttpApiRequest {
  Game game;
  std::optional<OpeningState> opening;
  pb::SuggestRequest suggest;
};

// The largest request body the API reads, in bytes: room for a full
// board's moves and every field, many times over.
constexpr size_t kMaxHttpBodyBytes = 16384;

// Parses and checks a /api/position body; `size` is the served board size.
// Returns false and sets `error` on bad input: malformed JSON, not an
// object, an unknown field, a field of the wrong type, an unknown rule, a
// bad move token, an illegal move, moves after the end. A forbidden move by
// black ends the game (white wins, RULES.md §4), as the rules core plays it.
bool ParsePositionRequest(const std::string& body, int size,
                          HttpApiRequest& out, HttpApiError& error);

// As ParsePositionRequest for a /api/suggest body, which may also hold the
// budget (visits, time_ms, candidates: non-negative integers, 0 for the
// server's default, lowered to `server`'s limits) and must leave the game
// going: a forbidden move in it is refused, naming it.
bool ParseSuggestRequest(const std::string& body, int size,
                         const pb::ServerConfig& server, HttpApiRequest& out,
                         HttpApiError& error);

// A position's fields. Non-const: the forbidden-point test probes the
// board (and restores it).
nlohmann::ordered_json PositionJson(Game& game);

// The answer to /api/position: PositionJson(request.game), with "opening"
// when the request named an opening rule.
nlohmann::ordered_json PositionJson(HttpApiRequest& request);

// The answer to /api/suggest: PositionJson(request) with the suggestion;
// for an opening, the position and "opening" with its "advice".
nlohmann::ordered_json SuggestJson(HttpApiRequest& request,
                                   const pb::SuggestResponse& response);

nlohmann::ordered_json ErrorJson(const HttpApiError& error);

}  // namespace renju

#endif  // RENJU_INFERENCE_HTTP_API_H_
