// gRPC plumbing shared by every client and server of the project: channels
// and server credentials (TLS when certificates are configured), bearer
// tokens, deadlines, and status conversion.
#ifndef RENJU_RPC_RPC_H_
#define RENJU_RPC_RPC_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace renju {

struct ChannelOptions {
  std::string address;          // HOST:PORT
  std::string tls_root_cert;    // PEM file; empty: plaintext (loopback)
  std::string tls_server_name;  // override for the certificate's name
  std::string token;            // sent as "authorization: Bearer <token>"
  int64_t max_message_bytes = 64 << 20;
};

// Errors only for unreadable certificate files; connecting is lazy.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const ChannelOptions& options);

struct ServerTlsOptions {
  std::string cert_chain;  // PEM file; empty: plaintext
  std::string private_key; // PEM file
  std::string client_ca;   // PEM file; set to require client certificates
};

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerTlsOptions& options);

// Prepares a call: deadline and the bearer token, if any.
void PrepareContext(grpc::ClientContext& context, const std::string& token,
                    int64_t deadline_ms);

absl::Status ToAbsl(const grpc::Status& status, absl::string_view what);
grpc::Status ToGrpc(const absl::Status& status);

}  // namespace renju

#endif  // RENJU_RPC_RPC_H_
