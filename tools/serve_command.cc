// `renju serve`: the inference server (inference/inference_server.h) on a
// gRPC port, with the standard health service. It serves a checkpoint
// (--model; without it or --trainer, the shipped default model,
// tools/default_model.h) or the trainer's best model (--trainer), switching
// to each new best as the trainer registers it; the trainer link has its
// own client certificate flags (--trainer-tls-cert, --trainer-tls-key) for a
// trainer that requires one, beside this server's --tls-cert and --tls-key.
// Prints "listening on HOST:PORT" once it serves, so a launcher or test can
// ask for port 0 and read the port back. With --http HOST:PORT, also the board
// page and its JSON API (inference/http_frontend.h), announced as "http on
// http://HOST:PORT/" (https:// with --tls-cert and --tls-key); with --run-dir,
// also that training run's page at /run.html (trainer/run_page.h), e.g. for a
// finished run. The server reads and writes the page's record files itself
// (records/record_api.h).
#include <cstdio>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command_util.h"
#include "cli/default_model.h"
#include "cli/token_flags.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "inference/inference_server.h"
#include "tools/client_tls_flags.h"
#include "tools/commands.h"
#include "trainer/run_page.h"

namespace renju::commands {
namespace {

InferenceServerOptions ServerOptionsOf(const Args& args,
                                       const std::string& trainer_token,
                                       const std::string& token) {
  InferenceServerOptions options;
  options.model = args.GetString("model");
  options.trainer.address = args.GetString("trainer");
  options.trainer.token = trainer_token;
  options.model_dir = args.GetString("model-dir");
  options.listen = args.GetString("listen");
  options.address_file = args.GetString("address-file");
  options.tls = {args.GetString("tls-cert"), args.GetString("tls-key"),
                 args.GetString("tls-client-ca")};
  options.token = token;
  options.http_listen = args.GetString("http");
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  RunPageOptions run_page;
  run_page.run_dir = args.GetString("run-dir");
  options.http_routes = [run_page](httplib::Server& server) {
    if (!run_page.run_dir.empty()) AddRunPageRoutes(server, run_page);
  };
  return options;
}

// The link to --trainer. Its client certificate flags are named apart
// from --tls-cert and --tls-key, which are this server's own.
const ClientTlsFlags kServeTrainerTls = {"tls-root-cert", "trainer-tls-cert",
                                         "trainer-tls-key"};

void AddServeFlags(Args& args) {
  args.AddString("config", "",
                 "run config (text proto); its `server` part applies "
                 "(default: the schema's defaults with the model's own "
                 "network shape)");
  args.AddString("model", "",
                 "checkpoint to serve (default without --trainer: the "
                 "shipped default model)");
  args.AddString("trainer", "", "trainer HOST:PORT whose best model to serve");
  AddTokenFlags(args, "trainer-token", "worker token for the trainer",
                TokenEnv::kNone);
  AddClientTlsFlags(args, kServeTrainerTls, "the trainer");
  args.AddString("model-dir", "serve-models",
                 "where models fetched from the trainer are written");
  args.AddString("listen", "127.0.0.1:50052",
                 "address to listen on (port 0: any free port)");
  args.AddString("address-file", "",
                 "also write the bound HOST:PORT to this file once serving");
  args.AddString("tls-cert", "", "PEM certificate chain (enables TLS)");
  args.AddString("tls-key", "", "PEM private key for --tls-cert");
  args.AddString("tls-client-ca", "", "PEM CA to require client certificates");
  AddTokenFlags(args, "token",
                "require this bearer token from clients (gRPC and HTTP)",
                TokenEnv::kRenjuToken);
  args.AddString("http", "",
                 "also serve the board page, its JSON API and the Prometheus "
                 "metrics (/metrics, behind the token as /api/ is) on this "
                 "HOST:PORT (e.g. 127.0.0.1:8080; port 0: any free port; "
                 "default: no HTTP); HTTPS with --tls-cert and --tls-key");
  args.AddString("run-dir", "",
                 "with --http, also serve this training run folder's page "
                 "at /run.html (its ratings, losses and match games)");
  args.AddInt("seed", 1, 0, INT64_MAX, "seed of the searches' randomness");
}

// --run-dir needs --http and an existing folder.
absl::Status CheckRunDir(const Args& args) {
  if (args.GetString("run-dir").empty()) return absl::OkStatus();
  if (args.GetString("http").empty()) {
    return absl::InvalidArgumentError(
        "serve: --run-dir needs --http (the run's page is a web page)");
  }
  if (!std::filesystem::is_directory(args.GetString("run-dir"))) {
    return absl::NotFoundError(absl::StrCat(
        "serve: --run-dir ", args.GetString("run-dir"), " is not a folder"));
  }
  return absl::OkStatus();
}

// The server's options from the flags, the tokens read; without --model
// and --trainer, the shipped default model.
absl::StatusOr<InferenceServerOptions> ServerOptionsFromFlags(
    const Args& args) {
  absl::StatusOr<std::string> trainer_token =
      GetTokenFlag(args, "trainer-token", TokenEnv::kNone);
  if (!trainer_token.ok()) return trainer_token.status();
  absl::StatusOr<std::string> token =
      GetTokenFlag(args, "token", TokenEnv::kRenjuToken);
  if (!token.ok()) return token.status();
  InferenceServerOptions options =
      ServerOptionsOf(args, *trainer_token, *token);
  if (!options.trainer.address.empty()) {
    absl::Status s = SetClientTls(args, kServeTrainerTls, options.trainer);
    if (!s.ok()) return s;
  }
  if (!options.model.empty() && !options.trainer.address.empty()) {
    return absl::InvalidArgumentError(
        "serve: give one of --model PATH and --trainer HOST:PORT, not both");
  }
  if (options.model.empty() && options.trainer.address.empty()) {
    options.model = FindDefaultModel(BinaryFolder());
    if (options.model.empty()) {
      return absl::NotFoundError(absl::StrCat(
          "serve: no --model, no --trainer, and no default model (looked "
          "for ",
          absl::StrJoin(DefaultModelCandidates(BinaryFolder()), ", "), ")"));
    }
    std::fprintf(stderr, "serve: serving the default model %s\n",
                 options.model.c_str());
  }
  return options;
}

// The --config file's run config, or the built-in defaults with the shape
// of the served checkpoint `model` (when one is given).
absl::StatusOr<pb::RunConfig> ServeConfig(const std::string& config_path,
                                          const std::string& model) {
  absl::StatusOr<pb::RunConfig> config =
      config_path.empty() ? ParseRunConfig("", "built-in defaults")
                          : LoadRunConfig(config_path);
  if (!config.ok()) return config.status();
  // No config names the network's shape: the checkpoint's own applies.
  if (config_path.empty() && !model.empty()) {
    if (absl::Status s = AdoptCheckpointNetwork(model, &*config); !s.ok()) {
      return s;
    }
  }
  return config;
}

}  // namespace

int Serve(const Argv& argv) {
  Args args("serve",
            "Serves a model over gRPC (proto/inference.proto): Suggest "
            "(search), Evaluate (raw network) and ListModels, plus the "
            "standard health service. Give --model PATH, or --trainer "
            "HOST:PORT to serve the trainer's best model and switch to each "
            "new one; with neither, the shipped default model. Prints "
            "\"listening on HOST:PORT\" once ready.");
  AddServeFlags(args);
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  if (absl::Status s = CheckRunDir(args); !s.ok()) return Fail(s);
  absl::StatusOr<InferenceServerOptions> options = ServerOptionsFromFlags(args);
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<pb::RunConfig> config =
      ServeConfig(args.GetString("config"), options->model);
  if (!config.ok()) return Fail(config.status());
  absl::Status status = RunInferenceServer(*config, *options);
  if (absl::IsCancelled(status)) return 130;
  if (!status.ok()) return Fail(status);
  return 0;
}

}  // namespace renju::commands
