#include "rpc/rpc.h"

#include <chrono>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "rpc/bearer_token.h"
#include "rpc/tls_files.h"

namespace renju {

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const ChannelOptions& options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(options.max_message_bytes));
  args.SetMaxSendMessageSize(static_cast<int>(options.max_message_bytes));
  // Reconnect quickly after a trainer or server restart.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  absl::StatusOr<ChannelTlsPem> pem = ReadChannelTls(options);
  if (!pem.ok()) return pem.status();
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.tls_root_cert.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = pem->root_certs;
    ssl.pem_cert_chain = pem->cert_chain;
    ssl.pem_private_key = pem->private_key;
    credentials = grpc::SslCredentials(ssl);
    if (!options.tls_server_name.empty()) {
      args.SetSslTargetNameOverride(options.tls_server_name);
    }
  }
  return grpc::CreateCustomChannel(options.address, credentials, args);
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerTlsOptions& options) {
  if (options.cert_chain.empty()) return grpc::InsecureServerCredentials();
  absl::StatusOr<std::string> cert = ReadFile(options.cert_chain);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadFile(options.private_key);
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions ssl(
      options.client_ca.empty()
          ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  ssl.pem_key_cert_pairs.push_back({*key, *cert});
  if (!options.client_ca.empty()) {
    absl::StatusOr<std::string> ca = ReadFile(options.client_ca);
    if (!ca.ok()) return ca.status();
    ssl.pem_root_certs = *ca;
  }
  return grpc::SslServerCredentials(ssl);
}

grpc::Status CheckBearerToken(const grpc::ServerContext& context,
                              const std::map<std::string, std::string>& tokens,
                              std::string* holder) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "missing authorization metadata (Bearer token)");
  }
  const std::string* name = FindBearerTokenHolder(
      absl::string_view(it->second.data(), it->second.size()), tokens);
  if (name == nullptr) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "unknown or wrong Bearer token");
  }
  *holder = *name;
  return grpc::Status::OK;
}

absl::StatusOr<StartedServer> StartServer(
    const ServerOptions& options, const std::vector<grpc::Service*>& services) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  StartedServer started;
  builder.AddListeningPort(options.listen, options.credentials, &started.port);
  builder.SetMaxReceiveMessageSize(
      static_cast<int>(options.max_receive_message_bytes));
  for (grpc::Service* service : services) builder.RegisterService(service);
  started.server = builder.BuildAndStart();
  if (started.server == nullptr || started.port == 0) {
    return absl::UnavailableError(
        absl::StrCat(options.name, ": cannot listen on ", options.listen));
  }
  return started;
}

std::string BoundAddress(const std::string& listen, int port) {
  const size_t colon = listen.rfind(':');
  return absl::StrCat(listen.substr(0, colon), ":", port);
}

void PrepareContext(grpc::ClientContext& context, const std::string& token,
                    int64_t deadline_ms) {
  if (deadline_ms > 0) {
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(deadline_ms));
  }
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
}

absl::Status ToAbsl(const grpc::Status& status, absl::string_view what) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      absl::StrCat(what, ": ", status.error_message()));
}

absl::Status ToAbsl(const grpc::Status& status, absl::string_view what,
                    const ChannelOptions& channel) {
  absl::Status converted = ToAbsl(status, what);
  if (channel.tls_root_cert.empty() ||
      status.error_code() != grpc::StatusCode::UNAVAILABLE ||
      !absl::StrContains(status.error_message(), "Socket closed")) {
    return converted;
  }
  const std::string hint =
      channel.tls_cert.empty()
          ? " (the server closed the TLS connection; one that requires "
            "client certificates, --tls-client-ca, does so to a client that "
            "presents none)"
          : absl::StrCat(
                " (the server closed the TLS connection; one that "
                "requires client certificates, --tls-client-ca, "
                "does so to a certificate its CA did not sign, such "
                "as ",
                channel.tls_cert, "?)");
  return absl::Status(converted.code(),
                      absl::StrCat(converted.message(), hint));
}

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

}  // namespace renju
