// The TLS flags of a command's gRPC link to a server (selfplay's trainer
// and evaluator, serve's trainer, suggest's server): the CA that verifies
// the server, and the client certificate and key presented to a server
// that requires one (--tls-client-ca, mutual TLS).
//
//   const ClientTlsFlags kTrainerTls = {"tls-root-cert", "tls-cert",
//                                       "tls-key"};
//   AddClientTlsFlags(args, kTrainerTls, "the trainer");
//   ... ParseOrExit ...
//   ChannelOptions trainer;
//   absl::Status s = SetClientTls(args, kTrainerTls, trainer);
#ifndef RENJU_TOOLS_CLIENT_TLS_FLAGS_H_
#define RENJU_TOOLS_CLIENT_TLS_FLAGS_H_

#include <string>

#include "absl/status/status.h"
#include "cli/args.h"
#include "rpc/rpc.h"

namespace renju::commands {

// One link's flag names, without the dashes.
struct ClientTlsFlags {
  std::string root_cert;  // PEM CA certificates that verify the server
  std::string cert;       // PEM client certificate chain
  std::string key;        // PEM private key of `cert`
};

// Declares the three flags; `peer` ("the trainer", "--evaluator") says in
// their help which server they are for.
void AddClientTlsFlags(Args& args, const ClientTlsFlags& flags,
                       const std::string& peer);

// Sets the TLS files of `options` from the flags and reads and checks them
// now (ReadChannelTls, rpc/tls_files.h), so that a wrong file stops the
// command at start-up with an error naming the flag and the file.
absl::Status SetClientTls(const Args& args, const ClientTlsFlags& flags,
                          ChannelOptions& options);

}  // namespace renju::commands

#endif  // RENJU_TOOLS_CLIENT_TLS_FLAGS_H_
