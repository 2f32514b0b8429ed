// The JSON bodies of `renju serve --http` (inference/http_api.h), the one
// parser there that anyone on the network reaches: each input as a
// /api/position and as a /api/suggest body. An accepted body gives a game
// whose answer serializes; a suggestion's budget is within the server's
// limits and its game is going on; a refusal's message serializes, bad
// UTF-8 in it included.
#include <string>

#include "inference/http_api.h"
#include "tests/fuzz/fuzz_util.h"

namespace renju::fuzz {
namespace {

void Dump(const nlohmann::ordered_json& json) {
  json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void CheckBody(const std::string& body) {
  HttpApiRequest request;
  HttpApiError error;
  if (ParsePositionRequest(body, kRenjuBoardSize, request, error)) {
    RENJU_CHECK(request.game.ply() == request.suggest.position().moves_size());
    Dump(PositionJson(request));
  } else {
    Dump(ErrorJson(error));
  }

  pb::ServerConfig server;
  server.set_max_visits(1000);
  server.set_max_time_ms(2000);
  server.set_max_candidates(20);
  HttpApiRequest suggest;
  if (ParseSuggestRequest(body, kRenjuBoardSize, server, suggest, error)) {
    RENJU_CHECK(!suggest.game.over());
    RENJU_CHECK(suggest.suggest.visits() >= 0 &&
                suggest.suggest.visits() <= server.max_visits());
    RENJU_CHECK(suggest.suggest.time_ms() >= 0 &&
                suggest.suggest.time_ms() <= server.max_time_ms());
    RENJU_CHECK(suggest.suggest.num_candidates() >= 0 &&
                suggest.suggest.num_candidates() <= server.max_candidates());
  } else {
    Dump(ErrorJson(error));
  }
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  renju::fuzz::CheckBody(std::string(renju::fuzz::AsText(data, size)));
  return 0;
}
