#include "base/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace renju {
namespace {

absl::Status Errno(absl::string_view what, const std::string& path) {
  const int error = errno;
  // Named, and given its own code, so that callers can wait for space
  // instead of failing, and operators read what to fix.
  if (error == ENOSPC || error == EDQUOT) {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, " ", path, ": ", std::strerror(error), " (disk full)"));
  }
  return absl::InternalError(
      absl::StrCat(what, " ", path, ": ", std::strerror(error)));
}

}  // namespace

bool IsSafeName(const std::string& name) {
  if (name.empty() || name.size() > 200 || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

absl::StatusOr<std::string> ReadSecretFile(const std::string& path) {
  // The mode is that of the file read (fstat on the open descriptor), not of
  // whatever the name pointed at a moment earlier.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    return absl::NotFoundError(absl::StrCat("cannot read secret file ", path,
                                            ": ", std::strerror(error)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return Errno("cannot stat", path);
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    return absl::PermissionDeniedError(absl::StrFormat(
        "secret file %s has mode %04o, open to group or others; "
        "chmod 600 %s",
        path, st.st_mode & 07777, path));
  }
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return Errno("cannot read", path);
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  text.resize(absl::StripTrailingAsciiWhitespace(text).size());
  if (text.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("secret file ", path, " is empty"));
  }
  return text;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes,
                                 const std::string& temp_path) {
  const std::string temp =
      temp_path.empty() ? absl::StrCat(path, ".tmp.", ::getpid()) : temp_path;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    absl::Status s = Errno("cannot create", temp);
    ::unlink(temp.c_str());  // created before the failure, e.g. no inodes
    return s;
  }
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n =
        ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      absl::Status s = Errno("cannot write", temp);
      ::close(fd);
      ::unlink(temp.c_str());
      return s;
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    absl::Status s = Errno("cannot flush", temp);
    ::close(fd);
    ::unlink(temp.c_str());
    return s;
  }
  if (::close(fd) != 0) {
    absl::Status s = Errno("cannot close", temp);
    ::unlink(temp.c_str());
    return s;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    absl::Status s = Errno("cannot rename into", path);
    ::unlink(temp.c_str());
    return s;
  }
  return absl::OkStatus();
}

}  // namespace renju
