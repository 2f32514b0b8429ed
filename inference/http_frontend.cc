#include "inference/http_frontend.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "http/http_server.h"
#include "inference/http_api.h"
#include "inference/inference_service.h"
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
int HttpStatusOf(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      return 400;
    case grpc::StatusCode::UNAUTHENTICATED:
      return 401;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return 504;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return 429;  // server.max_searches(_per_client)
    case grpc::StatusCode::CANCELLED:
    case grpc::StatusCode::UNAVAILABLE:
      return 503;
    default:
      return 500;
  }
}

// The request field a Suggest's INVALID_ARGUMENT is about: the service
// prefixes position errors with "position: ", and names the budget field.
std::string FieldOf(const std::string& message) {
  if (absl::StartsWith(message, "position: ")) {
    return absl::StrContains(message, "trained for") ? "rule" : "moves";
  }
  if (absl::StartsWith(message, "visits")) return "visits";
  if (absl::StartsWith(message, "time_ms")) return "time_ms";
  if (absl::StartsWith(message, "num_candidates")) return "candidates";
  return "";
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
                           std::shared_ptr<grpc::Channel> channel,
                           const HttpFrontendOptions& options)
    : config_(config),
      options_(options),
      stub_(pb::Inference::NewStub(std::move(channel))) {}

absl::StatusOr<std::unique_ptr<HttpFrontend>> HttpFrontend::Start(
    const pb::RunConfig& config, std::shared_ptr<grpc::Channel> channel,
    const HttpFrontendOptions& options) {
  std::unique_ptr<HttpFrontend> frontend(
      new HttpFrontend(config, std::move(channel), options));
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
  {
    std::lock_guard<std::mutex> lock(calls_mutex_);
    stopping_ = true;
    for (grpc::ClientContext* context : calls_) context->TryCancel();
  }
  if (listener_) listener_->Stop();
}

bool HttpFrontend::BeginCall(grpc::ClientContext* context) {
  std::lock_guard<std::mutex> lock(calls_mutex_);
  if (stopping_) return false;
  calls_.insert(context);
  return true;
}

size_t HttpFrontend::suggestions_in_flight() {
  std::lock_guard<std::mutex> lock(calls_mutex_);
  return calls_.size();
}

void HttpFrontend::EndCall(grpc::ClientContext* context) {
  std::lock_guard<std::mutex> lock(calls_mutex_);
  calls_.erase(context);
}

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

void HttpFrontend::AddRoutes(httplib::Server& server) {
  // httplib has one limit for every route: the largest, and each path's
  // own is checked here, from the body's stated length before httplib
  // reads it, and in the handlers for a body sent without one (chunked).
  size_t largest = kMaxHttpBodyBytes;
  for (const auto& [path, limit] : options_.body_limits) {
    largest = std::max(largest, limit);
  }
  SetUpJsonServer(server, "serve --http", largest);
  server.set_pre_routing_handler([this](const httplib::Request& request,
                                        httplib::Response& response) {
    if (!absl::StartsWith(request.path, "/api/")) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    if (!Authorized(request)) {
      ReplyError(response, 401,
                 {"",
                  "missing or wrong \"Authorization: Bearer <token>\" "
                  "header (open the page as /#token=<token>)"});
      return httplib::Server::HandlerResponse::Handled;
    }
    if (request.method == "POST" &&
        !IsJsonContentType(request.get_header_value("Content-Type"))) {
      ReplyError(
          response, 415,
          {"", absl::StrCat("the body must be sent with "
                            "\"Content-Type: application/json\", "
                            "not \"",
                            request.get_header_value("Content-Type"), "\"")});
      return httplib::Server::HandlerResponse::Handled;
    }
    size_t length = 0;
    if (request.method == "POST" && request.has_header("Content-Length") &&
        absl::SimpleAtoi(request.get_header_value("Content-Length"), &length) &&
        length > BodyLimit(request.path)) {
      ReplyError(response, 400, BodyTooLarge(BodyLimit(request.path)));
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.Post("/api/position", [this](const httplib::Request& request,
                                      httplib::Response& response) {
    HandlePosition(request, response);
  });
  server.Post("/api/suggest", [this](const httplib::Request& request,
                                     httplib::Response& response) {
    HandleSuggest(request, response);
  });
  // Other pages' routes (a run page) before the catch-all page route.
  if (options_.add_routes) options_.add_routes(server);
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
  // The service's own call, token and all: it checks what gRPC clients get
  // checked. A visits budget has no time of its own; the server's time
  // limit bounds it, and the service's search stops before the deadline.
  grpc::ClientContext context;
  if (!options_.token.empty()) {
    context.AddMetadata("authorization", "Bearer " + options_.token);
  }
  if (!options_.frontend_secret.empty()) {
    context.AddMetadata(kFrontendSecretHeader, options_.frontend_secret);
    context.AddMetadata(kHttpClientHeader, request.remote_addr);
  }
  const int64_t budget_ms = parsed.suggest.time_ms() > 0
                                ? parsed.suggest.time_ms()
                                : config_.server().max_time_ms();
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(budget_ms) +
                       kSuggestDeadlineSlack);
  if (!BeginCall(&context)) {
    ReplyError(response, 503, {"", "the server is shutting down"});
    return;
  }
  pb::SuggestResponse suggestion;
  const grpc::Status status =
      stub_->Suggest(&context, parsed.suggest, &suggestion);
  EndCall(&context);
  if (status.error_code() == grpc::StatusCode::CANCELLED) {
    ReplyError(response, 503,
               {"", "the search was cancelled: the server is shutting down"});
    return;
  }
  if (!status.ok()) {
    ReplyError(response, HttpStatusOf(status),
               {FieldOf(status.error_message()), status.error_message()});
    return;
  }
  ReplyJson(response, 200, SuggestJson(parsed, suggestion));
}

}  // namespace renju
