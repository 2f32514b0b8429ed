// Small file helpers the worker and trainer share: SHA-256 of bytes and
// files (OpenSSL's libcrypto), whole-file reads, and atomic writes (write a
// temporary file, fsync, rename), so a crash never leaves half a file under
// the final name.
#ifndef RENJU_SELFPLAY_FILE_UTIL_H_
#define RENJU_SELFPLAY_FILE_UTIL_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace renju {

// Lowercase hex SHA-256.
std::string Sha256Hex(absl::string_view bytes);
absl::StatusOr<std::string> Sha256OfFile(const std::string& path);

absl::StatusOr<std::string> ReadFile(const std::string& path);
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes);

}  // namespace renju

#endif  // RENJU_SELFPLAY_FILE_UTIL_H_
