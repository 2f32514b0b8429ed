// The trainer's learning half: games flow from the store into the replay
// window, batches from the window into NetworkTrainer, and every
// steps_per_generation steps the weights go out as a new generation.
//
//   GameStore --ReadGamesAfter--> ReplayWindow --Sample--> NetworkTrainer
//        ^                                                    |  Step
//   NotifyNewGames (the service's on_stored)       checkpoint |  every N steps
//                                           publish callback  v  every M steps
//
// Pacing: the loop trains only while
//   samples trained + batch_size <= samples_per_position * positions ingested
// and at least min_positions have come in; otherwise it waits for
// NotifyNewGames (or polls the store every second), so training neither
// starves nor overfits whatever the self-play speed.
//
// Files under run_dir (all ranks must see the same run_dir):
//   trainer/training_state.ckpt  the training state (NetworkTrainer::SaveState)
//                                plus counters, the window's game-id range and
//                                the last generation; a restart resumes from it
//                                exactly
//   models/gen<N>.model          published generations (inference checkpoints;
//                                the weight average with ema_decay > 0)
//   training.csv                 the loss log (plots.h)
//
// Data parallel: with a DataParallelGroup every rank runs a loop on the same
// store; rank 0 decides each round (train, wait or stop, and up to which
// game to ingest) and broadcasts it, each rank samples its own share of the
// batch from its own random stream, and only rank 0 writes files and
// publishes.
//
// Thread-safety: Start/Stop/Wait/NotifyNewGames/GetStatus/FillStatus may be
// called from any thread; RunOnce and the Publish/Save calls only while the
// loop's own thread is not running.
#ifndef RENJU_TRAINER_TRAINING_LOOP_H_
#define RENJU_TRAINER_TRAINING_LOOP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "nn/network_config.h"
#include "proto/config.pb.h"
#include "proto/trainer.pb.h"
#include "rules/types.h"
#include "trainer/game_store.h"
#include "trainer/network_trainer.h"
#include "trainer/replay_window.h"

namespace renju {

class DataParallelGroup;

struct TrainingLoopOptions {
  std::string run_dir;
  NetworkConfig network;
  // Recorded in published checkpoints.
  std::vector<Variant> variants = {Variant::kRenju};
  TrainingOptions training;
  // Positions per step over all ranks; a multiple of the number of ranks.
  int batch_size = 256;
  WindowParams window;
  int64_t min_positions = 2000;
  double samples_per_position = 4;
  // Self-play pauses while stored positions lead samples_trained /
  // samples_per_position by more than this (0: never); see FillStatus.
  int64_t selfplay_lead_positions = 0;
  int64_t steps_per_generation = 500;
  int64_t checkpoint_every_steps = 100;
  // One log line every this many steps.
  int64_t log_every_steps = 50;
  // LibTorch intra-op threads (process-wide); 0 leaves LibTorch's default.
  int torch_threads = 0;
  // Threads that sample and encode each batch (ReplayWindow::Sample); the
  // batch does not depend on it.
  int sampling_threads = 2;
  // Seeds the initial weights and the sampler.
  uint64_t seed = 1;
  // The loop ends by itself after publishing this generation (0: never).
  int64_t stop_after_generation = 0;
};

// The options a run config asks for; `config` must be valid
// (training_loop_options.cc).
TrainingLoopOptions ToTrainingLoopOptions(const pb::RunConfig& config,
                                          const std::string& run_dir);

// The most ranks a loop trains on: it keeps their sampler streams apart.
inline constexpr uint64_t kMaxTrainingRanks = 1 << 16;

// INVALID_ARGUMENT naming the option and what was expected when `o` does
// not suit a loop on `world_size` ranks; TrainingLoop::Create checks.
absl::Status ValidateTrainingLoopOptions(const TrainingLoopOptions& o,
                                         int world_size);

// Registers a published generation: (generation, checkpoint path, training
// step, games ingested so far). Called on the loop's thread; an error stops
// the loop.
using PublishFn =
    std::function<absl::Status(int64_t generation, const std::string& path,
                               int64_t step, int64_t games_seen)>;

struct TrainingLoopStatus {
  int64_t games_ingested = 0;
  int64_t positions_ingested = 0;
  int64_t window_positions = 0;
  int64_t window_games = 0;
  int64_t step = 0;
  int64_t samples_trained = 0;
  // Samples trained per second between the last two log lines
  // (log_every_steps apart), waits included; 0 before the second.
  double samples_per_second = 0;
  int64_t generation = 0;  // the last one published (0: the initial net)
  bool waiting_for_games = false;
  // Rounds that found too little new data to train on (each a wait).
  int64_t idle_rounds = 0;
  bool running = false;
  StepStats last_step;  // zero before the first step
};

class TrainingLoop {
 public:
  // Builds the network (fresh from options.seed, or from the saved training
  // state when run_dir has one, whose window it rebuilds from `store`).
  // `store` and `group` (null: one rank) must outlive the loop. The next
  // generation number follows both the saved state and the store's model
  // registry, so a generation is never published twice.
  static absl::StatusOr<std::unique_ptr<TrainingLoop>> Create(
      TrainingLoopOptions options, GameStore* store, PublishFn publish,
      DataParallelGroup* group = nullptr);
  // Stops the loop's thread if it runs.
  ~TrainingLoop();
  TrainingLoop(const TrainingLoop&) = delete;
  TrainingLoop& operator=(const TrainingLoop&) = delete;

  // Exports the current weights (a fresh network unless a state was
  // loaded) as generation 0 and publishes them, so workers have something
  // to play. Only into an empty model registry (else FailedPrecondition),
  // and on rank 0.
  absl::Status PublishInitialModel();

  // Runs the loop on its own thread until Stop(), an error, or
  // stop_after_generation.
  void Start();
  // Asks the thread to stop after its current step, saves the training
  // state (rank 0) and returns the thread's final status. A rank other
  // than 0 stops when rank 0 does.
  absl::Status Stop();
  // Blocks until the thread ends by itself (stop_after_generation or an
  // error) or is stopped; returns its final status.
  absl::Status Wait();
  // New games are in the store (the service's on_stored callback).
  void NotifyNewGames();

  enum class Round { kTrained, kWaiting, kStopped };
  // One round of the loop's body: ingest new games, then take one step if
  // pacing allows (checkpointing and publishing when due). For tests and
  // single-threaded callers; not while Start()ed.
  absl::StatusOr<Round> RunOnce();
  // Writes the training state now (rank 0).
  absl::Status SaveState();

  TrainingLoopStatus GetStatus() const;
  // Blocks until `done(status)` holds or `timeout` has passed; returns
  // whether it holds. The status changes once a round, so a caller can wait
  // for a step, a generation or a wait without polling.
  bool AwaitStatus(const std::function<bool(const TrainingLoopStatus&)>& done,
                   absl::Duration timeout) const;
  // Adds window size, step, losses and samples trained to a TrainerStatus
  // reply whose total_positions is set, and decides selfplay_paused from
  // them: true while the stored positions lead what training consumed by
  // more than selfplay_lead_positions, unless the loop is waiting for games.
  void FillStatus(pb::TrainerStatus* status) const;

  // The network being trained, for tests and tools; not while Start()ed.
  NetworkTrainer& trainer() { return *trainer_; }

  std::string state_path() const;
  std::string model_path(int64_t generation) const;

 private:
  TrainingLoop(TrainingLoopOptions options, GameStore* store, PublishFn publish,
               DataParallelGroup* group);
  absl::Status Restore();
  // The stored games with first <= id <= last, in id order.
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> ReadGameRange(
      int64_t first, int64_t last);
  absl::Status IngestGames(int64_t up_to_id);
  bool CanTrain() const;
  // Rank 0's decision for this round, shared with the other ranks.
  absl::StatusOr<Round> Decide();
  absl::Status TrainStep();
  // Exports `generation` and hands it to publish_; sets generation_.
  absl::Status ExportAndRegister(int64_t generation);
  // ExportAndRegister, then SaveState, each retried while the disk is full.
  absl::Status Publish(int64_t generation);
  // Runs `attempt` until it succeeds, fails other than RESOURCE_EXHAUSTED
  // (a full disk) or UNAVAILABLE (a file that could not be written), or
  // Stop() is called (its last failure then). Between tries it waits, 1 s
  // doubling to 30 s, and logs `what` and why.
  absl::Status RetryWhileDiskFull(const std::string& what,
                                  const std::function<absl::Status()>& attempt);
  void LogProgress();
  void AppendLossRow(const StepStats& s);
  void ThreadBody();
  void PublishStatus(bool waiting);
  bool ShouldWake() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool is_rank0() const;

  const TrainingLoopOptions options_;
  GameStore* const store_;
  const PublishFn publish_;
  DataParallelGroup* const group_;

  // Owned by the loop's thread (or RunOnce's caller).
  std::unique_ptr<NetworkTrainer> trainer_;
  ReplayWindow window_;
  TrainingBatch batch_;
  int64_t last_game_id_ = 0;
  int64_t games_ingested_ = 0;
  int64_t samples_trained_ = 0;
  int64_t generation_ = 0;
  uint64_t sampler_seed_;
  int64_t saved_step_ = -1;
  bool done_after_round_ = false;
  StepStats last_step_;
  int64_t samples_at_last_log_ = 0;
  double samples_per_second_ = 0;
  absl::Time last_log_time_ = absl::InfinitePast();

  mutable absl::Mutex mutex_;
  bool stop_requested_ ABSL_GUARDED_BY(mutex_) = false;
  bool new_games_ ABSL_GUARDED_BY(mutex_) = false;
  TrainingLoopStatus status_ ABSL_GUARDED_BY(mutex_);
  absl::Status final_status_ ABSL_GUARDED_BY(mutex_);
  std::thread thread_;
  absl::Notification thread_done_;
};

}  // namespace renju

#endif  // RENJU_TRAINER_TRAINING_LOOP_H_
