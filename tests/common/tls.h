// Certificates for the tests that serve TLS (the trainer's gRPC, the board
// page's HTTPS): a self-signed one, and for mutual TLS certificate
// authorities and the certificates they sign.
#ifndef RENJU_TESTS_COMMON_TLS_H_
#define RENJU_TESTS_COMMON_TLS_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
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

// Runs an openssl(1) command line quietly; the error names it.
inline absl::Status RunOpenssl(const std::string& arguments) {
  const std::string command = "openssl " + arguments + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("failed: ", command));
  }
  return absl::OkStatus();
}

// <name>.pem and <name>.key in `dir`: a self-signed certificate authority
// (CN=<name>, an EC P-256 key: quick to make), valid for a day.
inline absl::StatusOr<TestCertificate> MakeCertificateAuthority(
    const std::filesystem::path& dir, const std::string& name) {
  TestCertificate ca{(dir / (name + ".pem")).string(),
                     (dir / (name + ".key")).string()};
  absl::Status made = RunOpenssl(
      "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
      "-days 1 -subj /CN=" +
      name + " -keyout " + ca.key + " -out " + ca.cert);
  if (!made.ok()) return made;
  return ca;
}

// <name>.pem and <name>.key in `dir`: a certificate for localhost and
// 127.0.0.1 signed by `ca`, valid for a day, good for a server and for a
// client (mutual TLS).
inline absl::StatusOr<TestCertificate> MakeSignedCertificate(
    const std::filesystem::path& dir, const std::string& name,
    const TestCertificate& ca) {
  const std::filesystem::path base = dir / name;
  TestCertificate pem{base.string() + ".pem", base.string() + ".key"};
  const std::string request = base.string() + ".csr";
  const std::string extensions = base.string() + ".ext";
  std::ofstream(extensions) << "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                               "extendedKeyUsage=serverAuth,clientAuth\n";
  absl::Status made = RunOpenssl(
      "req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" +
      name + " -keyout " + pem.key + " -out " + request);
  if (!made.ok()) return made;
  made = RunOpenssl("x509 -req -in " + request + " -CA " + ca.cert +
                    " -CAkey " + ca.key + " -CAcreateserial -days 1 -extfile " +
                    extensions + " -out " + pem.cert);
  if (!made.ok()) return made;
  return pem;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_COMMON_TLS_H_
