// The inference server as a process (`renju serve`): the service of
// inference_service.h on a gRPC port with the standard health service,
// serving a checkpoint or the trainer's best model and switching to each
// new best as the trainer registers it; optionally the board page and its
// JSON API over HTTP as well, with the server's Prometheus metrics at
// /metrics (behind the token, as the API is). Prints "listening on HOST:PORT"
// once it serves (then "http on http://HOST:PORT/" with HTTP), so a launcher or
// test can ask for port 0 and read the port back.
#ifndef RENJU_INFERENCE_INFERENCE_SERVER_H_
#define RENJU_INFERENCE_INFERENCE_SERVER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "proto/config.pb.h"
#include "rpc/rpc.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace renju {

struct InferenceServerOptions {
  // Exactly one of the two: a checkpoint, or the trainer whose best model
  // to serve (trainer.address empty: none).
  std::string model;
  ChannelOptions trainer;
  std::string model_dir = "serve-models";  // models fetched from the trainer
  std::string listen = "127.0.0.1:50052";  // port 0: any free port
  std::string address_file;  // also gets the bound HOST:PORT; empty: none
  ServerTlsOptions tls;
  std::string token;  // required from clients (gRPC and HTTP); empty: none
  // HOST:PORT of the board page and its JSON API (http_frontend.h, and the
  // record files' /api/records, records/record_api.h); port 0: any free
  // port; empty: no HTTP. HTTPS with `tls`'s certificate and key (its
  // client CA applies to gRPC only).
  std::string http_listen;
  // Other pages beside the board on the HTTP side (HttpFrontendOptions::
  // add_routes), e.g. a run's page; optional.
  std::function<void(httplib::Server&)> http_routes;
  uint64_t seed = 1;  // of the searches' randomness
};

// Serves until SIGINT or SIGTERM (it installs handlers for both); OK after
// such a stop. CANCELLED when stopped before the trainer had a model.
absl::Status RunInferenceServer(const pb::RunConfig& config,
                                const InferenceServerOptions& options);

}  // namespace renju

#endif  // RENJU_INFERENCE_INFERENCE_SERVER_H_
