#include "trainer/training_loop.h"

#include <torch/types.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/logging.h"
#include "base/random.h"
#include "base/run_folder.h"
#include "config/config.h"
#include "nn/model.h"
#include "trainer/distributed.h"
#include "trainer/plots.h"

namespace renju {
namespace {

constexpr int kReadChunk = 256;
// A waiting rank 0 looks at the store (and tells the other ranks it is
// still there) at least this often.
constexpr absl::Duration kPollInterval = absl::Seconds(1);
// A save or publish that found the disk full is tried again after 1 s,
// doubling up to this: soon after space is freed, without a log line a
// second for an operator who is away.
constexpr absl::Duration kMaxRetryWait = absl::Seconds(30);

// Keys of the loop's own lines in the training state.
constexpr char kSamplesTrained[] = "samples_trained";
constexpr char kPositionsIngested[] = "positions_ingested";
constexpr char kGamesIngested[] = "games_ingested";
constexpr char kWindowFirstGame[] = "window_first_game";
constexpr char kWindowGames[] = "window_games";
constexpr char kLastGame[] = "last_game";
constexpr char kGeneration[] = "generation";
constexpr char kSamplerSeed[] = "sampler_seed";

// The loop's lines in the training state.
struct SavedCounters {
  int64_t samples_trained = 0;
  int64_t positions_ingested = 0;
  int64_t games_ingested = 0;
  int64_t window_first_game = 0;  // 0: the window was empty
  int64_t window_games = 0;
  int64_t last_game = 0;
  int64_t generation = 0;
  int64_t sampler_seed = 0;
};

absl::StatusOr<SavedCounters> ParseCounters(
    const std::vector<std::pair<std::string, std::string>>& lines,
    const std::string& path) {
  const absl::flat_hash_map<std::string, std::string> map(lines.begin(),
                                                          lines.end());
  SavedCounters c;
  for (const auto& [key, field] :
       {std::pair{kSamplesTrained, &c.samples_trained},
        std::pair{kPositionsIngested, &c.positions_ingested},
        std::pair{kGamesIngested, &c.games_ingested},
        std::pair{kWindowFirstGame, &c.window_first_game},
        std::pair{kWindowGames, &c.window_games},
        std::pair{kLastGame, &c.last_game},
        std::pair{kGeneration, &c.generation},
        std::pair{kSamplerSeed, &c.sampler_seed}}) {
    auto it = map.find(key);
    if (it == map.end() || !absl::SimpleAtoi(it->second, field) || *field < 0) {
      return absl::DataLossError(absl::StrCat("training state ", path,
                                              ": missing or bad '", key, "'"));
    }
  }
  return c;
}

}  // namespace

TrainingLoop::TrainingLoop(TrainingLoopOptions options, GameStore* store,
                           PublishFn publish, DataParallelGroup* group)
    : options_(std::move(options)),
      store_(store),
      publish_(std::move(publish)),
      group_(group),
      window_(options_.network.board_size, options_.window,
              options_.network.encoding_version),
      sampler_seed_(options_.seed) {}

TrainingLoop::~TrainingLoop() {
  if (thread_.joinable()) Stop().IgnoreError();
}

absl::StatusOr<std::unique_ptr<TrainingLoop>> TrainingLoop::Create(
    TrainingLoopOptions options, GameStore* store, PublishFn publish,
    DataParallelGroup* group) {
  const int world = group == nullptr ? 1 : group->world_size();
  if (absl::Status s = ValidateTrainingLoopOptions(options, world); !s.ok()) {
    return s;
  }
  if (options.torch_threads > 0) SetIntraOpThreads(options.torch_threads);
  std::error_code error;
  const RunFolder run{options.run_dir};
  for (const RunFolder::Path& sub : {run.trainer_state_dir(), run.models()}) {
    std::filesystem::create_directories(sub, error);
    if (error) {
      return absl::UnavailableError(
          absl::StrCat("creating ", sub.string(), ": ", error.message()));
    }
  }
  std::unique_ptr<TrainingLoop> loop(
      new TrainingLoop(std::move(options), store, std::move(publish), group));
  absl::StatusOr<std::unique_ptr<NetworkTrainer>> trainer =
      NetworkTrainer::Create(loop->options_.network, loop->options_.training,
                             loop->options_.seed, group);
  if (!trainer.ok()) return trainer.status();
  loop->trainer_ = *std::move(trainer);
  if (absl::Status s = loop->Restore(); !s.ok()) return s;
  loop->PublishStatus(false);
  return loop;
}

std::string TrainingLoop::state_path() const {
  return RunFolder{options_.run_dir}.training_state().string();
}

std::string TrainingLoop::model_path(int64_t generation) const {
  return RunFolder{options_.run_dir}.model(generation).string();
}

bool TrainingLoop::is_rank0() const {
  return group_ == nullptr || group_->rank() == 0;
}

absl::Status TrainingLoop::Restore() {
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return models.status();
  for (const ModelEntry& m : *models) {
    generation_ = std::max(generation_, m.generation);
  }
  const std::string path = state_path();
  if (!std::filesystem::exists(path)) return absl::OkStatus();

  auto extra = trainer_->LoadState(path);
  if (!extra.ok()) return extra.status();
  absl::StatusOr<SavedCounters> saved = ParseCounters(*extra, path);
  if (!saved.ok()) return saved.status();
  samples_trained_ = saved->samples_trained;
  games_ingested_ = saved->games_ingested;
  last_game_id_ = saved->last_game;
  generation_ = std::max(generation_, saved->generation);
  sampler_seed_ = static_cast<uint64_t>(saved->sampler_seed);

  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> games =
      ReadGameRange(saved->window_first_game, saved->last_game);
  if (!games.ok()) return games.status();
  absl::Status restored = window_.Restore(saved->positions_ingested, *games);
  if (restored.ok() && window_.num_games() != saved->window_games) {
    restored = absl::DataLossError(
        absl::StrCat("found ", window_.num_games(), " games with positions, ",
                     "the state says ", saved->window_games));
  }
  if (!restored.ok()) {
    return absl::DataLossError(absl::StrCat(
        "training state ", path, ": rebuilding the replay window from games ",
        saved->window_first_game, "..", saved->last_game,
        " of the store: ", restored.message()));
  }
  saved_step_ = trainer_->step();
  RENJU_LOG(INFO) << "resumed training at step " << trainer_->step() << " from "
                  << path << ": window " << window_.window_positions()
                  << " positions in " << window_.num_games() << " games, "
                  << window_.total_positions() << " positions ingested";
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::pair<int64_t, std::string>>>
TrainingLoop::ReadGameRange(int64_t first, int64_t last) {
  std::vector<std::pair<int64_t, std::string>> games;
  if (first <= 0) return games;
  for (int64_t after = first - 1;;) {
    absl::StatusOr<std::vector<StoredGame>> chunk =
        store_->ReadGamesAfter(after, kReadChunk);
    if (!chunk.ok()) return chunk.status();
    if (chunk->empty()) return games;
    for (StoredGame& g : *chunk) {
      if (g.id > last) return games;
      after = g.id;
      games.emplace_back(g.id, std::move(g.record));
    }
  }
}

absl::Status TrainingLoop::PublishInitialModel() {
  if (!is_rank0()) {
    return absl::FailedPreconditionError("only rank 0 publishes models");
  }
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return models.status();
  if (!models->empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the model registry already has generation ", models->back().generation,
        "; generation 0 is for an empty one"));
  }
  // At start-up nothing is worth waiting for: the operator sees the error.
  if (absl::Status s = ExportAndRegister(0); !s.ok()) return s;
  return SaveState();
}

absl::Status TrainingLoop::ExportAndRegister(int64_t generation) {
  CheckpointInfo info;
  info.variants = options_.variants;
  info.generation = generation;
  info.training_step = trainer_->step();
  const std::string path = model_path(generation);
  absl::StatusOr<std::string> hash = trainer_->ExportModel(path, info);
  if (!hash.ok()) return hash.status();
  if (publish_) {
    absl::Status s =
        publish_(generation, path, trainer_->step(), games_ingested_);
    if (!s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat("publishing generation ", generation, ": ",
                                 s.message()));
    }
  }
  generation_ = generation;
  RENJU_LOG(INFO) << "published generation " << generation << " at step "
                  << trainer_->step() << ": " << path;
  return absl::OkStatus();
}

absl::Status TrainingLoop::Publish(int64_t generation) {
  if (absl::Status s =
          RetryWhileDiskFull(absl::StrCat("publishing generation ", generation),
                             [&] { return ExportAndRegister(generation); });
      !s.ok()) {
    return s;
  }
  return RetryWhileDiskFull("saving the training state",
                            [&] { return SaveState(); });
}

// Files are replaced atomically, so a failed write leaves the last good
// checkpoint and models in place; giving up would also throw away the steps
// trained since that checkpoint, and a restart would meet the same full
// disk. So the loop waits here (uploads fail meanwhile, and workers keep
// their games) and goes on once space is freed.
absl::Status TrainingLoop::RetryWhileDiskFull(
    const std::string& what, const std::function<absl::Status()>& attempt) {
  absl::Duration wait = absl::Seconds(1);
  for (;;) {
    const absl::Status s = attempt();
    if (s.ok() || !(absl::IsResourceExhausted(s) || absl::IsUnavailable(s))) {
      return s;
    }
    RENJU_LOG(WARNING) << what << " failed"
                       << (absl::IsResourceExhausted(s) ? ", the disk is full"
                                                        : "")
                       << "; trying again in " << absl::FormatDuration(wait)
                       << ", the last good files stay in place: " << s;
    absl::MutexLock lock(&mutex_);
    if (mutex_.AwaitWithTimeout(absl::Condition(&stop_requested_), wait)) {
      return s;
    }
    wait = std::min(wait * 2, kMaxRetryWait);
  }
}

absl::Status TrainingLoop::SaveState() {
  if (!is_rank0()) return absl::OkStatus();
  const std::vector<std::pair<std::string, std::string>> extra = {
      {kSamplesTrained, absl::StrCat(samples_trained_)},
      {kPositionsIngested, absl::StrCat(window_.total_positions())},
      {kGamesIngested, absl::StrCat(games_ingested_)},
      {kWindowFirstGame, absl::StrCat(window_.first_game_id())},
      {kWindowGames, absl::StrCat(window_.num_games())},
      {kLastGame, absl::StrCat(last_game_id_)},
      {kGeneration, absl::StrCat(generation_)},
      {kSamplerSeed, absl::StrCat(sampler_seed_)},
  };
  if (absl::Status s = trainer_->SaveState(state_path(), extra); !s.ok()) {
    return s;
  }
  saved_step_ = trainer_->step();
  return absl::OkStatus();
}

absl::Status TrainingLoop::IngestGames(int64_t up_to_id) {
  while (last_game_id_ < up_to_id) {
    absl::StatusOr<std::vector<StoredGame>> chunk =
        store_->ReadGamesAfter(last_game_id_, kReadChunk);
    if (!chunk.ok()) return chunk.status();
    for (const StoredGame& g : *chunk) {
      if (g.id > up_to_id) return absl::OkStatus();
      // The store holds validated games only; one that fails here is
      // damaged. Skipping it (on every rank alike) loses one game, not
      // the run.
      if (absl::StatusOr<int> added = window_.AddGame(g.id, g.record);
          !added.ok()) {
        RENJU_LOG(WARNING) << "replay window skips a game: " << added.status();
      }
      last_game_id_ = g.id;
      ++games_ingested_;
    }
    if (static_cast<int>(chunk->size()) < kReadChunk) break;
  }
  return absl::OkStatus();
}

bool TrainingLoop::CanTrain() const {
  const int64_t positions = window_.total_positions();
  return !window_.empty() && positions >= options_.min_positions &&
         static_cast<double>(samples_trained_ + options_.batch_size) <=
             options_.samples_per_position * static_cast<double>(positions);
}

absl::StatusOr<TrainingLoop::Round> TrainingLoop::Decide() {
  constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  if (!is_rank0()) {
    torch::Tensor message = torch::zeros({2}, torch::kInt64);
    if (absl::Status s = group_->Broadcast(message); !s.ok()) return s;
    const int64_t target = message[1].item<int64_t>();
    if (absl::Status s = IngestGames(target); !s.ok()) return s;
    if (last_game_id_ != target) {
      return absl::DataLossError(
          absl::StrCat("rank ", group_->rank(), " could read games up to ",
                       last_game_id_, " only; rank 0 has up to ", target));
    }
    return static_cast<Round>(message[0].item<int64_t>());
  }
  bool stop = done_after_round_;
  {
    absl::MutexLock lock(&mutex_);
    stop = stop || stop_requested_;
  }
  if (!stop) {
    if (absl::Status s = IngestGames(kAll); !s.ok()) return s;
  }
  const Round round = stop         ? Round::kStopped
                      : CanTrain() ? Round::kTrained
                                   : Round::kWaiting;
  if (group_ != nullptr) {
    torch::Tensor message = torch::tensor(
        {static_cast<int64_t>(round), last_game_id_}, torch::kInt64);
    if (absl::Status s = group_->Broadcast(message); !s.ok()) return s;
  }
  return round;
}

absl::StatusOr<TrainingLoop::Round> TrainingLoop::RunOnce() {
  absl::StatusOr<Round> round = Decide();
  if (!round.ok()) return round.status();
  if (*round == Round::kTrained) {
    if (absl::Status s = TrainStep(); !s.ok()) return s;
  }
  PublishStatus(*round == Round::kWaiting);
  return *round;
}

absl::Status TrainingLoop::TrainStep() {
  const int world = group_ == nullptr ? 1 : group_->world_size();
  const int rank = group_ == nullptr ? 0 : group_->rank();
  // The sampler's state is (seed, step): nothing else to save for an exact
  // resume, and each rank draws from its own stream.
  const uint64_t seed = MixBits(
      sampler_seed_ ^ MixBits(trainer_->step() * kMaxTrainingRanks + rank));
  if (last_log_time_ == absl::InfinitePast()) {
    last_log_time_ = absl::Now();
    samples_at_last_log_ = samples_trained_;
  }
  window_.Sample(options_.batch_size / world, seed, batch_,
                 options_.sampling_threads);
  absl::StatusOr<StepStats> stats = trainer_->Step(batch_);
  if (!stats.ok()) return stats.status();
  last_step_ = *stats;
  samples_trained_ += options_.batch_size;
  const int64_t step = trainer_->step();
  if (step % options_.log_every_steps == 0 && is_rank0()) LogProgress();
  if (step % options_.steps_per_generation == 0) {
    if (is_rank0()) {
      if (absl::Status s = Publish(generation_ + 1); !s.ok()) return s;
    } else {
      ++generation_;
    }
    if (options_.stop_after_generation > 0 &&
        generation_ >= options_.stop_after_generation) {
      done_after_round_ = true;
    }
  } else if (step % options_.checkpoint_every_steps == 0) {
    if (absl::Status s = RetryWhileDiskFull("saving the training state",
                                            [&] { return SaveState(); });
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

void TrainingLoop::NotifyNewGames() {
  absl::MutexLock lock(&mutex_);
  new_games_ = true;
}

bool TrainingLoop::ShouldWake() const { return new_games_ || stop_requested_; }

void TrainingLoop::Start() {
  if (thread_.joinable()) return;
  {
    absl::MutexLock lock(&mutex_);
    status_.running = true;
  }
  thread_ = std::thread([this] { ThreadBody(); });
}

void TrainingLoop::ThreadBody() {
  absl::Status status;
  while (true) {
    absl::StatusOr<Round> round = RunOnce();
    if (!round.ok()) {
      status = round.status();
      break;
    }
    if (*round == Round::kStopped) break;
    if (*round == Round::kWaiting && is_rank0()) {
      absl::MutexLock lock(&mutex_);
      mutex_.AwaitWithTimeout(absl::Condition(this, &TrainingLoop::ShouldWake),
                              kPollInterval);
      new_games_ = false;
    }
  }
  if (status.ok() && trainer_->step() != saved_step_) status = SaveState();
  if (!status.ok()) RENJU_LOG(ERROR) << "training loop stopped: " << status;
  {
    absl::MutexLock lock(&mutex_);
    final_status_ = status;
    status_.running = false;
  }
  thread_done_.Notify();
}

absl::Status TrainingLoop::Wait() {
  if (thread_.joinable()) thread_done_.WaitForNotification();
  absl::MutexLock lock(&mutex_);
  return final_status_;
}

absl::Status TrainingLoop::Stop() {
  {
    absl::MutexLock lock(&mutex_);
    stop_requested_ = true;
  }
  if (thread_.joinable()) thread_.join();
  absl::MutexLock lock(&mutex_);
  return final_status_;
}

}  // namespace renju
