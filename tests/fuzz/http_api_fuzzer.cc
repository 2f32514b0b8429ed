// The JSON bodies of `renju serve --http` (inference/http_api.h,
// records/record_api.h), the parsers there that anyone on the network
// reaches: each input as a /api/position, a /api/suggest, a /api/records
// and a /api/records/save body. An accepted body gives a game whose answer
// serializes; a suggestion's budget is within the server's limits and its
// game is going on; a saved text reads back as one game of the moves
// given; a refusal's message serializes, bad UTF-8 in it included.
#include <string>

#include "inference/http_api.h"
#include "records/record_api.h"
#include "records/record_text.h"
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

void CheckRecordBodies(const std::string& body) {
  Dump(RecordsJson(body).json);
  const RecordsAnswer saved = SaveRecordJson(body);
  Dump(saved.json);
  if (saved.status != 200) return;
  const std::string text = saved.json["text"].get<std::string>();
  absl::StatusOr<std::vector<GameRecord>> back =
      ReadRecordText(saved.json["name"].get<std::string>(), text);
  RENJU_CHECK(back.ok()) << back.status().message() << ": " << text;
  RENJU_CHECK(back->size() == 1) << text;
  const nlohmann::json request = nlohmann::json::parse(body);
  const int size = request.value("size", kRenjuBoardSize);
  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList(request.value("moves", ""), size);
  RENJU_CHECK(moves.ok());
  CheckSameMoves(*moves, (*back)[0].moves);
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(renju::fuzz::AsText(data, size));
  renju::fuzz::CheckBody(body);
  renju::fuzz::CheckRecordBodies(body);
  return 0;
}
