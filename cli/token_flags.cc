#include "cli/token_flags.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"

namespace renju::commands {

void AddTokenFlags(Args& args, const std::string& name, const std::string& help,
                   TokenEnv env) {
  std::string plain_help = absl::StrCat(
      help, " (visible in ps: prefer --", name, "-file",
      env == TokenEnv::kRenjuToken
          ? absl::StrCat(" or the environment variable ", kTokenEnvVar,
                         ", which stands for this flag")
          : "",
      ")");
  args.AddString(name, "", plain_help);
  args.AddString(absl::StrCat(name, "-file"), "",
                 absl::StrCat("file holding --", name,
                              " (mode 0600 or stricter; read once at start)"));
}

absl::StatusOr<std::string> GetTokenFlag(const Args& args,
                                         const std::string& name,
                                         TokenEnv env) {
  const std::string file_flag = absl::StrCat(name, "-file");
  const std::string plain = args.GetString(name);
  const std::string file = args.GetString(file_flag);
  if (!plain.empty() && !file.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "give one of --", name, " and --", file_flag, ", not both"));
  }
  if (!plain.empty()) return plain;
  if (!file.empty()) {
    absl::StatusOr<std::string> token = ReadSecretFile(file);
    if (!token.ok()) {
      return absl::Status(
          token.status().code(),
          absl::StrCat("--", file_flag, ": ", token.status().message()));
    }
    return token;
  }
  if (env == TokenEnv::kRenjuToken) {
    const char* value = std::getenv(kTokenEnvVar);
    if (value != nullptr) return std::string(value);
  }
  return std::string();
}

}  // namespace renju::commands
