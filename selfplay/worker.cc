#include "selfplay/worker.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "base/logging.h"
#include "base/metrics.h"
#include "config/evaluator_config.h"
#include "http/http_server.h"
#include "rpc/trainer_client.h"
#include "selfplay/game_directory.h"
#include "selfplay/selfplay_runner.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Sleeps up to `ms`, waking early when `stop` is set. False if stopped.
bool SleepUnlessStopped(int64_t ms, const std::atomic<bool>* stop) {
  const auto end = Clock::now() + std::chrono::milliseconds(ms);
  while (Clock::now() < end) {
    if (stop->load()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !stop->load();
}

// What the worker counts for Prometheus; the registry owns them.
struct WorkerMetrics {
  explicit WorkerMetrics(MetricsRegistry& registry)
      : games_finished(registry.AddCounter("renju_worker_games_finished_total",
                                           "Self-play games finished.")),
        games_delivered(registry.AddCounter(
            "renju_worker_games_delivered_total",
            "Games the trainer acknowledged (stored, duplicate or rejected).")),
        games_rejected(
            registry.AddCounter("renju_worker_games_rejected_total",
                                "Games the trainer acknowledged as rejected.")),
        upload_failures(registry.AddCounter(
            "renju_worker_upload_failures_total",
            "Uploads that failed (the games are kept and sent again).")),
        generation(registry.AddGauge(
            "renju_worker_generation",
            "The generation the worker plays with its own network.")),
        paused(registry.AddGauge(
            "renju_worker_paused",
            "1 while the trainer asks for no new games, else 0.")),
        evaluator(RegisterEvaluatorMetrics(registry)) {}

  Counter& games_finished;
  Counter& games_delivered;
  Counter& games_rejected;
  Counter& upload_failures;
  Gauge& generation;
  Gauge& paused;
  EvaluatorMetrics evaluator;
};

class Worker {
 public:
  // `metrics` must outlive the worker.
  Worker(const pb::RunConfig& config, const WorkerOptions& options,
         std::unique_ptr<TrainerClient> client, GameDirectory pending,
         WorkerMetrics& metrics)
      : config_(config),
        options_(options),
        client_(std::move(client)),
        pending_(std::move(pending)),
        metrics_(metrics),
        rng_(options.seed, 0x77) {}

  absl::Status Run(const std::atomic<bool>* external_stop);

 private:
  // Waits until the trainer answers with a model and loads it.
  absl::Status LoadFirstModel();
  absl::StatusOr<std::shared_ptr<EvaluatorStack>> FetchAndLoad(
      const pb::ModelInfo& info);
  void PollModels();
  // Follows the trainer's selfplay_paused (trainer.selfplay_lead_positions)
  // into paused_, which the game threads obey between games.
  void FollowPacing();
  // Uploads pending games until none are left or an upload fails.
  struct UploadRound {
    // Games the trainer acknowledged (their files are gone), counted even
    // when a later batch of the round failed.
    int64_t acknowledged = 0;
    bool failed = false;
  };
  UploadRound UploadPending();
  void UploadLoop();
  // The reporter's line every 10 s.
  void LogProgress(const SelfplayTally& tally);
  // A finished game into the pending folder, until the trainer has it.
  absl::Status KeepGame(const pb::GameRecord& game);
  void LogAcks(const std::vector<pb::GameAck>& acks) const;
  bool HasPendingGames() const {
    absl::StatusOr<std::vector<std::string>> uids = pending_.ListUids();
    return uids.ok() && !uids->empty();
  }

  std::shared_ptr<EvaluatorStack> current() {
    absl::MutexLock lock(&mutex_);
    return current_;
  }

  const pb::RunConfig& config_;
  const WorkerOptions& options_;
  std::unique_ptr<TrainerClient> client_;
  GameDirectory pending_;
  WorkerMetrics& metrics_;
  Random rng_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> delivered_{0};
  std::atomic<int64_t> finished_{0};
  std::atomic<bool> paused_{false};
  absl::Mutex mutex_;
  std::shared_ptr<EvaluatorStack> current_ ABSL_GUARDED_BY(mutex_);
};

absl::StatusOr<std::shared_ptr<EvaluatorStack>> Worker::FetchAndLoad(
    const pb::ModelInfo& info) {
  const fs::path dir = fs::path(options_.pending_dir) / "models";
  std::error_code error;
  fs::create_directories(dir, error);
  const std::string path =
      (dir / absl::StrCat("gen", info.generation(), ".model")).string();
  absl::StatusOr<pb::ModelInfo> fetched =
      client_->FetchModel(info.generation(), path);
  if (!fetched.ok()) return fetched.status();
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack = CreateEvaluatorStack(
      config_, config_.selfplay().evaluator(), path,
      options_.seed + info.generation(), metrics_.evaluator);
  if (!stack.ok()) return stack.status();
  return std::shared_ptr<EvaluatorStack>(std::move(*stack));
}

absl::Status Worker::LoadFirstModel() {
  int64_t backoff_ms = 200;
  for (;;) {
    absl::StatusOr<pb::ModelInfo> info = client_->GetCurrentModel();
    if (info.ok()) {
      absl::StatusOr<std::shared_ptr<EvaluatorStack>> stack =
          FetchAndLoad(*info);
      if (stack.ok()) {
        absl::MutexLock lock(&mutex_);
        current_ = *stack;
        metrics_.generation.Set(info->generation());
        RENJU_LOG(INFO) << options_.worker_id << ": playing generation "
                        << info->generation();
        return absl::OkStatus();
      }
      // A corrupt or mismatched model is not worth retrying blindly.
      if (!absl::IsUnavailable(stack.status()) &&
          !absl::IsDeadlineExceeded(stack.status()) &&
          !absl::IsDataLoss(stack.status())) {
        return stack.status();
      }
      RENJU_LOG(WARNING) << options_.worker_id << ": " << stack.status();
    } else {
      RENJU_LOG(INFO) << options_.worker_id << ": waiting for the trainer: "
                      << info.status().message();
    }
    if (!SleepUnlessStopped(backoff_ms, &stop_)) {
      return absl::CancelledError("stopped before a model arrived");
    }
    backoff_ms = std::min<int64_t>(backoff_ms * 2, 5000);
  }
}

void Worker::PollModels() {
  const int64_t poll_ms = 1000LL * config_.selfplay().model_poll_seconds();
  while (SleepUnlessStopped(poll_ms, &stop_)) {
    absl::StatusOr<pb::ModelInfo> info = client_->GetCurrentModel();
    if (!info.ok()) continue;
    if (info->generation() <= current()->generation()) continue;
    // Spread the fleet's downloads over model_switch_delay_ms.
    const int64_t delay = static_cast<int64_t>(
        rng_.Uniform() * config_.selfplay().model_switch_delay_ms());
    if (!SleepUnlessStopped(delay, &stop_)) return;
    absl::StatusOr<std::shared_ptr<EvaluatorStack>> stack = FetchAndLoad(*info);
    if (!stack.ok()) {
      RENJU_LOG(WARNING) << options_.worker_id
                         << ": cannot switch to generation "
                         << info->generation() << ": " << stack.status();
      continue;
    }
    absl::MutexLock lock(&mutex_);
    current_ = *stack;
    metrics_.generation.Set(info->generation());
    RENJU_LOG(INFO) << options_.worker_id << ": switched to generation "
                    << info->generation();
  }
}

void Worker::FollowPacing() {
  // While paused, often enough that the fleet resumes within a fraction of
  // a training step's worth of time; otherwise as often as it looks for
  // models, since a late pause only lets the lead run a little over (and
  // the trainer's SQLite answers every poll). An unreachable trainer does
  // not pause.
  constexpr int64_t kPausedPollMs = 500;
  const int64_t running_poll_ms =
      1000LL * config_.selfplay().model_poll_seconds();
  bool was_paused = false;
  while (SleepUnlessStopped(was_paused ? kPausedPollMs : running_poll_ms,
                            &stop_)) {
    absl::StatusOr<pb::TrainerStatus> status = client_->GetStatus();
    const bool paused = status.ok() && status->selfplay_paused();
    paused_ = paused;
    metrics_.paused.Set(paused ? 1 : 0);
    if (paused != was_paused) {
      RENJU_LOG(INFO) << options_.worker_id
                      << (paused
                              ? ": pausing new games while training catches up"
                              : ": resuming new games");
      was_paused = paused;
    }
  }
  paused_ = false;
  metrics_.paused.Set(0);
}

Worker::UploadRound Worker::UploadPending() {
  UploadRound round;
  absl::StatusOr<std::vector<std::string>> uids = pending_.ListUids();
  if (!uids.ok()) {
    RENJU_LOG(ERROR) << uids.status();
    return round;
  }
  const size_t batch_size = config_.selfplay().upload_batch_games();
  for (size_t start = 0; start < uids->size(); start += batch_size) {
    std::vector<pb::GameRecord> games;
    std::vector<std::string> batch_uids;
    for (size_t i = start; i < std::min(uids->size(), start + batch_size);
         ++i) {
      absl::StatusOr<pb::GameRecord> game = pending_.Read((*uids)[i]);
      if (!game.ok()) {
        RENJU_LOG(ERROR) << game.status();
        // Unreadable for good: out of the way, or a worker with --games
        // would wait for it to be delivered forever.
        if (absl::IsDataLoss(game.status())) {
          absl::Status aside = pending_.SetAside((*uids)[i]);
          RENJU_LOG(ERROR) << options_.worker_id << ": "
                           << (aside.ok()
                                   ? absl::StrCat("set aside as ", (*uids)[i],
                                                  ".game.unreadable")
                                   : aside.ToString());
        }
        continue;
      }
      games.push_back(std::move(*game));
      batch_uids.push_back((*uids)[i]);
    }
    if (games.empty()) continue;
    absl::StatusOr<std::vector<pb::GameAck>> acks =
        client_->UploadGames(options_.worker_id, games);
    if (!acks.ok()) {
      metrics_.upload_failures.Increment();
      RENJU_LOG(WARNING) << options_.worker_id << ": upload failed, "
                         << uids->size() - start
                         << " games kept: " << acks.status();
      round.failed = true;
      return round;
    }
    // Logged before the files go: a worker killed between the two leaves
    // games the log calls acknowledged still pending (uploaded again, a
    // duplicate), never games stored without a line.
    LogAcks(*acks);
    for (const pb::GameAck& ack : *acks) {
      if (ack.outcome() == pb::GameAck::REJECTED) {
        metrics_.games_rejected.Increment();
        RENJU_LOG(ERROR) << options_.worker_id << ": trainer rejected "
                         << ack.uid() << ": " << ack.reason();
      }
      // Stored, duplicate or rejected: the trainer has decided; the file
      // has done its job.
      pending_.Remove(ack.uid()).IgnoreError();
      ++round.acknowledged;
    }
  }
  return round;
}

// One line per acknowledged batch, every uid with the trainer's verdict:
// what lets an outside check (tools/chaos_test.sh) find each game the
// worker was told is stored in the trainer's database.
void Worker::LogAcks(const std::vector<pb::GameAck>& acks) const {
  std::string line;
  for (const pb::GameAck& ack : acks) {
    // "stored", "duplicate" or "rejected".
    const std::string outcome =
        absl::AsciiStrToLower(pb::GameAck::Outcome_Name(ack.outcome()));
    absl::StrAppend(&line, " ", ack.uid(), "=", outcome);
  }
  RENJU_LOG(INFO) << options_.worker_id << ": acknowledged" << line;
}

void Worker::UploadLoop() {
  int64_t backoff_ms = 500;
  for (;;) {
    const UploadRound round = UploadPending();
    // A round that failed after some batches got through still delivered
    // those: their files are gone, and a worker with --games waits for
    // delivered to reach finished before it exits.
    if (round.acknowledged > 0) {
      delivered_ += round.acknowledged;
      metrics_.games_delivered.Increment(round.acknowledged);
    }
    if (stop_.load()) return;
    backoff_ms = round.failed ? std::min<int64_t>(backoff_ms * 2, 10000) : 500;
    if (!SleepUnlessStopped(backoff_ms, &stop_)) return;
  }
}

void Worker::LogProgress(const SelfplayTally& t) {
  const std::shared_ptr<EvaluatorStack> stack = current();
  RENJU_LOG(INFO) << absl::StrFormat(
      "%s: games %d (delivered %d) | black %d white %d draw %d | batch "
      "%.1f | gen %d",
      options_.worker_id, t.games, delivered_.load(), t.black_wins,
      t.white_wins, t.draws,
      stack ? stack->batch_stats().mean_batch_size() : 0.0,
      stack ? stack->generation() : options_.evaluators().generation);
}

absl::Status Worker::KeepGame(const pb::GameRecord& game) {
  absl::Status written = pending_.Write(game);
  // A full pending folder empties as the uploader delivers games: wait for
  // that rather than end the worker and drop the game (the other game
  // threads wait behind this one, so the worker pauses meanwhile).
  int64_t wait_ms = 1000;
  while (absl::IsResourceExhausted(written)) {
    RENJU_LOG(WARNING) << options_.worker_id
                       << ": the pending folder's disk is full, game "
                       << game.uid() << " waits " << wait_ms
                       << " ms to be kept: " << written.message();
    if (!SleepUnlessStopped(wait_ms, &stop_)) break;
    wait_ms = std::min<int64_t>(wait_ms * 2, 30000);
    written = pending_.Write(game);
  }
  ++finished_;
  // Counted once kept on disk, where the uploader finds it; the line lets
  // an outside check (tools/chaos_test.sh) account for every game.
  if (written.ok()) {
    metrics_.games_finished.Increment();
    RENJU_LOG(INFO) << options_.worker_id << ": kept game " << game.uid();
  }
  return written;
}

absl::Status Worker::Run(const std::atomic<bool>* external_stop) {
  std::thread stop_watch([&] {
    while (!stop_.load()) {
      if (external_stop != nullptr && external_stop->load()) stop_ = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  // With an evaluator of the caller's, the trainer only receives games.
  const bool own_models = !options_.evaluators;
  absl::Status status = own_models ? LoadFirstModel() : absl::OkStatus();
  if (!status.ok()) {
    stop_ = true;
    stop_watch.join();
    return absl::IsCancelled(status) ? absl::OkStatus() : status;
  }
  std::thread uploader([&] { UploadLoop(); });
  std::thread poller([&] {
    if (own_models) PollModels();
  });
  std::thread pacer([&] { FollowPacing(); });

  SelfplaySettings settings = SelfplaySettingsFrom(config_);
  settings.worker_id = options_.worker_id;
  SelfplayRunner runner(settings, config_.selfplay().concurrent_games(),
                        options_.seed);
  runner.set_pause_flag(&paused_);
  std::thread reporter([&] {
    while (SleepUnlessStopped(10000, &stop_)) LogProgress(runner.tally());
  });
  status = runner.Run(
      options_.max_games,
      own_models ? SelfplayRunner::EvaluatorSource([&] { return current(); })
                 : options_.evaluators,
      [&](const pb::GameRecord& game) { return KeepGame(game); }, &stop_);
  // Deliver what is left, games an earlier run of this worker kept
  // included (so restarting a worker with --games drains its folder), then
  // stop the helpers.
  if (status.ok() && options_.max_games > 0) {
    while (!stop_.load() &&
           (delivered_.load() < finished_.load() || HasPendingGames())) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  stop_ = true;
  uploader.join();
  poller.join();
  pacer.join();
  reporter.join();
  stop_watch.join();
  RENJU_LOG(INFO) << options_.worker_id << ": finished " << finished_.load()
                  << " games, delivered " << delivered_.load();
  return status;
}

}  // namespace

absl::Status RunWorker(const pb::RunConfig& config,
                       const WorkerOptions& options,
                       const std::atomic<bool>* stop) {
  MetricsRegistry registry;
  WorkerMetrics metrics(registry);
  // First, so that a bad --metrics address fails before anything is made.
  std::unique_ptr<HttpListener> metrics_server;
  if (!options.metrics_listen.empty()) {
    absl::StatusOr<std::unique_ptr<HttpListener>> started =
        StartMetricsListener(registry, options.metrics_listen, "--metrics");
    if (!started.ok()) return started.status();
    metrics_server = *std::move(started);
    RENJU_LOG(INFO) << options.worker_id << ": metrics on http://"
                    << BoundAddress(options.metrics_listen,
                                    metrics_server->port())
                    << "/metrics";
  }
  absl::StatusOr<GameDirectory> pending =
      GameDirectory::Open(options.pending_dir);
  if (!pending.ok()) return pending.status();
  absl::StatusOr<std::unique_ptr<TrainerClient>> client =
      TrainerClient::Create(options.trainer);
  if (!client.ok()) return client.status();
  Worker worker(config, options, std::move(*client), std::move(*pending),
                metrics);
  return worker.Run(stop);
}

}  // namespace renju
