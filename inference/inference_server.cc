#include "inference/inference_server.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "base/metrics.h"
#include "inference/http_frontend.h"
#include "inference/inference_service.h"
#include "records/record_api.h"

namespace renju {
namespace {

std::atomic<bool> interrupted{false};

// The server's Prometheus metrics (served at /metrics on the HTTP side):
// its evaluator's batches, and Suggest's latency and errors.
struct ServerMetrics {
  MetricsRegistry registry;
  EvaluatorMetrics evaluator = RegisterEvaluatorMetrics(registry);
  SuggestMetrics suggest = RegisterSuggestMetrics(registry);
};

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
    const std::string& model_dir, const EvaluatorMetrics& metrics) {
  int64_t backoff_ms = 200;
  for (;;) {
    absl::StatusOr<pb::ModelInfo> info = trainer.GetCurrentModel();
    if (info.ok()) {
      return FetchServedModel(config, trainer, *info, model_dir, metrics);
    }
    RENJU_LOG(INFO) << "waiting for the trainer: " << info.status().message();
    if (!SleepUnlessInterrupted(backoff_ms)) {
      return absl::CancelledError("stopped before the trainer had a model");
    }
    backoff_ms = std::min<int64_t>(2 * backoff_ms, 5000);
  }
}

// Announces the bound address on stdout and in the address file.
absl::Status Announce(const InferenceServerOptions& options,
                      const std::string& address) {
  std::printf("listening on %s\n", address.c_str());
  std::fflush(stdout);
  if (options.address_file.empty()) return absl::OkStatus();
  return WriteFileAtomically(options.address_file, absl::StrCat(address, "\n"));
}

// The board page and its API beside the gRPC port; its suggestions are
// the gRPC service's own (`suggester`). The page's record files are read and
// written here too (/api/records, records/record_api.h), before the options'
// own routes. Announces "http on http://HOST:PORT/" (https with the TLS files).
absl::StatusOr<std::unique_ptr<HttpFrontend>> StartHttp(
    const pb::RunConfig& config, const InferenceServerOptions& options,
    MoveSuggester& suggester, const MetricsRegistry& metrics) {
  HttpFrontendOptions http_options;
  http_options.listen = options.http_listen;
  http_options.token = options.token;
  http_options.metrics = &metrics;
  http_options.add_routes =
      [routes = options.http_routes](httplib::Server& http_server) {
        AddRecordRoutes(http_server);
        if (routes) routes(http_server);
      };
  http_options.body_limits = {{"/api/records", kMaxRecordBodyBytes}};
  http_options.tls_cert_chain = options.tls.cert_chain;
  http_options.tls_private_key = options.tls.private_key;
  absl::StatusOr<std::unique_ptr<HttpFrontend>> http =
      HttpFrontend::Start(config, suggester, http_options);
  if (!http.ok()) return http.status();
  const std::string url =
      absl::StrCat(options.tls.cert_chain.empty() ? "http" : "https", "://",
                   BoundAddress(options.http_listen, (*http)->port()), "/");
  std::printf("http on %s\n", url.c_str());
  std::fflush(stdout);
  RENJU_LOG(INFO) << "serving the board page and its API on " << url;
  return http;
}

absl::Status RunServer(const pb::RunConfig& config,
                       const InferenceServerOptions& options,
                       std::shared_ptr<const ServedModel> model,
                       std::unique_ptr<TrainerClient> trainer,
                       ServerMetrics& metrics) {
  InferenceServiceOptions service_options;
  service_options.token = options.token;
  service_options.seed = options.seed;
  service_options.suggest_metrics = metrics.suggest;
  InferenceService service(config, std::move(model), trainer.get(),
                           service_options);
  // Read only by the HTTP side, which stops before `service` goes.
  metrics.registry.AddGaugeFunction(
      "renju_server_generation", "The generation of the served model.",
      [&service] {
        return static_cast<double>(service.model()->info.generation());
      });
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials(options.tls);
  if (!credentials.ok()) return credentials.status();
  absl::StatusOr<StartedServer> started = StartServer(
      {"serve", options.listen, *credentials, service.MaxRequestBytes()},
      {&service});
  if (!started.ok()) return started.status();
  grpc::Server& server = *started->server;
  server.GetHealthCheckService()->SetServingStatus(true);
  std::unique_ptr<ModelUpdater> updater;
  if (trainer) {
    updater = std::make_unique<ModelUpdater>(
        config, *trainer, service, options.model_dir, metrics.evaluator);
    updater->Start();
  }
  const std::string address = BoundAddress(options.listen, started->port);
  if (absl::Status s = Announce(options, address); !s.ok()) return s;
  RENJU_LOG(INFO) << "serving generation " << service.model()->info.generation()
                  << " on " << address << " (network on "
                  << service.model()->stack->runs_on() << ") with "
                  << config.server().ShortDebugString();
  std::unique_ptr<HttpFrontend> http;
  if (!options.http_listen.empty()) {
    absl::StatusOr<std::unique_ptr<HttpFrontend>> started_http =
        StartHttp(config, options, service.suggester(), metrics.registry);
    if (!started_http.ok()) return started_http.status();
    http = *std::move(started_http);
  }

  while (SleepUnlessInterrupted(1000)) {
  }
  RENJU_LOG(INFO) << "shutting down";
  // HTTP first: its suggestions in flight are cancelled and answered.
  if (http) http->Stop();
  server.GetHealthCheckService()->SetServingStatus(false);
  if (updater) updater->Stop();
  server.Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  return absl::OkStatus();
}

}  // namespace

absl::Status RunInferenceServer(const pb::RunConfig& config,
                                const InferenceServerOptions& options) {
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  CapMallocArenas();

  // Before the models, whose evaluators fill it, and so gone after them.
  ServerMetrics metrics;
  std::unique_ptr<TrainerClient> trainer;
  absl::StatusOr<std::shared_ptr<const ServedModel>> model;
  if (!options.trainer.address.empty()) {
    absl::StatusOr<std::unique_ptr<TrainerClient>> client =
        TrainerClient::Create(options.trainer);
    if (!client.ok()) return client.status();
    trainer = std::move(*client);
    model = FirstTrainerModel(config, *trainer, options.model_dir,
                              metrics.evaluator);
  } else {
    model = LoadServedModel(config, options.model,
                            static_cast<uint64_t>(config.seed()),
                            /*trainer_info=*/nullptr, metrics.evaluator);
  }
  if (!model.ok()) return model.status();
  return RunServer(config, options, *std::move(model), std::move(trainer),
                   metrics);
}

}  // namespace renju
