// The PEM files of a TLS client, read and checked before gRPC sees them.
// gRPC takes PEM text as it is and fails only at the first handshake, with
// an error that names neither the file nor the flag it came from; these
// checks fail at start-up instead, naming both.
#ifndef RENJU_RPC_TLS_FILES_H_
#define RENJU_RPC_TLS_FILES_H_

#include <string>

#include "absl/status/statusor.h"

namespace renju {

struct ChannelOptions;

// What a channel's TLS files are called in the errors of ReadChannelTls: a
// command passes its flags' names ("--tls-cert"), so that an error says
// which flag to fix; the defaults serve callers without flags.
struct ChannelTlsNames {
  std::string root_cert = "TLS root certificate";
  std::string cert = "TLS client certificate";
  std::string key = "TLS client key";
};

// The content of a channel's TLS files; all empty for a plaintext channel.
struct ChannelTlsPem {
  std::string root_certs;   // the CAs that verify the server
  std::string cert_chain;   // the client's own certificate chain, or empty
  std::string private_key;  // its private key, or empty
};

// Reads the TLS files of `options` (tls_root_cert, tls_cert, tls_key) and
// checks them: the client certificate and key come together and only with
// a root certificate; each file is readable and holds a PEM certificate
// (the root and client certificate files) or an unencrypted PEM private
// key (the key file); the key is the client certificate's. The key file's
// mode is not checked, as the servers' --tls-key is not (SECURITY.md).
// Errors are INVALID_ARGUMENT (NOT_FOUND for an unreadable file), naming
// the file as `names` calls it and its path.
absl::StatusOr<ChannelTlsPem> ReadChannelTls(const ChannelOptions& options,
                                             const ChannelTlsNames& names = {});

}  // namespace renju

#endif  // RENJU_RPC_TLS_FILES_H_
