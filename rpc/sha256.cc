#include "rpc/sha256.h"

#include <openssl/evp.h>

#include <fstream>

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

std::string Hex(const unsigned char* bytes, unsigned int n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (unsigned int i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

struct DigestContext {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  DigestContext() { EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr); }
  ~DigestContext() { EVP_MD_CTX_free(ctx); }
  void Update(const void* data, size_t n) { EVP_DigestUpdate(ctx, data, n); }
  std::string Finish() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(ctx, digest, &n);
    return Hex(digest, n);
  }
};

}  // namespace

std::string Sha256Hex(absl::string_view bytes) {
  DigestContext digest;
  digest.Update(bytes.data(), bytes.size());
  return digest.Finish();
}

absl::StatusOr<std::string> Sha256OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  DigestContext digest;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof(buffer));
    digest.Update(buffer, static_cast<size_t>(in.gcount()));
  }
  return digest.Finish();
}

}  // namespace renju
