// `renju trainer`: the trainer process. Moving parts:
//   GameStore (run.sqlite)  games, worker counts, model registry
//   TrainerService (gRPC)   uploads, model downloads, status, health
//   TrainingLoop (thread)   replay window -> training -> generations
//   publish callback        registers each generation, plays the rating /
//                           gating match against the best, updates the
//                           ratings table and redraws the plots
// Stops on SIGTERM/SIGINT, saving the training state; a restart with the
// same run folder resumes exactly where it stopped.
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/logging.h"
#include "config/config.h"
#include "base/file_util.h"
#include "rpc/sha256.h"
#include "arena/gating.h"
#include "rpc/rpc.h"
#include "tools/command_util.h"
#include "trainer/distributed.h"
#include "trainer/game_store.h"
#include "trainer/match_store.h"
#include "trainer/plots.h"
#include "trainer/ratings.h"
#include "trainer/trainer_service.h"
#include "trainer/training_loop.h"

namespace renju::commands {
namespace {

namespace fs = std::filesystem;

std::atomic<bool> stop_requested{false};
void OnSignal(int) { stop_requested = true; }

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Worker tokens from a file of "<worker-id> <token>" lines ('#' comments).
absl::StatusOr<std::map<std::string, std::string>> ReadTokens(
    const std::string& path) {
  std::map<std::string, std::string> tokens;
  if (path.empty()) return tokens;
  absl::StatusOr<std::string> text = ReadFile(path);
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

// Registers each new generation and decides whether it becomes the best.
class Publisher {
 public:
  Publisher(const pb::RunConfig& config, std::string run_dir, GameStore* store,
            MatchStore* matches)
      : config_(config), run_dir_(std::move(run_dir)), store_(store),
        matches_(matches) {}

  absl::Status Publish(int64_t generation, const std::string& path,
                       int64_t step, int64_t games_seen);
  // Ratings table, CSV/JSON and plots from everything stored.
  void RefreshRatings();

 private:
  const pb::RunConfig& config_;
  const std::string run_dir_;
  GameStore* const store_;
  MatchStore* const matches_;
};

absl::Status Publisher::Publish(int64_t generation, const std::string& path,
                                int64_t step, int64_t games_seen) {
  absl::StatusOr<std::string> sha = Sha256OfFile(path);
  if (!sha.ok()) return sha.status();
  absl::StatusOr<std::optional<ModelEntry>> best = store_->BestModel();
  if (!best.ok()) return best.status();
  ModelEntry model;
  model.generation = generation;
  model.parent_generation = best->has_value() ? (*best)->generation : -1;
  model.training_step = step;
  model.games_seen = games_seen;
  model.path = path;
  model.sha256 = *sha;
  model.size_bytes = static_cast<int64_t>(fs::file_size(path));
  model.created_unix_ms = NowUnixMs();
  model.status = best->has_value() ? "candidate" : "best";
  if (absl::Status s = store_->RegisterModel(model); !s.ok()) return s;
  if (!best->has_value()) {
    RENJU_LOG(INFO) << "generation " << generation << " registered as best";
    return absl::OkStatus();
  }

  // The match rates the generation and, with gating on, decides it.
  const bool play = config_.arena().gating() || config_.arena().rate_generations();
  if (play) {
    RENJU_LOG(INFO) << "generation " << generation << " plays generation "
                    << (*best)->generation << " ("
                    << config_.arena().games() << " games)";
    CheckpointMatchOptions options;
    options.out_dir = (fs::path(run_dir_) / "matches" /
                       absl::StrCat("gen", generation, "-vs-gen",
                                    (*best)->generation))
                          .string();
    options.seed = config_.seed() + static_cast<uint64_t>(generation);
    options.stop = &stop_requested;
    absl::StatusOr<ArenaSummary> summary =
        RunCheckpointMatch(config_, path, (*best)->path, options);
    if (!summary.ok()) return summary.status();
    const GateResult gate = config_.arena().gating()
                                ? GateDecision(*summary, config_.arena())
                                : GateResult{true, true, "gating off", *summary,
                                             ArenaSummaryJson(*summary)};
    if (absl::StatusOr<int64_t> id = matches_->AddMatch(MatchResultFromSummary(
            *summary, generation, (*best)->generation, NowUnixMs()));
        !id.ok()) {
      return id.status();
    }
    model.status = gate.promote ? "best" : "rejected";
    model.match_summary = ArenaSummaryJson(*summary);
    RENJU_LOG(INFO) << "generation " << generation << " "
                    << (gate.promote ? "promoted" : "rejected") << ": "
                    << gate.reason;
  } else {
    model.status = "best";
  }
  if (absl::Status s = store_->UpdateModel(model); !s.ok()) return s;
  RefreshRatings();
  return absl::OkStatus();
}

void Publisher::RefreshRatings() {
  absl::StatusOr<RatingTable> table = UpdateRatings(*store_, *matches_, run_dir_);
  if (!table.ok()) {
    RENJU_LOG(WARNING) << "ratings not updated: " << table.status();
    return;
  }
  RENJU_LOG(INFO) << "ratings:\n" << RatingsText(*table);
  absl::StatusOr<std::vector<std::string>> plots = WritePlots(
      run_dir_, *table, (fs::path(run_dir_) / "training.csv").string());
  if (!plots.ok()) RENJU_LOG(WARNING) << "plots not drawn: " << plots.status();
}

// Runs the loop until a signal or a failure; saves its state. A loop that
// finished its generations (--generations) leaves the process serving.
int RunLoopUntilStopped(TrainingLoop& loop) {
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
  if (!status.ok()) return Fail(status);
  RENJU_LOG(INFO) << "trainer stopped; training state saved";
  return 0;
}

absl::Status WriteAddress(const std::string& file, int port) {
  if (file.empty()) return absl::OkStatus();
  return WriteFileAtomically(file, absl::StrCat("127.0.0.1:", port, "\n"));
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
  args.AddString("tokens", "", "file of '<worker-id> <token>' lines");
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

  absl::StatusOr<pb::RunConfig> config = LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return Fail(config.status());
  // Every outside input is checked before the run folder is touched.
  absl::StatusOr<std::map<std::string, std::string>> tokens =
      ReadTokens(args.GetString("tokens"));
  if (!tokens.ok()) return Fail(tokens.status());
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials({args.GetString("tls-cert"), args.GetString("tls-key"),
                             args.GetString("tls-client-ca")});
  if (!credentials.ok()) return Fail(credentials.status());
  const std::string run_dir = args.GetString("run-dir");
  std::error_code error;
  fs::create_directories(run_dir, error);
  const std::string db_path = (fs::path(run_dir) / "run.sqlite").string();
  absl::StatusOr<std::unique_ptr<GameStore>> store = GameStore::Open(db_path);
  if (!store.ok()) return Fail(store.status());
  absl::StatusOr<std::unique_ptr<MatchStore>> matches = MatchStore::Open(db_path);
  if (!matches.ok()) return Fail(matches.status());
  RENJU_LOG(INFO) << "config:\n" << RunConfigText(*config);

  std::unique_ptr<DataParallelGroup> group;
  if (world_size > 1) {
    RENJU_LOG(INFO) << "rank " << rank << " of " << world_size
                    << " joining " << args.GetString("init-method");
    DistributedOptions distributed;
    distributed.rank = rank;
    distributed.world_size = world_size;
    distributed.init_method = args.GetString("init-method");
    absl::StatusOr<std::unique_ptr<DataParallelGroup>> joined =
        DataParallelGroup::Connect(distributed);
    if (!joined.ok()) return Fail(joined.status());
    group = std::move(*joined);
  }
  Publisher publisher(*config, run_dir, store->get(), matches->get());
  TrainingLoopOptions loop_options = ToTrainingLoopOptions(*config, run_dir);
  loop_options.stop_after_generation = args.GetInt("generations");
  absl::StatusOr<std::unique_ptr<TrainingLoop>> loop = TrainingLoop::Create(
      loop_options, store->get(),
      [&](int64_t generation, const std::string& path, int64_t step,
          int64_t games) { return publisher.Publish(generation, path, step, games); },
      group.get());
  if (!loop.ok()) return Fail(loop.status());
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (rank > 0) return RunLoopUntilStopped(**loop);
  absl::StatusOr<std::vector<ModelEntry>> models = (*store)->Models();
  if (!models.ok()) return Fail(models.status());
  if (models->empty()) {
    if (absl::Status s = (*loop)->PublishInitialModel(); !s.ok()) return Fail(s);
  }

  TrainerServiceOptions service_options;
  service_options.worker_tokens = *tokens;
  service_options.variant = *ParseVariant(config->variant());  // validated
  service_options.board_size = config->board_size();
  TrainerService service(
      store->get(), service_options,
      [&](int64_t, int64_t) { (*loop)->NotifyNewGames(); },
      [&](pb::TrainerStatus* status) { (*loop)->FillStatus(status); });
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(args.GetString("listen"), *credentials, &port);
  builder.RegisterService(&service);
  builder.SetMaxReceiveMessageSize(64 << 20);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return Fail(absl::UnavailableError(
        absl::StrCat("trainer: cannot listen on ", args.GetString("listen"))));
  }
  if (absl::Status s = WriteAddress(args.GetString("address-file"), port); !s.ok()) {
    return Fail(s);
  }
  RENJU_LOG(INFO) << "trainer listening on port " << port << ", run folder "
                  << run_dir;
  const int code = RunLoopUntilStopped(**loop);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  return code;
}

}  // namespace renju::commands
