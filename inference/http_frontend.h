// The inference server's HTTP side (`renju serve --http ADDR`): the board
// page (web/, compiled in: web_assets.h) and the JSON API of http_api.h.
//
// Moving parts:
//   - an httplib::Server (Debian's libcpp-httplib) on a thread of its own,
//     with httplib's pool of handler threads;
//   - a gRPC stub on the served process's in-process channel: /api/suggest
//     is the service's own Suggest call (inference_service.h), with its
//     checks, limits, tree cache and hot-swapped model, not a copy of it.
//     /api/position needs no network and answers from rules/ directly.
//
// Every request under /api/ must carry "Authorization: Bearer <token>" when
// the server has a token; the page itself is public (it holds no secret and
// sends the token it is given in its address's #token=...). Bad input gets
// HTTP 400 with {"error": ..., "field": ...}; bodies over kMaxHttpBodyBytes
// are refused unread. Plain HTTP only: for other machines, put a TLS proxy
// in front.
#ifndef RENJU_INFERENCE_HTTP_FRONTEND_H_
#define RENJU_INFERENCE_HTTP_FRONTEND_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "proto/config.pb.h"
#include "proto/inference.grpc.pb.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace renju {

struct HttpFrontendOptions {
  std::string listen;  // HOST:PORT; port 0: any free port
  std::string token;   // required on /api/; empty: none
};

class HttpFrontend {
 public:
  // Listens on options.listen and serves until Stop. `config` must be valid
  // (its board size and `server` limits apply). `channel` reaches the
  // InferenceService (grpc::Server::InProcessChannel) and must stay usable
  // until Stop returns. UNAVAILABLE when it cannot listen.
  static absl::StatusOr<std::unique_ptr<HttpFrontend>> Start(
      const pb::RunConfig& config, std::shared_ptr<grpc::Channel> channel,
      const HttpFrontendOptions& options);
  // Stops, if Stop was not called.
  ~HttpFrontend();

  int port() const { return port_; }

  // Stops listening and waits for the requests being handled. Idempotent.
  void Stop();

 private:
  HttpFrontend(const pb::RunConfig& config,
               std::shared_ptr<grpc::Channel> channel,
               const HttpFrontendOptions& options);
  void AddRoutes();
  bool Authorized(const httplib::Request& request) const;
  void HandlePosition(const httplib::Request& request,
                      httplib::Response& response) const;
  void HandleSuggest(const httplib::Request& request,
                     httplib::Response& response) const;

  const pb::RunConfig config_;
  const HttpFrontendOptions options_;
  std::unique_ptr<pb::Inference::Stub> stub_;
  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
  std::thread thread_;  // runs server_'s accept loop
};

}  // namespace renju

#endif  // RENJU_INFERENCE_HTTP_FRONTEND_H_
