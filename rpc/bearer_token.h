// The one bearer-token check, for the gRPC services (CheckBearerToken,
// rpc.h) and the board page's HTTP API (inference/http_frontend.h): an
// "Authorization" value "Bearer <token>" against the tokens a server
// accepts, compared in time that does not depend on where a guess first
// differs from a token. No gRPC here.
#ifndef RENJU_RPC_BEARER_TOKEN_H_
#define RENJU_RPC_BEARER_TOKEN_H_

#include <map>
#include <string>

#include "absl/strings/string_view.h"

namespace renju {

// Equality of a secret with a guess in time that depends on the guess's
// length only, not on where they first differ.
bool SecretEquals(absl::string_view secret, absl::string_view guess);

// Whether `authorization` is exactly "Bearer " followed by `token`.
bool BearerTokenMatches(absl::string_view authorization,
                        absl::string_view token);

// The name of the holder (token -> holder in `tokens`) whose token
// `authorization` carries as "Bearer <token>"; null when none does. Every
// token is compared, each with SecretEquals.
const std::string* FindBearerTokenHolder(
    absl::string_view authorization,
    const std::map<std::string, std::string>& tokens);

}  // namespace renju

#endif  // RENJU_RPC_BEARER_TOKEN_H_
