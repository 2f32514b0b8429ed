#include "http/http_server.h"

#include <chrono>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "http/web_assets.h"

namespace renju {
namespace {

const WebAsset* FindWebAsset(const std::string& path) {
  for (size_t i = 0; i < kNumWebAssets; ++i) {
    if (path == kWebAssets[i].path) return &kWebAssets[i];
  }
  return nullptr;
}

}  // namespace

void ReplyJson(httplib::Response& response, int status,
               const nlohmann::ordered_json& body) {
  response.status = status;
  response.set_content(
      body.dump(-1, ' ', false,
                nlohmann::ordered_json::error_handler_t::replace),
      "application/json");
}

void ReplyJsonError(httplib::Response& response, int status,
                    const std::string& field, const std::string& message) {
  ReplyJson(response, status, {{"error", message}, {"field", field}});
}

void ServeWebPages(httplib::Server& server, const std::string& index_page) {
  server.Get("/.*", [index_page](const httplib::Request& request,
                                 httplib::Response& response) {
    const WebAsset* asset =
        FindWebAsset(request.path == "/" ? index_page : request.path);
    if (asset == nullptr) {
      ReplyJsonError(response, 404, "", absl::StrCat("no page ", request.path));
      return;
    }
    response.set_header("Cache-Control", "no-cache");
    response.set_content(reinterpret_cast<const char*>(asset->bytes),
                         asset->size, asset->content_type);
  });
}

void ServeMetrics(httplib::Server& server, const MetricsRegistry& registry) {
  server.Get("/metrics",
             [&registry](const httplib::Request&, httplib::Response& response) {
               response.set_content(registry.Render(), kMetricsContentType);
             });
}

void SetUpJsonServer(httplib::Server& server, const std::string& server_name,
                     size_t max_body_bytes) {
  server.set_payload_max_length(max_body_bytes);
  server.set_keep_alive_timeout(1);
  // httplib calls this for every status from 400 up, the handlers' own
  // answers too; those already have their JSON body.
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [max_body_bytes](const httplib::Request& request,
                       httplib::Response& response) {
        if (!response.body.empty()) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        if (response.status == 413) {
          ReplyJsonError(response, 400, "",
                         absl::StrCat("the request body is over the limit of ",
                                      max_body_bytes, " bytes"));
        } else if (response.status == 404) {
          ReplyJsonError(response, 404, "",
                         absl::StrCat("no such page or API: ", request.method,
                                      " ", request.path));
        } else {
          ReplyJsonError(response, response.status, "",
                         absl::StrCat("HTTP ", response.status));
        }
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_exception_handler([server_name](const httplib::Request& request,
                                             httplib::Response& response,
                                             std::exception_ptr) {
    RENJU_LOG(ERROR) << server_name << ": " << request.method << " "
                     << request.path << " failed with an exception";
    ReplyJsonError(response, 500, "", "internal error");
  });
}

absl::Status SplitListenAddress(const std::string& listen,
                                const std::string& flag, std::string& host,
                                int& port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, ": \"", listen, "\" is not HOST:PORT (port 0: any free port)"));
  }
  host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<httplib::Server>> MakeHttpServer(
    const HttpTlsFiles& tls, const std::string& flag) {
  if (tls.cert_chain.empty() && tls.private_key.empty()) {
    return std::make_unique<httplib::Server>();
  }
  if (tls.cert_chain.empty() || tls.private_key.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, ": HTTPS needs both a certificate chain and its private key"));
  }
  auto server = std::make_unique<httplib::SSLServer>(tls.cert_chain.c_str(),
                                                     tls.private_key.c_str());
  if (!server->is_valid()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": cannot load the certificate chain ",
                     tls.cert_chain, " and private key ", tls.private_key,
                     " for HTTPS (PEM files that belong together?)"));
  }
  return server;
}

std::string HttpScheme(const HttpTlsFiles& tls) {
  return tls.cert_chain.empty() ? "http" : "https";
}

absl::StatusOr<std::unique_ptr<HttpListener>> HttpListener::Start(
    std::unique_ptr<httplib::Server> server, const std::string& listen,
    const std::string& flag) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitListenAddress(listen, flag, host, port); !s.ok()) {
    return s;
  }
  std::unique_ptr<HttpListener> listener(new HttpListener(std::move(server)));
  httplib::Server& bound = *listener->server_;
  if (port == 0) {
    port = bound.bind_to_any_port(host);
  } else if (!bound.bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) {
    return absl::UnavailableError(
        absl::StrCat(flag, ": cannot listen on ", listen));
  }
  listener->port_ = port;
  listener->thread_ = std::thread([&bound] { bound.listen_after_bind(); });
  // httplib's stop() does nothing before the accept loop has started (its
  // first step), so a Stop right after Start would otherwise wait forever.
  while (!bound.is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return listener;
}

HttpListener::~HttpListener() { Stop(); }

void HttpListener::Stop() {
  if (!thread_.joinable()) return;
  server_->stop();
  thread_.join();
}

absl::StatusOr<std::unique_ptr<HttpListener>> StartMetricsListener(
    const MetricsRegistry& registry, const std::string& listen,
    const std::string& flag) {
  auto server = std::make_unique<httplib::Server>();
  // Prometheus sends no body; anything else is a JSON 404.
  SetUpJsonServer(*server, flag, 4096);
  ServeMetrics(*server, registry);
  return HttpListener::Start(std::move(server), listen, flag);
}

}  // namespace renju
