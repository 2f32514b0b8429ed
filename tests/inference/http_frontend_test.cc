// The HTTP side of the inference server (`renju serve --http`) over
// loopback: the page, /api/position, /api/suggest through the served
// service, and every kind of bad request getting a 400 that names the field
// while the server keeps serving.
#include "inference/http_frontend.h"

#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "inference/http_api.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using Json = nlohmann::json;
using testing::InferenceServiceTest;

class HttpFrontendTest : public InferenceServiceTest {
 protected:
  // The gRPC service of the fixture with the HTTP side in front of it.
  void StartHttp(const std::string& token = "") {
    StartWithModel1();
    absl::StatusOr<std::unique_ptr<HttpFrontend>> http = HttpFrontend::Start(
        config_, server_->InProcessChannel(grpc::ChannelArguments()),
        {"127.0.0.1:0", token});
    ASSERT_TRUE(http.ok()) << http.status();
    http_ = *std::move(http);
    client_ = std::make_unique<httplib::Client>("127.0.0.1", http_->port());
    client_->set_read_timeout(60, 0);
  }

  void TearDown() override {
    if (http_) http_->Stop();
    InferenceServiceTest::TearDown();
  }

  // POSTs `body`; the status and the parsed JSON answer.
  int Post(const std::string& path, const std::string& body, Json& answer,
           const httplib::Headers& headers = {}) {
    httplib::Result result =
        client_->Post(path.c_str(), headers, body, "application/json");
    if (!result) {
      ADD_FAILURE() << path << ": " << httplib::to_string(result.error());
      return -1;
    }
    answer = Json::parse(result->body, nullptr, false);
    EXPECT_FALSE(answer.is_discarded()) << result->body;
    return result->status;
  }

  std::unique_ptr<HttpFrontend> http_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(HttpFrontendTest, ServesThePage) {
  StartHttp();
  httplib::Result page = client_->Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("<svg id=\"board\""), std::string::npos);
  for (const char* file : {"/board.js", "/style.css", "/index.html"}) {
    httplib::Result asset = client_->Get(file);
    ASSERT_TRUE(asset) << file;
    EXPECT_EQ(asset->status, 200) << file;
    EXPECT_FALSE(asset->body.empty()) << file;
  }
  httplib::Result missing = client_->Get("/nothing-here");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_NE(missing->body.find("no page /nothing-here"), std::string::npos);
}

TEST_F(HttpFrontendTest, PositionListsBlacksForbiddenPoints) {
  StartHttp();
  Json answer;
  ASSERT_EQ(Post("/api/position", R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15"})",
                 answer),
            200)
      << answer;
  EXPECT_EQ(answer["to_move"], "black");
  EXPECT_EQ(answer["ply"], 8);
  EXPECT_EQ(answer["result"], "ongoing");
  EXPECT_EQ(answer["forbidden"],
            Json::parse(R"([{"point": "i8", "kind": "double-three"}])"));

  // White to move: no forbidden points. Freestyle: none either.
  ASSERT_EQ(
      Post("/api/position", R"({"moves": "g8 a1 h8 o1 i9 a15 i10"})", answer),
      200);
  EXPECT_TRUE(answer["forbidden"].empty()) << answer;
  ASSERT_EQ(Post("/api/position",
                 R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15",
                     "rule": "freestyle"})",
                 answer),
            200);
  EXPECT_TRUE(answer["forbidden"].empty()) << answer;

  // A five ends the game, and the answer says so.
  ASSERT_EQ(Post("/api/position", R"({"moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8"})",
                 answer),
            200);
  EXPECT_EQ(answer["result"], "black");
  EXPECT_EQ(answer["end_reason"], "five");
}

TEST_F(HttpFrontendTest, SuggestIsTheServicesSearch) {
  StartHttp();
  Json answer;
  ASSERT_EQ(Post("/api/suggest",
                 R"({"moves": "h8 h9 i10", "rule": "renju", "visits": 24,
                     "candidates": 3})",
                 answer),
            200)
      << answer;
  EXPECT_EQ(answer["visits"], 24);
  EXPECT_EQ(answer["model_generation"], 1);
  EXPECT_EQ(answer["to_move"], "white");
  const float sum = answer["win"].get<float>() + answer["draw"].get<float>() +
                    answer["loss"].get<float>();
  EXPECT_NEAR(sum, 1.0f, 1e-3);
  ASSERT_EQ(answer["candidates"].size(), 3u);
  EXPECT_EQ(answer["candidates"][0]["move"], answer["best_move"]);
  EXPECT_EQ(answer["pv"][0], answer["best_move"]);
  int previous_visits = 1 << 30;
  for (const Json& c : answer["candidates"]) {
    for (const char* key : {"move", "visits", "win", "draw", "loss", "prior"}) {
      EXPECT_TRUE(c.contains(key)) << key << " in " << c;
    }
    // Each candidate's line starts with its own move.
    ASSERT_FALSE(c["pv"].empty()) << c;
    EXPECT_EQ(c["pv"][0], c["move"]);
    EXPECT_LE(c["visits"].get<int>(), previous_visits);
    previous_visits = c["visits"].get<int>();
  }
}

TEST_F(HttpFrontendTest, ABudgetOverTheLimitGetsTheLimit) {
  config_.mutable_server()->set_max_visits(40);
  config_.mutable_server()->set_max_candidates(4);
  StartHttp();
  Json answer;
  ASSERT_EQ(Post("/api/suggest",
                 R"({"moves": "h8", "visits": 1000000000, "candidates": 99})",
                 answer),
            200)
      << answer;
  EXPECT_EQ(answer["budget"]["visits"], 40);
  EXPECT_EQ(answer["budget"]["candidates"], 4);
  EXPECT_EQ(answer["visits"], 40);
  EXPECT_LE(answer["candidates"].size(), 4u);
}

TEST_F(HttpFrontendTest, EveryBadRequestIs400NamingTheField) {
  StartHttp();
  struct Case {
    const char* path;
    std::string body;
    const char* field;
    const char* reason;  // a part of the message
  };
  const std::vector<Case> cases = {
      {"/api/suggest", R"({"moves": "h8",)", "", "malformed JSON at byte"},
      {"/api/suggest", "", "", "malformed JSON"},
      {"/api/suggest", R"(["h8"])", "", "must be a JSON object"},
      {"/api/suggest", R"({"moves": "h8", "visit": 10})", "visit",
       "unknown field \"visit\""},
      {"/api/position", R"({"moves": "h8", "visits": 10})", "visits",
       "unknown field"},
      {"/api/suggest", R"({"moves": ["h8"]})", "moves", "expected a string"},
      {"/api/suggest", R"({"rule": "gomoku"})", "rule", "gomoku"},
      {"/api/suggest", R"({"moves": "h8 z3"})", "moves", "'z3'"},
      {"/api/suggest", R"({"moves": "h8 h8"})", "moves", "occupied"},
      {"/api/position", R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8"})",
       "moves", "move 9 (i8) is forbidden for black (double-three)"},
      {"/api/suggest", R"({"moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8"})", "moves",
       "already over"},
      {"/api/suggest", R"({"moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8 a5"})", "moves",
       "after the end of the game"},
      {"/api/suggest", R"({"moves": "h8", "visits": -5})", "visits",
       "non-negative integer"},
      {"/api/suggest", R"({"moves": "h8", "time_ms": 1.5})", "time_ms",
       "non-negative integer"},
      {"/api/suggest", R"({"moves": "h8", "candidates": "3"})", "candidates",
       "non-negative integer"},
      {"/api/suggest",
       R"({"moves": ")" + std::string(kMaxHttpBodyBytes, ' ') + R"("})", "",
       "over the limit of 16384 bytes"},
  };
  for (const Case& c : cases) {
    Json answer;
    EXPECT_EQ(Post(c.path, c.body, answer), 400) << c.body.substr(0, 80);
    EXPECT_EQ(answer["field"], c.field) << answer;
    EXPECT_NE(answer["error"].get<std::string>().find(c.reason),
              std::string::npos)
        << c.reason << " not in " << answer;
  }
  // The server kept serving.
  Json answer;
  EXPECT_EQ(Post("/api/suggest", R"({"moves": "h8", "visits": 8})", answer),
            200)
      << answer;
}

TEST_F(HttpFrontendTest, TheApiNeedsTheTokenThePageDoesNot) {
  StartHttp("s3cret");
  httplib::Result page = client_->Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  const std::string body = R"({"moves": "h8", "visits": 8})";
  Json answer;
  EXPECT_EQ(Post("/api/suggest", body, answer), 401);
  EXPECT_NE(answer["error"].get<std::string>().find("Bearer"),
            std::string::npos);
  EXPECT_EQ(
      Post("/api/position", body, answer, {{"Authorization", "Bearer wrong"}}),
      401);
  EXPECT_EQ(
      Post("/api/suggest", body, answer, {{"Authorization", "Bearer s3cret"}}),
      200)
      << answer;
}

}  // namespace
}  // namespace renju
