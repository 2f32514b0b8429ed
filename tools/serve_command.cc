// `renju serve`: the inference server (inference/inference_server.h) on a
// gRPC port, with the standard health service. It serves a checkpoint
// (--model) or the trainer's best model (--trainer), switching to each new
// best as the trainer registers it. Prints "listening on HOST:PORT" once it
// serves, so a launcher or test can ask for port 0 and read the port back.
#include "absl/strings/str_cat.h"
#include "config/config.h"
#include "inference/inference_server.h"
#include "tools/command_util.h"

namespace renju::commands {
namespace {

InferenceServerOptions ServerOptionsOf(const Args& args) {
  InferenceServerOptions options;
  options.model = args.GetString("model");
  options.trainer = {args.GetString("trainer"), args.GetString("tls-root-cert"),
                     "", args.GetString("trainer-token")};
  options.model_dir = args.GetString("model-dir");
  options.listen = args.GetString("listen");
  options.address_file = args.GetString("address-file");
  options.tls = {args.GetString("tls-cert"), args.GetString("tls-key"),
                 args.GetString("tls-client-ca")};
  options.token = args.GetString("token");
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  return options;
}

}  // namespace

int Serve(const Argv& argv) {
  Args args("serve",
            "Serves a model over gRPC (proto/inference.proto): Suggest "
            "(search), Evaluate (raw network) and ListModels, plus the "
            "standard health service. Give --model PATH, or --trainer "
            "HOST:PORT to serve the trainer's best model and switch to each "
            "new one. Prints \"listening on HOST:PORT\" once ready.");
  args.AddString("config", "configs/tiny.textproto",
                 "run config (text proto); its `server` part applies");
  args.AddString("model", "", "checkpoint to serve");
  args.AddString("trainer", "", "trainer HOST:PORT whose best model to serve");
  args.AddString("trainer-token", "", "worker token for the trainer");
  args.AddString("tls-root-cert", "", "PEM file to verify the trainer's TLS");
  args.AddString("model-dir", "serve-models",
                 "where models fetched from the trainer are written");
  args.AddString("listen", "127.0.0.1:50052",
                 "address to listen on (port 0: any free port)");
  args.AddString("address-file", "",
                 "also write the bound HOST:PORT to this file once serving");
  args.AddString("tls-cert", "", "PEM certificate chain (enables TLS)");
  args.AddString("tls-key", "", "PEM private key for --tls-cert");
  args.AddString("tls-client-ca", "", "PEM CA to require client certificates");
  args.AddString("token", "", "require this bearer token from clients");
  args.AddInt("seed", 1, 0, INT64_MAX, "seed of the searches' randomness");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  const bool has_model = !args.GetString("model").empty();
  const bool has_trainer = !args.GetString("trainer").empty();
  if (has_model == has_trainer) {
    return Fail(absl::InvalidArgumentError(
        "serve: give exactly one of --model PATH and --trainer HOST:PORT"));
  }
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return Fail(config.status());
  absl::Status status = RunInferenceServer(*config, ServerOptionsOf(args));
  if (absl::IsCancelled(status)) return 130;
  if (!status.ok()) return Fail(status);
  return 0;
}

}  // namespace renju::commands
