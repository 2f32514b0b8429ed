// gRPC plumbing shared by every client and server of the project: channels
// and server credentials (TLS when certificates are configured), bearer
// tokens (sent and checked), deadlines, server start-up and status
// conversion.
#ifndef RENJU_RPC_RPC_H_
#define RENJU_RPC_RPC_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace renju {

struct ChannelOptions {
  std::string address;          // HOST:PORT
  std::string tls_root_cert;    // PEM file; empty: plaintext (loopback)
  std::string tls_server_name;  // override for the certificate's name
  std::string token;            // sent as "authorization: Bearer <token>"
  // The client's own certificate chain and its private key (PEM files),
  // both or neither, and only with tls_root_cert: presented to a server
  // that requires client certificates (--tls-client-ca).
  std::string tls_cert;
  std::string tls_key;
  int64_t max_message_bytes = 64 << 20;
};

// Errors only for the TLS files ReadChannelTls (rpc/tls_files.h) refuses;
// connecting is lazy.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const ChannelOptions& options);

struct ServerTlsOptions {
  std::string cert_chain;   // PEM file; empty: plaintext
  std::string private_key;  // PEM file
  std::string client_ca;    // PEM file; set to require client certificates
};

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerTlsOptions& options);

// The one server-side token check: the call must carry "authorization:
// Bearer <token>" metadata with a token in `tokens` (token -> the name of
// its holder). Sets `*holder` and returns OK, or UNAUTHENTICATED when the
// metadata is missing or the token unknown.
grpc::Status CheckBearerToken(const grpc::ServerContext& context,
                              const std::map<std::string, std::string>& tokens,
                              std::string* holder);

struct ServerOptions {
  std::string name;    // "trainer", "serve": prefixes errors
  std::string listen;  // HOST:PORT; port 0: any free port
  std::shared_ptr<grpc::ServerCredentials>
      credentials;  // MakeServerCredentials
  int64_t max_receive_message_bytes = 64 << 20;
};

struct StartedServer {
  std::unique_ptr<grpc::Server> server;
  int port = 0;  // the bound port
};

// The one server start-up: enables the standard health service, listens,
// registers `services` (not owned; they must outlive the server) and
// starts. UNAVAILABLE when it cannot listen.
absl::StatusOr<StartedServer> StartServer(
    const ServerOptions& options, const std::vector<grpc::Service*>& services);

// "127.0.0.1:0" with the bound port 5123 -> "127.0.0.1:5123".
std::string BoundAddress(const std::string& listen, int port);

// Prepares a call: deadline and the bearer token, if any.
void PrepareContext(grpc::ClientContext& context, const std::string& token,
                    int64_t deadline_ms);

absl::Status ToAbsl(const grpc::Status& status, absl::string_view what);
// ToAbsl for a call on a channel made from `channel`. Over TLS, gRPC
// reports a server that refused the client's certificate, or its lack of
// one, only as a closed socket (UNAVAILABLE, "Socket closed"); such an
// error gets what a server started with --tls-client-ca means by it.
absl::Status ToAbsl(const grpc::Status& status, absl::string_view what,
                    const ChannelOptions& channel);
grpc::Status ToGrpc(const absl::Status& status);

}  // namespace renju

#endif  // RENJU_RPC_RPC_H_
