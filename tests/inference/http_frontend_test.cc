// The HTTP side of the inference server (`renju serve --http`) over
// loopback: the page, /api/position, /api/suggest through the served
// service, and every kind of bad request getting a 400 that names the field
// while the server keeps serving.
#include "inference/http_frontend.h"

#include <httplib.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "base/notification.h"
#include "gtest/gtest.h"
#include "http/http_server.h"
#include "inference/http_api.h"
#include "tests/common/tls.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testing::InferenceServiceTest;

class HttpFrontendTest : public InferenceServiceTest {
 protected:
  // The gRPC service of the fixture with the HTTP side in front of it.
  void StartHttp(const std::string& token = "") {
    HttpFrontendOptions options;
    options.token = token;
    StartHttp(options);
  }

  void StartHttp(HttpFrontendOptions options) {
    StartWithModel1();
    options.listen = "127.0.0.1:0";
    absl::StatusOr<std::unique_ptr<HttpFrontend>> http =
        HttpFrontend::Start(config_, service_->suggester(), options);
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
    return PostAs(path, body, "application/json", answer, headers);
  }

  int PostAs(const std::string& path, const std::string& body,
             const std::string& content_type, Json& answer,
             const httplib::Headers& headers = {}) {
    httplib::Result result =
        client_->Post(path.c_str(), headers, body, content_type.c_str());
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
  EXPECT_EQ(answer["size"], 15);
  EXPECT_FALSE(answer.contains("forbidden_move")) << answer;
}

// The rules core's verdict on a forbidden move, which the page shows and a
// saved game that ended so reads back with: white wins.
TEST_F(HttpFrontendTest, PositionEndsOnAForbiddenMove) {
  StartHttp();
  Json answer;
  ASSERT_EQ(Post("/api/position",
                 R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8"})", answer),
            200)
      << answer;
  EXPECT_EQ(answer["ply"], 9);
  EXPECT_EQ(answer["result"], "white");
  EXPECT_EQ(answer["end_reason"], "forbidden move");
  EXPECT_EQ(answer["forbidden_move"],
            Json::parse(R"({"point": "i8", "kind": "double-three"})"));
  EXPECT_TRUE(answer["forbidden"].empty()) << answer;
  // Under freestyle the same point is an ordinary move.
  ASSERT_EQ(Post("/api/position",
                 R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8",
                     "rule": "freestyle"})",
                 answer),
            200);
  EXPECT_EQ(answer["result"], "ongoing");
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

// Under an opening rule the page asks what the rule wants next and the
// model's advice: after Taraguchi-10's first stone the second player may
// swap, and the model says whether to, with black's score behind it.
TEST_F(HttpFrontendTest, AnOpeningsNextActionAndTheModelsAdvice) {
  StartHttp();
  Json answer;
  ASSERT_EQ(Post("/api/position",
                 R"j({"opening_rule": "taraguchi10",
                     "opening_actions": "Place(h8)"})j",
                 answer),
            200)
      << answer;
  EXPECT_EQ(answer["moves"], Json::parse(R"(["h8"])"));
  EXPECT_EQ(answer["opening"]["rule"], "taraguchi10");
  EXPECT_EQ(answer["opening"]["done"], false);
  EXPECT_EQ(answer["opening"]["to_act"], "second");
  EXPECT_EQ(answer["opening"]["color"], "white");
  EXPECT_EQ(answer["opening"]["allows"],
            Json::parse(R"(["Swap", "KeepColours"])"));
  EXPECT_FALSE(answer["opening"].contains("advice")) << answer;

  ASSERT_EQ(Post("/api/suggest",
                 R"j({"opening_rule": "taraguchi10",
                     "opening_actions": "Place(h8)", "visits": 8})j",
                 answer),
            200)
      << answer;
  const Json& advice = answer["opening"]["advice"];
  EXPECT_TRUE(advice["kind"] == "Swap" || advice["kind"] == "KeepColours")
      << advice;
  EXPECT_EQ(advice["action"], advice["kind"]);
  EXPECT_EQ(advice["player"], "second");
  EXPECT_EQ(advice["model_generation"], 1);
  EXPECT_GT(advice["visits"].get<int>(), 0);
  const float black_score = advice["black_score"].get<float>();
  EXPECT_GE(black_score, -1.0f);
  EXPECT_LE(black_score, 1.0f);
  // The better colour is the one taken: black's score when swapping.
  EXPECT_EQ(advice["kind"] == "Swap", black_score > 0) << advice;

  // A finished opening has no next action to advise on.
  ASSERT_EQ(Post("/api/position",
                 R"j({"opening_rule": "swap1",
                     "opening_actions": "Place(c3) KeepColours"})j",
                 answer),
            200)
      << answer;
  EXPECT_EQ(answer["opening"]["done"], true);
  EXPECT_EQ(answer["to_move"], "white");
  EXPECT_EQ(answer["opening"]["allows"], Json::array());
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
      {"/api/position", R"({"moves": "h8", "visits": 1e999})", "",
       "a number in the body is out of range"},
      {"/api/suggest", R"(["h8"])", "", "must be a JSON object"},
      {"/api/suggest", R"({"moves": "h8", "visit": 10})", "visit",
       "unknown field \"visit\""},
      {"/api/position", R"({"moves": "h8", "visits": 10})", "visits",
       "unknown field"},
      {"/api/suggest", R"({"moves": ["h8"]})", "moves", "expected a string"},
      {"/api/suggest", R"({"rule": "gomoku"})", "rule", "gomoku"},
      {"/api/suggest", R"({"moves": "h8 z3"})", "moves", "'z3'"},
      {"/api/suggest", R"({"moves": "h8 h8"})", "moves", "occupied"},
      {"/api/suggest", R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8"})", "moves",
       "move 9 (i8) is forbidden for black (double-three)"},
      {"/api/position", R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8 a2"})",
       "moves", "after the end of the game"},
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
       R"j({"opening_rule": "rif",
           "opening_actions": "Place(h8) Place(h9) Place(a1)"})j",
       "opening_actions", "opening action 3 of 3 (Place(a1))"},
      {"/api/position",
       R"j({"opening_rule": "taraguchi10",
           "opening_actions": "Place(h8) Swap Swap"})j",
       "opening_actions", "opening action 3 of 3 (Swap)"},
      {"/api/suggest",
       R"j({"opening_rule": "rif", "opening_actions": "Jump"})j",
       "opening_actions", "Jump"},
      {"/api/suggest", R"j({"opening_rule": "rif", "moves": "h8"})j", "moves",
       "not both"},
      {"/api/suggest", R"j({"opening_actions": "Place(h8)"})j",
       "opening_actions", "opening_rule"},
      {"/api/position", R"j({"opening_rule": "pente"})j", "opening_rule",
       "pente"},
      {"/api/suggest",
       R"j({"opening_rule": "swap1", "opening_actions": "Place(c3) Swap"})j",
       "opening_actions", "instead"},
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

// A route given a larger limit (as `renju serve` gives /api/records for
// record files) takes bodies the API's own routes refuse; its limit holds,
// and the other routes keep theirs, whether the body states its length or
// comes chunked.
TEST_F(HttpFrontendTest, ARouteMayTakeLargerBodiesThanTheApi) {
  constexpr size_t kLarge = 256 * 1024;
  HttpFrontendOptions options;
  options.add_routes = [](httplib::Server& server) {
    server.Post("/api/large", [](const httplib::Request& request,
                                 httplib::Response& response) {
      ReplyJson(response, 200, {{"bytes", request.body.size()}});
    });
  };
  options.body_limits = {{"/api/large", kLarge}};
  StartHttp(options);

  const std::string big = R"({"text": ")" + std::string(100000, 'x') + R"("})";
  Json answer;
  ASSERT_EQ(Post("/api/large", big, answer), 200) << answer;
  EXPECT_EQ(answer["bytes"], big.size());

  const std::string huge = R"({"text": ")" + std::string(kLarge, 'x') + R"("})";
  ASSERT_EQ(Post("/api/large", huge, answer), 400);
  EXPECT_NE(answer["error"].get<std::string>().find("over the limit of 262144"),
            std::string::npos)
      << answer;

  for (const std::string path : {"/api/suggest", "/api/position"}) {
    ASSERT_EQ(Post(path, big, answer), 400) << path;
    EXPECT_NE(
        answer["error"].get<std::string>().find("over the limit of 16384"),
        std::string::npos)
        << answer;
    // Chunked: no stated length, so httplib reads it (up to the largest
    // limit) and the route refuses it.
    size_t sent = 0;
    httplib::Result chunked = client_->Post(
        path.c_str(),
        [&big, &sent](size_t offset, httplib::DataSink& sink) {
          const size_t n = std::min<size_t>(4096, big.size() - sent);
          sink.write(big.data() + sent, n);
          sent += n;
          if (sent == big.size()) sink.done();
          return true;
        },
        "application/json");
    ASSERT_TRUE(chunked) << path;
    EXPECT_EQ(chunked->status, 400) << chunked->body;
    EXPECT_NE(chunked->body.find("over the limit of 16384"), std::string::npos)
        << chunked->body;
  }
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
  // Near misses: a prefix, a longer token, one letter off.
  for (const char* wrong :
       {"Bearer s3cre", "Bearer s3cret2", "Bearer s3creT", "s3cret", ""}) {
    EXPECT_EQ(Post("/api/position", body, answer, {{"Authorization", wrong}}),
              401)
        << wrong;
  }
  EXPECT_EQ(
      Post("/api/suggest", body, answer, {{"Authorization", "Bearer s3cret"}}),
      200)
      << answer;
}

// Any web page may POST text/plain or a form to any address without asking
// (no CORS preflight); JSON it cannot send that way.
TEST_F(HttpFrontendTest, ThePostsMustSayTheyAreJson) {
  StartHttp();
  const std::string body = R"({"moves": "h8"})";
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", ""}) {
    Json answer;
    EXPECT_EQ(PostAs("/api/position", body, type, answer), 415) << type;
    EXPECT_NE(answer["error"].get<std::string>().find(
                  "Content-Type: application/json"),
              std::string::npos)
        << answer;
    EXPECT_EQ(PostAs("/api/suggest", body, type, answer), 415) << type;
  }
  Json answer;
  EXPECT_EQ(
      PostAs("/api/position", body, "Application/JSON; charset=utf-8", answer),
      200)
      << answer;
}

// HTTPS with the gRPC side's certificate and key (a self-signed pair for
// this test only, made with openssl(1)).
TEST_F(HttpFrontendTest, HttpsWithACertificateAndKey) {
  const fs::path tls =
      fs::temp_directory_path() / ("renju_https_" + std::to_string(::getpid()));
  fs::create_directories(tls);
  absl::StatusOr<testing::TestCertificate> pem =
      testing::MakeSelfSignedCertificate(tls);
  ASSERT_TRUE(pem.ok()) << pem.status();
  const std::string cert = pem->cert;
  const std::string key = pem->key;
  HttpFrontendOptions options;
  options.tls_cert_chain = cert;
  options.tls_private_key = key;
  StartHttp(options);

  httplib::SSLClient secure("127.0.0.1", http_->port());
  secure.set_ca_cert_path(cert.c_str());
  secure.enable_server_certificate_verification(true);
  httplib::Result page = secure.Get("/");
  ASSERT_TRUE(page) << httplib::to_string(page.error());
  EXPECT_EQ(page->status, 200);
  httplib::Result position =
      secure.Post("/api/position", R"({"moves": "h8"})", "application/json");
  ASSERT_TRUE(position);
  EXPECT_EQ(position->status, 200) << position->body;
  // Plain HTTP gets no page from it.
  httplib::Result plain = client_->Get("/");
  EXPECT_TRUE(!plain || plain->status != 200);

  // A key that is not the certificate's, or a missing file: a clear error.
  options.listen = "127.0.0.1:0";
  options.tls_private_key = (tls / "nope.pem").string();
  absl::StatusOr<std::unique_ptr<HttpFrontend>> bad =
      HttpFrontend::Start(config_, service_->suggester(), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("nope.pem"), std::string::npos)
      << bad.status();
  options.tls_private_key = "";
  bad = HttpFrontend::Start(config_, service_->suggester(), options);
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status())) << bad.status();
  fs::remove_all(tls);
}

// A visits budget with no time of its own ends by the server's time limit
// (the call's deadline), not by the visits.
TEST_F(HttpFrontendTest, ASuggestionEndsByTheServersTimeLimit) {
  config_.mutable_server()->set_max_visits(100000000);
  config_.mutable_server()->set_max_time_ms(100);
  StartHttp();
  const auto start = std::chrono::steady_clock::now();
  Json answer;
  ASSERT_EQ(Post("/api/suggest", R"({"moves": "h8 h9", "visits": 100000000})",
                 answer),
            200)
      << answer;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // A whole answer (200) short of the visits: the time limit stopped the
  // search. Only a hang reaches a minute, however busy the machine.
  EXPECT_LT(answer["visits"].get<int64_t>(), 100000000);
  EXPECT_LT(seconds, 60) << answer;
}

// Stop cancels a long search in flight instead of waiting for it.
TEST_F(HttpFrontendTest, StopCancelsTheSearchesInFlight) {
  config_.mutable_server()->set_max_visits(100000000);
  config_.mutable_server()->set_max_time_ms(600000);
  StartHttp();
  int status = 0;
  Json answer;
  std::thread request([&] {
    status =
        Post("/api/suggest", R"({"moves": "h8", "visits": 100000000})", answer);
  });
  const auto start = std::chrono::steady_clock::now();
  while (http_->suggestions_in_flight() == 0 &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(http_->suggestions_in_flight(), 1u);
  const auto stop = std::chrono::steady_clock::now();
  http_->Stop();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stop)
          .count();
  request.join();
  EXPECT_LT(seconds, 10);
  EXPECT_EQ(status, 503) << answer;
  EXPECT_NE(answer["error"].get<std::string>().find("shutting down"),
            std::string::npos)
      << answer;
}

// Each HTTP client counts on its own in the per-client search limit: while
// a search of this client's address holds its only slot, its next
// suggestion gets 429 at once.
TEST_F(HttpFrontendTest, ABusyClientGets429) {
  config_.mutable_server()->set_max_searches_per_client(1);
  config_.mutable_server()->set_max_visits(100000000);
  config_.mutable_server()->set_max_time_ms(600000);
  StartHttp();
  pb::SuggestRequest long_search =
      testing::SuggestFor(testing::MovesPosition({"h8", "h9"}), 0);
  long_search.set_time_ms(config_.server().max_time_ms());
  Notification started;
  std::atomic<bool> release{false};
  SuggestStop held;
  held.cancelled = [&] {
    if (!started.HasBeenNotified()) started.Notify();
    return release.load();
  };
  std::thread holder([&] {
    // The key the frontend gives a request from this test's address.
    (void)service_->suggester().Suggest(long_search, "http:127.0.0.1", held);
  });
  started.WaitForNotification();
  Json answer;
  EXPECT_EQ(Post("/api/suggest", R"({"moves": "h8", "visits": 4})", answer),
            429);
  EXPECT_EQ(answer["field"], "") << answer;
  EXPECT_NE(answer["error"].get<std::string>().find("max_searches_per_client"),
            std::string::npos)
      << answer;
  release = true;
  holder.join();
  EXPECT_EQ(Post("/api/suggest", R"({"moves": "h8", "visits": 4})", answer),
            200)
      << answer;
}

}  // namespace
}  // namespace renju
