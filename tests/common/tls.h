// A self-signed certificate for the tests that serve TLS (the trainer's
// gRPC, the board page's HTTPS).
#ifndef RENJU_TESTS_COMMON_TLS_H_
#define RENJU_TESTS_COMMON_TLS_H_

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace renju::testing {

struct TestCertificate {
  std::string cert;  // PEM certificate (its own CA)
  std::string key;   // PEM private key
};

// cert.pem and key.pem in `dir` (which must exist): a self-signed
// certificate for localhost and 127.0.0.1, valid for a day, made with
// openssl(1). The error names the command that failed.
inline absl::StatusOr<TestCertificate> MakeSelfSignedCertificate(
    const std::filesystem::path& dir) {
  TestCertificate pem{(dir / "cert.pem").string(), (dir / "key.pem").string()};
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
      "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
      pem.key + " -out " + pem.cert + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("failed: ", command));
  }
  return pem;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_COMMON_TLS_H_
