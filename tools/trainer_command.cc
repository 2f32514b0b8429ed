// `renju trainer`: the trainer process (trainer/trainer_process.h): stores
// uploaded games, trains, publishes generations, rates and gates them, and
// serves models to workers over gRPC; with --http, the run's page.
#include "absl/strings/str_cat.h"
#include "cli/command_util.h"
#include "config/config.h"
#include "tools/commands.h"
#include "trainer/trainer_process.h"

namespace renju::commands {
namespace {

TrainerProcessOptions TrainerOptionsOf(const Args& args) {
  TrainerProcessOptions options;
  options.run_dir = args.GetString("run-dir");
  options.listen = args.GetString("listen");
  options.address_file = args.GetString("address-file");
  options.http_listen = args.GetString("http");
  options.http_address_file = args.GetString("http-address-file");
  options.tokens_file = args.GetString("tokens");
  options.tls = {args.GetString("tls-cert"), args.GetString("tls-key"),
                 args.GetString("tls-client-ca")};
  options.stop_after_generation = args.GetInt("generations");
  options.rank = static_cast<int>(args.GetInt("rank"));
  options.world_size = static_cast<int>(args.GetInt("world-size"));
  options.init_method = args.GetString("init-method");
  return options;
}

}  // namespace

int Trainer(const Argv& argv) {
  Args args("trainer",
            "The trainer: stores uploaded games (SQLite in the run folder), "
            "trains, publishes generations, rates and gates them, and serves "
            "models to workers over gRPC.");
  args.AddString("config", "configs/tiny.textproto", "run config (text proto)");
  args.AddString("run-dir", "run", "run folder (created if needed)");
  args.AddString("listen", "127.0.0.1:7070", "address to serve on");
  args.AddString("address-file", "", "write the bound address here");
  args.AddString("http", "",
                 "also serve the run's page (generations, Elo, losses, "
                 "match games; read-only) and the Prometheus metrics "
                 "(/metrics) on this HOST:PORT (port 0: any free port; "
                 "default: none); HTTPS with --tls-cert and --tls-key");
  args.AddString("http-address-file", "",
                 "write the run page's address (http://HOST:PORT/) here");
  args.AddString("tokens", "",
                 "file of '<worker-id> <token>' lines (mode 0600 or stricter)");
  args.AddString("tls-cert", "", "PEM certificate chain (enables TLS)");
  args.AddString("tls-key", "", "PEM private key");
  args.AddString("tls-client-ca", "", "PEM CA to require client certificates");
  args.AddInt("generations", 0, 0, 1000000,
              "stop training after publishing this generation and keep "
              "serving (0: train until stopped)");
  args.AddInt("rank", 0, 0, 1023,
              "data-parallel rank; ranks above 0 only train (no service)");
  args.AddInt("world-size", 1, 1, 1024, "data-parallel ranks in all");
  args.AddString("init-method", "",
                 "rendezvous of the ranks: file:///shared/path or "
                 "tcp://host:port (needed when world-size > 1)");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  const int rank = static_cast<int>(args.GetInt("rank"));
  const int world_size = static_cast<int>(args.GetInt("world-size"));
  if (rank >= world_size) {
    return Fail(absl::InvalidArgumentError(absl::StrCat(
        "trainer: --rank ", rank, " must be below --world-size ", world_size)));
  }
  if (world_size > 1 && args.GetString("init-method").empty()) {
    return Fail(absl::InvalidArgumentError(
        "trainer: --world-size > 1 needs --init-method"));
  }

  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return Fail(config.status());
  if (absl::Status s = RunTrainerProcess(*config, TrainerOptionsOf(args));
      !s.ok()) {
    return Fail(s);
  }
  return 0;
}

}  // namespace renju::commands
