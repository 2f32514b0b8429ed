#include "inference/http_frontend.h"

#include <httplib.h>

#include <chrono>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "inference/http_api.h"
#include "inference/web_assets.h"

namespace renju {
namespace {

constexpr char kJson[] = "application/json";

void Reply(httplib::Response& response, int status,
           const nlohmann::ordered_json& body) {
  response.status = status;
  // Messages quote the client's own text; never fail on bad UTF-8 in it.
  response.set_content(
      body.dump(-1, ' ', false,
                nlohmann::ordered_json::error_handler_t::replace),
      kJson);
}

void ReplyError(httplib::Response& response, int status,
                const HttpApiError& error) {
  Reply(response, status, ErrorJson(error));
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
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
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

const WebAsset* FindWebAsset(const std::string& path) {
  const std::string name = path == "/" ? "/index.html" : path;
  for (size_t i = 0; i < kNumWebAssets; ++i) {
    if (name == kWebAssets[i].path) return &kWebAssets[i];
  }
  return nullptr;
}

// "host:port" or "[v6]:port" -> host (brackets removed) and port.
absl::Status SplitListen(const std::string& listen, std::string& host,
                         int& port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--http: \"", listen, "\" is not HOST:PORT (port 0: any free port)"));
  }
  host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return absl::OkStatus();
}

}  // namespace

HttpFrontend::HttpFrontend(const pb::RunConfig& config,
                           std::shared_ptr<grpc::Channel> channel,
                           const HttpFrontendOptions& options)
    : config_(config),
      options_(options),
      stub_(pb::Inference::NewStub(std::move(channel))),
      server_(std::make_unique<httplib::Server>()) {}

absl::StatusOr<std::unique_ptr<HttpFrontend>> HttpFrontend::Start(
    const pb::RunConfig& config, std::shared_ptr<grpc::Channel> channel,
    const HttpFrontendOptions& options) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitListen(options.listen, host, port); !s.ok()) {
    return s;
  }
  std::unique_ptr<HttpFrontend> frontend(
      new HttpFrontend(config, std::move(channel), options));
  frontend->AddRoutes();
  httplib::Server& server = *frontend->server_;
  if (port == 0) {
    port = server.bind_to_any_port(host);
  } else if (!server.bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) {
    return absl::UnavailableError(
        absl::StrCat("serve --http: cannot listen on ", options.listen));
  }
  frontend->port_ = port;
  frontend->thread_ = std::thread([&server] { server.listen_after_bind(); });
  // httplib's stop() does nothing before the accept loop has started (its
  // first step), so a Stop right after Start would otherwise wait forever.
  while (!server.is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return frontend;
}

HttpFrontend::~HttpFrontend() { Stop(); }

void HttpFrontend::Stop() {
  if (!thread_.joinable()) return;
  server_->stop();
  thread_.join();
}

bool HttpFrontend::Authorized(const httplib::Request& request) const {
  return options_.token.empty() || request.get_header_value("Authorization") ==
                                       absl::StrCat("Bearer ", options_.token);
}

void HttpFrontend::AddRoutes() {
  httplib::Server& server = *server_;
  server.set_payload_max_length(kMaxHttpBodyBytes);
  server.set_pre_routing_handler(
      [this](const httplib::Request& request, httplib::Response& response) {
        if (!absl::StartsWith(request.path, "/api/") || Authorized(request)) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        ReplyError(response, 401,
                   {"",
                    "missing or wrong \"Authorization: Bearer <token>\" "
                    "header (open the page as /#token=<token>)"});
        return httplib::Server::HandlerResponse::Handled;
      });
  server.Get("/.*", [](const httplib::Request& request,
                       httplib::Response& response) {
    const WebAsset* asset = FindWebAsset(request.path);
    if (asset == nullptr) {
      ReplyError(response, 404, {"", absl::StrCat("no page ", request.path)});
      return;
    }
    response.set_header("Cache-Control", "no-cache");
    response.set_content(reinterpret_cast<const char*>(asset->bytes),
                         asset->size, asset->content_type);
  });
  server.Post("/api/position", [this](const httplib::Request& request,
                                      httplib::Response& response) {
    HandlePosition(request, response);
  });
  server.Post("/api/suggest", [this](const httplib::Request& request,
                                     httplib::Response& response) {
    HandleSuggest(request, response);
  });
  // httplib's own refusals (unknown route, a body over the limit) come
  // here without a body; the API's all read as JSON. httplib calls this for
  // every status from 400 up, the handlers' own answers too.
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request& request, httplib::Response& response) {
        if (!response.body.empty()) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        if (response.status == 413) {
          ReplyError(response, 400,
                     {"", absl::StrCat("the request body is over the limit of ",
                                       kMaxHttpBodyBytes, " bytes")});
        } else if (response.status == 404) {
          ReplyError(response, 404,
                     {"", absl::StrCat("no such page or API: ", request.method,
                                       " ", request.path)});
        } else {
          ReplyError(response, response.status,
                     {"", absl::StrCat("HTTP ", response.status)});
        }
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_exception_handler([](const httplib::Request& request,
                                  httplib::Response& response,
                                  std::exception_ptr) {
    RENJU_LOG(ERROR) << "serve --http: " << request.method << " "
                     << request.path << " failed with an exception";
    ReplyError(response, 500, {"", "internal error"});
  });
}

void HttpFrontend::HandlePosition(const httplib::Request& request,
                                  httplib::Response& response) const {
  HttpApiRequest parsed;
  HttpApiError error;
  if (!ParsePositionRequest(request.body, config_.board_size(), parsed,
                            error)) {
    ReplyError(response, 400, error);
    return;
  }
  Reply(response, 200, PositionJson(parsed.game));
}

void HttpFrontend::HandleSuggest(const httplib::Request& request,
                                 httplib::Response& response) const {
  HttpApiRequest parsed;
  HttpApiError error;
  if (!ParseSuggestRequest(request.body, config_.board_size(), config_.server(),
                           parsed, error)) {
    ReplyError(response, 400, error);
    return;
  }
  // The service's own call, token and all: it checks what gRPC clients get
  // checked. No deadline: the budget, within the server's limits, ends it.
  grpc::ClientContext context;
  if (!options_.token.empty()) {
    context.AddMetadata("authorization", "Bearer " + options_.token);
  }
  pb::SuggestResponse suggestion;
  const grpc::Status status =
      stub_->Suggest(&context, parsed.suggest, &suggestion);
  if (!status.ok()) {
    ReplyError(response, HttpStatusOf(status),
               {FieldOf(status.error_message()), status.error_message()});
    return;
  }
  Reply(response, 200, SuggestJson(parsed.game, parsed.suggest, suggestion));
}

}  // namespace renju
