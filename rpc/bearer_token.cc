#include "rpc/bearer_token.h"

#include "absl/strings/match.h"

namespace renju {

// Hand-written: a few lines, and the processes link no crypto library for
// it (gRPC's is internal).
bool SecretEquals(absl::string_view secret, absl::string_view guess) {
  unsigned char differences = secret.size() == guess.size() ? 0 : 1;
  for (size_t i = 0; i < guess.size(); ++i) {
    differences |= static_cast<unsigned char>(
        guess[i] ^ (secret.empty() ? 0 : secret[i % secret.size()]));
  }
  return differences == 0;
}

bool BearerTokenMatches(absl::string_view authorization,
                        absl::string_view token) {
  constexpr absl::string_view kBearer = "Bearer ";
  if (!absl::StartsWith(authorization, kBearer)) return false;
  return SecretEquals(token, authorization.substr(kBearer.size()));
}

const std::string* FindBearerTokenHolder(
    absl::string_view authorization,
    const std::map<std::string, std::string>& tokens) {
  const std::string* holder = nullptr;
  for (const auto& [token, name] : tokens) {
    if (BearerTokenMatches(authorization, token)) holder = &name;
  }
  return holder;
}

}  // namespace renju
