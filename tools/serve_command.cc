// `renju serve`: the inference server (tools/inference_service.h) on a gRPC
// port, with the standard health service. It serves a checkpoint (--model)
// or the trainer's best model (--trainer), switching to each new best as the
// trainer registers it. Prints "listening on HOST:PORT" once it serves, so
// a launcher or test can ask for port 0 and read the port back.
#include <grpcpp/grpcpp.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "config/config.h"
#include "base/file_util.h"
#include "rpc/rpc.h"
#include "tools/command_util.h"
#include "inference/inference_service.h"

namespace renju::commands {
namespace {

std::atomic<bool> interrupted{false};

void OnSignal(int) { interrupted = true; }

// Sleeps up to `ms`; false once interrupted.
bool SleepUnlessInterrupted(int64_t ms) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    if (interrupted) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !interrupted;
}

// Caps glibc's malloc arenas at one per core (its default is eight per
// core). Every gRPC handler thread gets an arena of its own, and what one
// swap's requests freed in one arena was not reused by the next swap's
// threads in another: under 32 clients and a hot swap a minute the
// server's RSS climbed 5-10 MiB a minute with malloc's in-use bytes flat
// (tools/soak_test.sh). Must run before the server starts its threads.
void CapMallocArenas() {
#ifdef __GLIBC__
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  mallopt(M_ARENA_MAX, std::max(2, cores));
#endif
}

// The trainer's current best model, waiting (with backoff) while the trainer
// is not up yet or has no model.
absl::StatusOr<std::shared_ptr<const ServedModel>> FirstTrainerModel(
    const pb::RunConfig& config, TrainerClient& trainer,
    const std::string& model_dir) {
  int64_t backoff_ms = 200;
  for (;;) {
    absl::StatusOr<pb::ModelInfo> info = trainer.GetCurrentModel();
    if (info.ok()) return FetchServedModel(config, trainer, *info, model_dir);
    RENJU_LOG(INFO) << "waiting for the trainer: " << info.status().message();
    if (!SleepUnlessInterrupted(backoff_ms)) {
      return absl::CancelledError("stopped before the trainer had a model");
    }
    backoff_ms = std::min<int64_t>(2 * backoff_ms, 5000);
  }
}

// "127.0.0.1:0" with the bound port 5123 -> "127.0.0.1:5123".
std::string BoundAddress(const std::string& listen, int port) {
  const size_t colon = listen.rfind(':');
  return absl::StrCat(listen.substr(0, colon), ":", port);
}

int RunServer(const pb::RunConfig& config, const Args& args,
              std::shared_ptr<const ServedModel> model,
              std::unique_ptr<TrainerClient> trainer) {
  InferenceServiceOptions options;
  options.token = args.GetString("token");
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  InferenceService service(config, std::move(model), trainer.get(), options);
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials({args.GetString("tls-cert"),
                             args.GetString("tls-key"),
                             args.GetString("tls-client-ca")});
  if (!credentials.ok()) return Fail(credentials.status());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  const std::string listen = args.GetString("listen");
  builder.AddListeningPort(listen, *credentials, &port);
  builder.SetMaxReceiveMessageSize(service.MaxRequestBytes());
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return Fail(absl::UnavailableError(
        absl::StrCat("serve: cannot listen on ", listen)));
  }
  server->GetHealthCheckService()->SetServingStatus(true);
  std::unique_ptr<ModelUpdater> updater;
  if (trainer) {
    updater = std::make_unique<ModelUpdater>(config, *trainer, service,
                                             args.GetString("model-dir"));
    updater->Start();
  }
  std::printf("listening on %s\n", BoundAddress(listen, port).c_str());
  std::fflush(stdout);
  if (const std::string file = args.GetString("address-file"); !file.empty()) {
    if (absl::Status s = WriteFileAtomically(
            file, absl::StrCat(BoundAddress(listen, port), "\n"));
        !s.ok()) {
      return Fail(s);
    }
  }
  RENJU_LOG(INFO) << "serving generation " << service.model()->info.generation()
                  << " on " << BoundAddress(listen, port) << " with "
                  << config.server().ShortDebugString();

  while (SleepUnlessInterrupted(1000)) {
  }
  RENJU_LOG(INFO) << "shutting down";
  server->GetHealthCheckService()->SetServingStatus(false);
  if (updater) updater->Stop();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  return 0;
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
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  CapMallocArenas();

  std::unique_ptr<TrainerClient> trainer;
  absl::StatusOr<std::shared_ptr<const ServedModel>> model;
  if (has_trainer) {
    absl::StatusOr<std::unique_ptr<TrainerClient>> client =
        TrainerClient::Create({args.GetString("trainer"),
                               args.GetString("tls-root-cert"), "",
                               args.GetString("trainer-token")});
    if (!client.ok()) return Fail(client.status());
    trainer = std::move(*client);
    model = FirstTrainerModel(*config, *trainer, args.GetString("model-dir"));
    if (absl::IsCancelled(model.status())) return 130;
  } else {
    model = LoadServedModel(*config, args.GetString("model"),
                            static_cast<uint64_t>(config->seed()));
  }
  if (!model.ok()) return Fail(model.status());
  return RunServer(*config, args, *std::move(model), std::move(trainer));
}

}  // namespace renju::commands
