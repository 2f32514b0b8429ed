// Small file helpers every room shares: whole-file reads, atomic writes
// (write a temporary file, fsync, rename), so a crash never leaves half a
// file under the final name, secret files with ssh's permission check, and
// the check for names that become files.
// SHA-256 lives in rpc/sha256.h (it needs OpenSSL).
#ifndef RENJU_BASE_FILE_UTIL_H_
#define RENJU_BASE_FILE_UTIL_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace renju {

absl::StatusOr<std::string> ReadFile(const std::string& path);
// Writes `bytes` to a temporary file beside `path`, flushes it to disk and
// renames it into place, so a crash or a full disk leaves either the old
// file or the new one. The temporary is `temp_path` when given (a writer
// that replaces one file over and over: a process killed mid-write leaves
// one stale temporary, overwritten next time, not one per process), else
// `path` + ".tmp." + the process id. A full disk (ENOSPC, EDQUOT) is
// RESOURCE_EXHAUSTED with "disk full" in the message, other failures
// INTERNAL; the temporary is removed either way.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes,
                                 const std::string& temp_path = "");

// A secret (a bearer token, a tokens file) read once at start-up, the way
// ssh reads a private key: refused, naming the file, if its mode lets the
// group or others read or write it (mode & 077), if it is missing, or if
// nothing is left after trailing whitespace (the newline) is stripped.
absl::StatusOr<std::string> ReadSecretFile(const std::string& path);

// Uids and worker ids become file names: letters, digits, '-', '_', '.'.
bool IsSafeName(const std::string& name);

}  // namespace renju

#endif  // RENJU_BASE_FILE_UTIL_H_
