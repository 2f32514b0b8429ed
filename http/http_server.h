// What the project's HTTP servers share (the board's, inference/
// http_frontend.h, and the run page's, trainer/run_page.h), on Debian's
// cpp-httplib: JSON answers and errors, the compiled-in pages
// (web_assets.h), and an httplib::Server listening on its own thread.
#ifndef RENJU_HTTP_HTTP_SERVER_H_
#define RENJU_HTTP_HTTP_SERVER_H_

#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/metrics.h"

namespace renju {

// `body` as the answer, application/json. Never fails on bad UTF-8 (an
// error message may quote the client's own text).
void ReplyJson(httplib::Response& response, int status,
               const nlohmann::ordered_json& body);
// {"error": message, "field": field}; `field` is the request's field at
// fault, or "" for the request as a whole.
void ReplyJsonError(httplib::Response& response, int status,
                    const std::string& field, const std::string& message);

// GET routes for the compiled-in pages; "/" is `index_page` (a path such
// as "/index.html"). Anything else is a 404 in JSON.
void ServeWebPages(httplib::Server& server, const std::string& index_page);

// GET /metrics: `registry` rendered in Prometheus' text format
// (base/metrics.h). `registry` must outlive the server. Who may read it is
// the caller's rule (its pre-routing handler), as for its other routes.
void ServeMetrics(httplib::Server& server, const MetricsRegistry& registry);

// Sets what every JSON server here shares: bodies over `max_body_bytes`
// refused unread (400 naming the limit); httplib's own refusals (no route)
// and exceptions in handlers (500, logged with `server_name`) as JSON
// errors; keep-alive connections closed after a second idle, so a browser
// holding one open does not hold up Stop for long.
void SetUpJsonServer(httplib::Server& server, const std::string& server_name,
                     size_t max_body_bytes);

// "host:port" or "[v6]:port" -> host (brackets removed) and port (0: any
// free port). `flag` names the option in the error.
absl::Status SplitListenAddress(const std::string& listen,
                                const std::string& flag, std::string& host,
                                int& port);

// The PEM files of an HTTPS server; both empty: plain HTTP.
struct HttpTlsFiles {
  std::string cert_chain;
  std::string private_key;
};

// An httplib server: HTTPS (httplib::SSLServer, on Debian's OpenSSL) when
// `tls` names the files, else plain HTTP. INVALID_ARGUMENT naming the
// files (and `flag`) when only one is given or they do not load as a
// certificate chain and its key.
absl::StatusOr<std::unique_ptr<httplib::Server>> MakeHttpServer(
    const HttpTlsFiles& tls, const std::string& flag);

// "http" or "https", as `tls` makes the server.
std::string HttpScheme(const HttpTlsFiles& tls);

// An httplib::Server with its routes set, listening on a thread of its own
// until Stop.
class HttpListener {
 public:
  // UNAVAILABLE when it cannot listen; INVALID_ARGUMENT for a bad address.
  static absl::StatusOr<std::unique_ptr<HttpListener>> Start(
      std::unique_ptr<httplib::Server> server, const std::string& listen,
      const std::string& flag);
  ~HttpListener();  // Stop()

  int port() const { return port_; }
  // Stops listening and waits for the requests being handled. Idempotent.
  void Stop();

 private:
  explicit HttpListener(std::unique_ptr<httplib::Server> server)
      : server_(std::move(server)) {}

  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
  std::thread thread_;  // runs server_'s accept loop
};

// A plain HTTP server answering only GET /metrics (ServeMetrics), on
// `listen` (HOST:PORT; port 0: any free port): a process without an HTTP
// side of its own, such as a worker's `--metrics`. `flag` names the option
// in errors.
absl::StatusOr<std::unique_ptr<HttpListener>> StartMetricsListener(
    const MetricsRegistry& registry, const std::string& listen,
    const std::string& flag);

}  // namespace renju

#endif  // RENJU_HTTP_HTTP_SERVER_H_
