// Bearer-token flags that keep tokens out of argv (and so out of `ps`):
// each token flag --NAME has a --NAME-file PATH twin, read once at start-up
// with ReadSecretFile (base/file_util.h: mode 0600 or stricter, trailing
// newline stripped, empty refused), and a command's one --token may also
// come from the environment variable RENJU_TOKEN.
//
//   AddTokenFlags(args, "token", "bearer token the server requires",
//                 TokenEnv::kRenjuToken);
//   ... ParseOrExit ...
//   absl::StatusOr<std::string> token = GetTokenFlag(args, "token", ...);
#ifndef RENJU_CLI_TOKEN_FLAGS_H_
#define RENJU_CLI_TOKEN_FLAGS_H_

#include <string>

#include "absl/status/statusor.h"
#include "cli/args.h"

namespace renju::commands {

inline constexpr char kTokenEnvVar[] = "RENJU_TOKEN";

enum class TokenEnv { kNone, kRenjuToken };

// Declares --NAME (its help says to prefer the file) and --NAME-file; with
// kRenjuToken the help of --NAME names RENJU_TOKEN as its stand-in.
void AddTokenFlags(Args& args, const std::string& name, const std::string& help,
                   TokenEnv env);

// The token: --NAME, else the content of --NAME-file, else (kRenjuToken)
// a non-empty $RENJU_TOKEN, else "". Both --NAME and --NAME-file is an
// error; so is a file that ReadSecretFile refuses.
absl::StatusOr<std::string> GetTokenFlag(const Args& args,
                                         const std::string& name, TokenEnv env);

}  // namespace renju::commands

#endif  // RENJU_CLI_TOKEN_FLAGS_H_
