#include "trainer/trainer_process.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "arena/anchors.h"
#include "arena/gating.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "base/metrics.h"
#include "base/run_folder.h"
#include "config/config.h"
#include "http/http_server.h"
#include "rules/types.h"
#include "trainer/distributed.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"
#include "trainer/publisher.h"
#include "trainer/run_page.h"
#include "trainer/trainer_metrics.h"
#include "trainer/trainer_service.h"
#include "trainer/training_loop.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

std::atomic<bool> stop_requested{false};
void OnSignal(int) { stop_requested = true; }

// Runs the loop until a signal or a failure; saves its state. A loop that
// finished its generations (--generations) leaves the process serving.
absl::Status RunLoopUntilStopped(TrainingLoop& loop) {
  loop.Start();
  std::atomic<bool> loop_failed{false};
  std::thread waiter([&] {
    // Returns when the loop ends by itself or is stopped.
    if (!loop.Wait().ok()) loop_failed = true;
  });
  while (!stop_requested && !loop_failed) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  absl::Status status = loop.Stop();
  waiter.join();
  if (!status.ok()) return status;
  RENJU_LOG(INFO) << "trainer stopped; training state saved";
  return absl::OkStatus();
}

absl::Status WriteAddress(const std::string& file, int port) {
  if (file.empty()) return absl::OkStatus();
  return WriteFileAtomically(file, absl::StrCat("127.0.0.1:", port, "\n"));
}

// The run's page on options.http_listen, with the trainer's live status,
// and the trainer's metrics at /metrics. Both are read-only and open to
// whoever reaches the address, as the page always was: worker tokens
// guard the gRPC side, which can change the run.
absl::StatusOr<std::unique_ptr<HttpListener>> StartRunPage(
    const TrainerProcessOptions& options, GameStore& store, TrainingLoop& loop,
    const MetricsRegistry& metrics) {
  const HttpTlsFiles tls = {options.tls.cert_chain, options.tls.private_key};
  absl::StatusOr<std::unique_ptr<httplib::Server>> made =
      MakeHttpServer(tls, "trainer --http");
  if (!made.ok()) return made.status();
  std::unique_ptr<httplib::Server> server = *std::move(made);
  SetUpJsonServer(*server, "trainer --http", 4096);
  RunPageOptions page;
  page.run_dir = options.run_dir;
  page.status = [&store, &loop] {
    pb::TrainerStatus status;
    status.set_total_games(store.NumGames());
    status.set_total_positions(store.NumPositions());
    loop.FillStatus(&status);
    return status;
  };
  AddRunPageRoutes(*server, std::move(page));
  ServeMetrics(*server, metrics);  // before the pages' catch-all route
  ServeWebPages(*server, "/run.html");
  absl::StatusOr<std::unique_ptr<HttpListener>> listener = HttpListener::Start(
      std::move(server), options.http_listen, "trainer --http");
  if (!listener.ok()) return listener.status();
  const std::string address =
      absl::StrCat(HttpScheme(tls), "://",
                   BoundAddress(options.http_listen, (*listener)->port()), "/");
  RENJU_LOG(INFO) << "the run's page: " << address;
  if (!options.http_address_file.empty()) {
    if (absl::Status s =
            WriteFileAtomically(options.http_address_file, address + "\n");
        !s.ok()) {
      return s;
    }
  }
  return listener;
}

struct Stores {
  std::unique_ptr<GameStore> games;
  std::unique_ptr<MatchStore> matches;
};

absl::StatusOr<Stores> OpenStores(const std::string& run_dir) {
  std::error_code error;
  fs::create_directories(run_dir, error);
  const std::string db_path = RunFolder{run_dir}.database().string();
  absl::StatusOr<std::unique_ptr<GameStore>> store = GameStore::Open(db_path);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::unique_ptr<MatchStore>> matches =
      MatchStore::Open(db_path);
  if (!matches.ok()) return matches.status();
  return Stores{std::move(*store), std::move(*matches)};
}

// The data-parallel group of a multi-rank run; null with one rank.
absl::StatusOr<std::unique_ptr<DataParallelGroup>> JoinGroup(
    const TrainerProcessOptions& options) {
  if (options.world_size <= 1) return nullptr;
  RENJU_LOG(INFO) << "rank " << options.rank << " of " << options.world_size
                  << " joining " << options.init_method;
  DistributedOptions distributed;
  distributed.rank = options.rank;
  distributed.world_size = options.world_size;
  distributed.init_method = options.init_method;
  return DataParallelGroup::Connect(distributed);
}

// Rank 0: serves workers over gRPC while the loop trains.
absl::Status ServeAndTrain(const pb::RunConfig& config,
                           const TrainerProcessOptions& options,
                           std::map<std::string, std::string> tokens,
                           std::shared_ptr<grpc::ServerCredentials> credentials,
                           GameStore& store, TrainingLoop& loop) {
  absl::StatusOr<std::vector<ModelEntry>> models = store.Models();
  if (!models.ok()) return models.status();
  if (models->empty()) {
    if (absl::Status s = loop.PublishInitialModel(); !s.ok()) return s;
  }
  // Before the service and the page, which use it, and so gone after them.
  MetricsRegistry metrics;
  TrainerServiceOptions service_options;
  service_options.worker_tokens = std::move(tokens);
  service_options.metrics = RegisterTrainerServiceMetrics(metrics);
  service_options.variant = *ParseVariant(config.variant());  // validated
  service_options.board_size = config.board_size();
  TrainerService service(
      &store, service_options, [&](int64_t, int64_t) { loop.NotifyNewGames(); },
      [&](pb::TrainerStatus* status) { loop.FillStatus(status); });
  RegisterTrainerMetrics(metrics, store, loop, service);
  absl::StatusOr<StartedServer> server =
      StartServer({"trainer", options.listen, credentials}, {&service});
  if (!server.ok()) return server.status();
  std::unique_ptr<HttpListener> run_page;
  if (!options.http_listen.empty()) {
    absl::StatusOr<std::unique_ptr<HttpListener>> started =
        StartRunPage(options, store, loop, metrics);
    if (!started.ok()) return started.status();
    run_page = *std::move(started);
  }
  if (absl::Status s = WriteAddress(options.address_file, server->port);
      !s.ok()) {
    return s;
  }
  RENJU_LOG(INFO) << "trainer listening on port " << server->port
                  << ", run folder " << options.run_dir;
  absl::Status status = RunLoopUntilStopped(loop);
  if (run_page) run_page->Stop();
  server->server->Shutdown(std::chrono::system_clock::now() +
                           std::chrono::seconds(5));
  return status;
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> ReadTokens(
    const std::string& path) {
  std::map<std::string, std::string> tokens;
  if (path.empty()) return tokens;
  // A secret like a key: refused when group or others may read it.
  absl::StatusOr<std::string> text = ReadSecretFile(path);
  if (!text.ok()) return text.status();
  int number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (fields.size() != 2 || fields[1].size() < 16) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", number,
          ": expected '<worker-id> <token>' with a token of 16+ characters"));
    }
    if (!tokens.emplace(fields[1], fields[0]).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", number, ": token used twice"));
    }
  }
  // No tokens would mean no authentication: never the result of a file.
  if (tokens.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": no '<worker-id> <token>' lines"));
  }
  return tokens;
}

absl::Status RunTrainerProcess(const pb::RunConfig& config,
                               const TrainerProcessOptions& options) {
  // Every outside input is checked before the run folder is touched.
  absl::StatusOr<std::map<std::string, std::string>> tokens =
      ReadTokens(options.tokens_file);
  if (!tokens.ok()) return tokens.status();
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials(options.tls);
  if (!credentials.ok()) return credentials.status();
  if (absl::Status s = CheckAnchorFiles(config.arena()); !s.ok()) return s;
  if (absl::Status s = CheckGatingCanDecide(config.arena()); !s.ok()) return s;
  absl::StatusOr<Stores> stores = OpenStores(options.run_dir);
  if (!stores.ok()) return stores.status();
  RENJU_LOG(INFO) << "config:\n" << RunConfigText(config);

  absl::StatusOr<std::unique_ptr<DataParallelGroup>> group = JoinGroup(options);
  if (!group.ok()) return group.status();
  Publisher publisher(config, options.run_dir, stores->games.get(),
                      stores->matches.get(), &stop_requested);
  TrainingLoopOptions loop_options =
      ToTrainingLoopOptions(config, options.run_dir);
  loop_options.stop_after_generation = options.stop_after_generation;
  absl::StatusOr<std::unique_ptr<TrainingLoop>> loop = TrainingLoop::Create(
      loop_options, stores->games.get(),
      [&](int64_t generation, const std::string& path, int64_t step,
          int64_t games) {
        return publisher.Publish(generation, path, step, games);
      },
      group->get());
  if (!loop.ok()) return loop.status();
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (options.rank > 0) return RunLoopUntilStopped(**loop);
  return ServeAndTrain(config, options, *std::move(tokens), *credentials,
                       *stores->games, **loop);
}

}  // namespace renju
