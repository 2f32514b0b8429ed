#include "tools/client_tls_flags.h"

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "rpc/tls_files.h"

namespace renju::commands {

void AddClientTlsFlags(Args& args, const ClientTlsFlags& flags,
                       const std::string& peer) {
  args.AddString(flags.root_cert, "",
                 absl::StrCat("PEM file to verify ", peer, "'s TLS"));
  args.AddString(
      flags.cert, "",
      absl::StrCat("PEM client certificate chain to present to ", peer,
                   " if it requires one (--tls-client-ca); "
                   "needs --",
                   flags.key, " and --", flags.root_cert));
  args.AddString(flags.key, "",
                 absl::StrCat("PEM private key of --", flags.cert));
}

absl::Status SetClientTls(const Args& args, const ClientTlsFlags& flags,
                          ChannelOptions& options) {
  options.tls_root_cert = args.GetString(flags.root_cert);
  options.tls_cert = args.GetString(flags.cert);
  options.tls_key = args.GetString(flags.key);
  const ChannelTlsNames names = {absl::StrCat("--", flags.root_cert),
                                 absl::StrCat("--", flags.cert),
                                 absl::StrCat("--", flags.key)};
  return ReadChannelTls(options, names).status();
}

}  // namespace renju::commands
