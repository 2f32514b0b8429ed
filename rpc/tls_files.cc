#include "rpc/tls_files.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "rpc/rpc.h"

namespace renju {
namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Certificate = std::unique_ptr<X509, X509Free>;
using PrivateKey = std::unique_ptr<EVP_PKEY, KeyFree>;

// A key file is read once at start-up by a process that may have no
// terminal: an encrypted key is refused rather than asked a passphrase for.
int NoPassphrase(char*, int, int, void*) { return -1; }

std::unique_ptr<BIO, BioFree> MemoryBio(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The first certificate of `pem`, or null. Leaves OpenSSL's error queue
// (per thread, shared with gRPC's handshakes) empty.
Certificate FirstCertificate(const std::string& pem) {
  auto bio = MemoryBio(pem);
  Certificate cert(bio == nullptr ? nullptr
                                  : PEM_read_bio_X509(bio.get(), nullptr,
                                                      NoPassphrase, nullptr));
  ERR_clear_error();
  return cert;
}

PrivateKey FirstPrivateKey(const std::string& pem) {
  auto bio = MemoryBio(pem);
  PrivateKey key(
      bio == nullptr
          ? nullptr
          : PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassphrase, nullptr));
  ERR_clear_error();
  return key;
}

// The file's text, or an error naming `name` and the file.
absl::StatusOr<std::string> ReadNamedFile(const std::string& name,
                                          const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat(name, ": ", text.status().message()));
  }
  return text;
}

absl::StatusOr<std::string> ReadCertificateFile(const std::string& name,
                                                const std::string& path) {
  absl::StatusOr<std::string> pem = ReadNamedFile(name, path);
  if (!pem.ok()) return pem.status();
  if (FirstCertificate(*pem) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": ", path, " holds no PEM certificate (BEGIN CERTIFICATE)"));
  }
  return pem;
}

// The pairing rules of ReadChannelTls, before any file is read.
absl::Status CheckChannelTlsFlags(const ChannelOptions& options,
                                  const ChannelTlsNames& names) {
  if (!options.tls_cert.empty() && options.tls_key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(names.cert, " ", options.tls_cert, " needs ", names.key,
                     " (its private key)"));
  }
  if (options.tls_cert.empty() && !options.tls_key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(names.key, " ", options.tls_key, " needs ", names.cert,
                     " (the certificate it belongs to)"));
  }
  if (!options.tls_cert.empty() && options.tls_root_cert.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        names.cert, " needs ", names.root_cert,
        ": a client certificate is presented over TLS only, and TLS needs "
        "the certificate that verifies the server"));
  }
  return absl::OkStatus();
}

// The client certificate and its key into `pem`, checked to belong
// together.
absl::Status ReadClientCertificate(const ChannelOptions& options,
                                   const ChannelTlsNames& names,
                                   ChannelTlsPem& pem) {
  absl::StatusOr<std::string> cert =
      ReadCertificateFile(names.cert, options.tls_cert);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadNamedFile(names.key, options.tls_key);
  if (!key.ok()) return key.status();
  PrivateKey private_key = FirstPrivateKey(*key);
  if (private_key == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(names.key, ": ", options.tls_key,
                     " holds no unencrypted PEM private key (BEGIN PRIVATE "
                     "KEY; an encrypted key cannot be used)"));
  }
  Certificate leaf = FirstCertificate(*cert);
  const bool belongs =
      X509_check_private_key(leaf.get(), private_key.get()) == 1;
  ERR_clear_error();
  if (!belongs) {
    return absl::InvalidArgumentError(absl::StrCat(
        names.key, " ", options.tls_key, " is not the private key of ",
        names.cert, " ", options.tls_cert, " (its first certificate)"));
  }
  pem.cert_chain = *std::move(cert);
  pem.private_key = *std::move(key);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ChannelTlsPem> ReadChannelTls(const ChannelOptions& options,
                                             const ChannelTlsNames& names) {
  if (absl::Status s = CheckChannelTlsFlags(options, names); !s.ok()) return s;
  ChannelTlsPem pem;
  if (options.tls_root_cert.empty()) return pem;
  absl::StatusOr<std::string> roots =
      ReadCertificateFile(names.root_cert, options.tls_root_cert);
  if (!roots.ok()) return roots.status();
  pem.root_certs = *std::move(roots);
  if (options.tls_cert.empty()) return pem;
  if (absl::Status s = ReadClientCertificate(options, names, pem); !s.ok()) {
    return s;
  }
  return pem;
}

}  // namespace renju
