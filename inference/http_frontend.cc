#include "inference/http_frontend.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/error_field.h"
#include "base/logging.h"
#include "http/http_server.h"
#include "inference/http_api.h"
#include "rpc/bearer_token.h"

namespace renju {
namespace {

constexpr char kJson[] = "application/json";

void ReplyError(httplib::Response& response, int status,
                const HttpApiError& error) {
  ReplyJsonError(response, status, error.field, error.message);
}

// The same words as httplib's own refusal (SetUpJsonServer).
HttpApiError BodyTooLarge(size_t limit) {
  return {"", absl::StrCat("the request body is over the limit of ", limit,
                           " bytes")};
}

// The HTTP status of a failed Suggest.
int HttpStatusOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    case absl::StatusCode::kResourceExhausted:
      return 429;  // server.max_searches(_per_client)
    case absl::StatusCode::kCancelled:
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

// The JSON API's name (http_api.h) of the SuggestRequest field a Suggest
// error names (MoveSuggester::Suggest).
std::string JsonFieldOf(const absl::Status& status) {
  const std::string field = ErrorField(status);
  if (field == "position") return "moves";
  if (field == "position.variant") return "rule";
  if (field == "num_candidates") return "candidates";
  return field;  // visits, time_ms, opening_rule, opening_actions
}

// "application/json", any case, with or without parameters such as
// "; charset=utf-8".
bool IsJsonContentType(const std::string& value) {
  const std::string type(absl::StripAsciiWhitespace(
      absl::string_view(value).substr(0, value.find(';'))));
  return absl::EqualsIgnoreCase(type, kJson);
}

}  // namespace

HttpFrontend::HttpFrontend(const pb::RunConfig& config,
                           MoveSuggester& suggester,
                           const HttpFrontendOptions& options)
    : config_(config), options_(options), suggester_(suggester) {}

absl::StatusOr<std::unique_ptr<HttpFrontend>> HttpFrontend::Start(
    const pb::RunConfig& config, MoveSuggester& suggester,
    const HttpFrontendOptions& options) {
  std::unique_ptr<HttpFrontend> frontend(
      new HttpFrontend(config, suggester, options));
  absl::StatusOr<std::unique_ptr<httplib::Server>> server = MakeHttpServer(
      {options.tls_cert_chain, options.tls_private_key}, "serve --http");
  if (!server.ok()) return server.status();
  frontend->AddRoutes(**server);
  absl::StatusOr<std::unique_ptr<HttpListener>> listener =
      HttpListener::Start(*std::move(server), options.listen, "serve --http");
  if (!listener.ok()) return listener.status();
  frontend->listener_ = *std::move(listener);
  return frontend;
}

HttpFrontend::~HttpFrontend() { Stop(); }

int HttpFrontend::port() const { return listener_->port(); }

void HttpFrontend::Stop() {
  stopping_ = true;
  if (listener_) listener_->Stop();
}

size_t HttpFrontend::suggestions_in_flight() { return suggestions_in_flight_; }

bool HttpFrontend::Authorized(const httplib::Request& request) const {
  return options_.token.empty() ||
         BearerTokenMatches(request.get_header_value("Authorization"),
                            options_.token);
}

size_t HttpFrontend::BodyLimit(const std::string& path) const {
  const auto limit = options_.body_limits.find(path);
  return limit == options_.body_limits.end()
             ? kMaxHttpBodyBytes
             : std::max(limit->second, kMaxHttpBodyBytes);
}

bool HttpFrontend::RefusedBeforeRouting(const httplib::Request& request,
                                        httplib::Response& response) const {
  const bool metrics = request.path == "/metrics";
  if (!absl::StartsWith(request.path, "/api/") && !metrics) {
    return false;
  }
  if (!Authorized(request)) {
    ReplyError(response, 401,
               {"", absl::StrCat("missing or wrong \"Authorization: Bearer "
                                 "<token>\" header (",
                                 metrics ? "a Prometheus scrape config sets it "
                                           "with authorization: "
                                           "credentials_file"
                                         : "open the page as /#token=<token>",
                                 ")")});
    return true;
  }
  if (request.method == "POST" &&
      !IsJsonContentType(request.get_header_value("Content-Type"))) {
    ReplyError(
        response, 415,
        {"", absl::StrCat("the body must be sent with "
                          "\"Content-Type: application/json\", "
                          "not \"",
                          request.get_header_value("Content-Type"), "\"")});
    return true;
  }
  size_t length = 0;
  if (request.method == "POST" && request.has_header("Content-Length") &&
      absl::SimpleAtoi(request.get_header_value("Content-Length"), &length) &&
      length > BodyLimit(request.path)) {
    ReplyError(response, 400, BodyTooLarge(BodyLimit(request.path)));
    return true;
  }
  return false;
}

void HttpFrontend::AddRoutes(httplib::Server& server) {
  // httplib has one limit for every route: the largest, and each path's
  // own is checked here, from the body's stated length before httplib
  // reads it, and in the handlers for a body sent without one (chunked).
  size_t largest = kMaxHttpBodyBytes;
  for (const auto& [path, limit] : options_.body_limits) {
    largest = std::max(largest, limit);
  }
  SetUpJsonServer(server, "serve --http", largest);
  server.set_pre_routing_handler(
      [this](const httplib::Request& request, httplib::Response& response) {
        return RefusedBeforeRouting(request, response)
                   ? httplib::Server::HandlerResponse::Handled
                   : httplib::Server::HandlerResponse::Unhandled;
      });
  server.Post("/api/position", [this](const httplib::Request& request,
                                      httplib::Response& response) {
    HandlePosition(request, response);
  });
  server.Post("/api/suggest", [this](const httplib::Request& request,
                                     httplib::Response& response) {
    HandleSuggest(request, response);
  });
  // Other pages' routes (a run page) and the metrics before the catch-all
  // page route.
  if (options_.add_routes) options_.add_routes(server);
  if (options_.metrics != nullptr) ServeMetrics(server, *options_.metrics);
  ServeWebPages(server, "/index.html");
}

void HttpFrontend::HandlePosition(const httplib::Request& request,
                                  httplib::Response& response) const {
  if (request.body.size() > kMaxHttpBodyBytes) {
    ReplyError(response, 400, BodyTooLarge(kMaxHttpBodyBytes));
    return;
  }
  HttpApiRequest parsed;
  HttpApiError error;
  if (!ParsePositionRequest(request.body, config_.board_size(), parsed,
                            error)) {
    ReplyError(response, 400, error);
    return;
  }
  ReplyJson(response, 200, PositionJson(parsed));
}

void HttpFrontend::HandleSuggest(const httplib::Request& request,
                                 httplib::Response& response) {
  if (request.body.size() > kMaxHttpBodyBytes) {
    ReplyError(response, 400, BodyTooLarge(kMaxHttpBodyBytes));
    return;
  }
  HttpApiRequest parsed;
  HttpApiError error;
  if (!ParseSuggestRequest(request.body, config_.board_size(), config_.server(),
                           parsed, error)) {
    ReplyError(response, 400, error);
    return;
  }
  // A visits budget has no time of its own; the server's time limit bounds
  // it, and the search stops before the deadline.
  const int64_t budget_ms = parsed.suggest.time_ms() > 0
                                ? parsed.suggest.time_ms()
                                : config_.server().max_time_ms();
  SuggestStop stop;
  stop.deadline = absl::Now() + absl::Milliseconds(budget_ms) +
                  absl::FromChrono(kSuggestDeadlineSlack);
  stop.cancelled = [this] { return stopping_.load(); };
  if (stopping_) {
    ReplyError(response, 503, {"", "the server is shutting down"});
    return;
  }
  ++suggestions_in_flight_;
  const absl::StatusOr<pb::SuggestResponse> suggestion = suggester_.Suggest(
      parsed.suggest, absl::StrCat("http:", request.remote_addr), stop);
  --suggestions_in_flight_;
  if (absl::IsCancelled(suggestion.status())) {
    ReplyError(response, 503,
               {"", "the search was cancelled: the server is shutting down"});
    return;
  }
  if (!suggestion.ok()) {
    ReplyError(response, HttpStatusOf(suggestion.status()),
               {JsonFieldOf(suggestion.status()),
                std::string(suggestion.status().message())});
    return;
  }
  ReplyJson(response, 200, SuggestJson(parsed, *suggestion));
}

}  // namespace renju
