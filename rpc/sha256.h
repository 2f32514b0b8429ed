// SHA-256 of bytes and files (OpenSSL's libcrypto): how models and games
// are checked after crossing a process boundary.
#ifndef RENJU_RPC_SHA256_H_
#define RENJU_RPC_SHA256_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace renju {

// Lowercase hex SHA-256.
std::string Sha256Hex(absl::string_view bytes);
absl::StatusOr<std::string> Sha256OfFile(const std::string& path);

}  // namespace renju

#endif  // RENJU_RPC_SHA256_H_
