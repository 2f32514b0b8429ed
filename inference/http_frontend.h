// The inference server's HTTP side (`renju serve --http ADDR`): the board
// page (web/, compiled in: http/web_assets.h) and the JSON API of
// http_api.h.
//
// Moving parts:
//   - an httplib::Server (Debian's libcpp-httplib) on a thread of its own
//     (http/http_server.h), with httplib's pool of handler threads;
//   - /api/suggest is MoveSuggester::Suggest (move_suggester.h), the one
//     the gRPC service answers with: its checks, limits, tree cache and
//     hot-swapped model, not a copy of them. Each HTTP client (its address)
//     counts on its own in the per-client search limit. /api/position
//     needs no network and answers from rules/ directly.
//
// Every request under /api/, and GET /metrics (the server's Prometheus
// metrics, when the options give a registry), must carry "Authorization:
// Bearer <token>" when the server has a token; the page itself is public (it
// holds no secret and sends the token it is given in its address's #token=...).
// A POST to the API must say "Content-Type: application/json": a form or
// text/plain POST, which any web page may send to any address without asking
// (no CORS preflight), gets 415. Bad input gets HTTP 400 with {"error": ...,
// "field": ...}; bodies over kMaxHttpBodyBytes (or a larger limit the
// options give a path, e.g. /api/records for record files) get 400 too,
// unread when they say their length.
//
// Every suggestion has a deadline (its budget, or the server's time limit
// for a visits budget, plus kSuggestDeadlineSlack): the service's search
// stops in time for it. Stop cancels the searches in flight, so shutdown
// never waits for a long search. HTTPS with a certificate and key (the
// gRPC side's --tls-cert and --tls-key), else plain HTTP.
#ifndef RENJU_INFERENCE_HTTP_FRONTEND_H_
#define RENJU_INFERENCE_HTTP_FRONTEND_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "base/metrics.h"
#include "inference/move_suggester.h"
#include "proto/config.pb.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace renju {

class HttpListener;  // http/http_server.h

// Beyond a suggestion's budget, the time its answer may take to come back
// on a loaded machine before the call gives up.
inline constexpr std::chrono::seconds kSuggestDeadlineSlack{3};

struct HttpFrontendOptions {
  std::string listen;  // HOST:PORT; port 0: any free port
  std::string token;   // required on /api/ and /metrics; empty: none
  // Served at GET /metrics when set; must outlive the frontend.
  const MetricsRegistry* metrics = nullptr;
  // Adds other routes, e.g. a run's page (trainer/run_page.h); the token
  // applies to theirs under /api/ too. Optional.
  std::function<void(httplib::Server&)> add_routes;
  // Paths whose POST bodies may be larger than kMaxHttpBodyBytes, with
  // their limits (a record file to open is larger than any request of the
  // JSON API's own); optional.
  std::map<std::string, size_t> body_limits;
  // HTTPS with this certificate chain and key (PEM files); empty: HTTP.
  std::string tls_cert_chain;
  std::string tls_private_key;
};

class HttpFrontend {
 public:
  // Listens on options.listen and serves until Stop. `config` must be valid
  // (its board size and `server` limits apply). `suggester` answers
  // /api/suggest and must outlive the frontend. UNAVAILABLE when it cannot
  // listen.
  static absl::StatusOr<std::unique_ptr<HttpFrontend>> Start(
      const pb::RunConfig& config, MoveSuggester& suggester,
      const HttpFrontendOptions& options);
  // Stops, if Stop was not called.
  ~HttpFrontend();

  int port() const;
  // Suggestions being searched now.
  size_t suggestions_in_flight();

  // Stops listening, cancels the suggestions in flight (their requests get
  // 503) and waits for the requests being handled. Idempotent.
  void Stop();

 private:
  HttpFrontend(const pb::RunConfig& config, MoveSuggester& suggester,
               const HttpFrontendOptions& options);
  void AddRoutes(httplib::Server& server);
  bool Authorized(const httplib::Request& request) const;
  // Answers a request refused before its route (no token, a POST that is
  // not JSON, a body over its limit) and returns true; false lets it on.
  bool RefusedBeforeRouting(const httplib::Request& request,
                            httplib::Response& response) const;
  // The largest body `path` takes: kMaxHttpBodyBytes unless body_limits
  // says more.
  size_t BodyLimit(const std::string& path) const;
  void HandlePosition(const httplib::Request& request,
                      httplib::Response& response) const;
  void HandleSuggest(const httplib::Request& request,
                     httplib::Response& response);

  const pb::RunConfig config_;
  const HttpFrontendOptions options_;
  MoveSuggester& suggester_;
  std::unique_ptr<HttpListener> listener_;

  // Set by Stop: the suggestions in flight see it as their cancellation.
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> suggestions_in_flight_{0};
};

}  // namespace renju

#endif  // RENJU_INFERENCE_HTTP_FRONTEND_H_
