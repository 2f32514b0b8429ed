// The training loop over a real game store: pacing by the samples-per-
// position ratio, waiting for and resuming on new games, publishing
// loadable generations, resuming exactly after a crash, and two ranks
// training in step.
#include "trainer/training_loop.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "base/file_util.h"
#include "config/config.h"
#include "gtest/gtest.h"
#include "nn/model.h"
#include "rpc/game_record.h"
#include "tests/trainer/training_test_util.h"
#include "trainer/distributed.h"
#include "trainer/plots.h"

namespace renju {
namespace {

using ::renju::testing::MaxDifference;
using ::renju::testing::SyntheticGame;
using ::renju::testing::TempDir;
using ::renju::testing::TestGameOptions;
using ::renju::testing::TestNetworkConfig;

struct Published {
  int64_t generation, step, games_seen;
  std::string path;
};

class TrainingLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = GameStore::Open(dir_ / "store.sqlite");
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  // Stores `count` synthetic games as the service does; returns their
  // training positions.
  int64_t AddGames(int count) {
    std::vector<IncomingGame> incoming;
    int64_t positions = 0;
    for (int i = 0; i < count; ++i) {
      const pb::GameRecord record =
          SyntheticGame(next_seed_++, TestGameOptions());
      EXPECT_TRUE(ValidateGameRecord(record).ok());
      IncomingGame game;
      game.uid = record.uid();
      game.record = record.SerializeAsString();
      game.num_positions = NumTrainingPositions(record);
      positions += game.num_positions;
      incoming.push_back(std::move(game));
    }
    EXPECT_TRUE(store_->AddGames("w", incoming).ok());
    return positions;
  }

  TrainingLoopOptions Options(const std::string& run) {
    TrainingLoopOptions o;
    o.run_dir = dir_ / run;
    o.network = TestNetworkConfig();
    o.variants = {Variant::kFreestyle};
    o.training.device = "cpu";
    o.training.learning_rate = 0.02;
    o.training.warmup_steps = 2;
    o.batch_size = 8;
    o.window = WindowParams{100, 0.75, 0.4};
    o.min_positions = 1;
    o.samples_per_position = 2;
    o.steps_per_generation = 4;
    o.checkpoint_every_steps = 3;
    o.log_every_steps = 2;
    o.torch_threads = 1;
    o.seed = 5;
    return o;
  }

  std::unique_ptr<TrainingLoop> MakeLoop(const TrainingLoopOptions& options,
                                         DataParallelGroup* group = nullptr) {
    auto loop = TrainingLoop::Create(
        options, store_.get(),
        [this](int64_t generation, const std::string& path, int64_t step,
               int64_t games_seen) {
          absl::MutexLock lock(&mutex_);
          published_.push_back({generation, step, games_seen, path});
          return absl::OkStatus();
        },
        group);
    EXPECT_TRUE(loop.ok()) << loop.status();
    return loop.ok() ? *std::move(loop) : nullptr;
  }

  // Rounds until the loop waits; returns the steps taken.
  int TrainUntilWaiting(TrainingLoop& loop) {
    int steps = 0;
    while (true) {
      absl::StatusOr<TrainingLoop::Round> round = loop.RunOnce();
      EXPECT_TRUE(round.ok()) << round.status();
      if (!round.ok() || *round != TrainingLoop::Round::kTrained) return steps;
      ++steps;
    }
  }

  TempDir dir_;
  std::unique_ptr<GameStore> store_;
  uint64_t next_seed_ = 1;
  absl::Mutex mutex_;
  std::vector<Published> published_;
};

TEST(TrainingLoopOptionsTest, ComeFromTheRunConfig) {
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(std::string(RENJU_SOURCE_DIR) + "/configs/tiny.textproto");
  ASSERT_TRUE(config.ok()) << config.status();
  const TrainingLoopOptions o = ToTrainingLoopOptions(*config, "/runs/x");
  const pb::TrainerConfig& t = config->trainer();
  EXPECT_EQ(o.run_dir, "/runs/x");
  EXPECT_EQ(o.network, ToNetworkConfig(*config));
  EXPECT_EQ(o.variants, std::vector<Variant>{VariantOf(*config)});
  EXPECT_EQ(o.batch_size, t.batch_size());
  EXPECT_EQ(o.training.optimizer, TrainingOptions::Optimizer::kSgd);
  EXPECT_FLOAT_EQ(o.training.learning_rate, t.learning_rate());
  EXPECT_EQ(o.training.warmup_steps, t.warmup_steps());
  EXPECT_FLOAT_EQ(o.training.momentum, t.momentum());
  EXPECT_FLOAT_EQ(o.training.weight_decay, t.weight_decay());
  EXPECT_EQ(o.window.c, t.window_c());
  EXPECT_FLOAT_EQ(o.window.alpha, t.window_alpha());
  EXPECT_EQ(o.min_positions, t.min_positions());
  EXPECT_FLOAT_EQ(o.samples_per_position, t.samples_per_position());
  EXPECT_EQ(o.steps_per_generation, t.steps_per_generation());
  EXPECT_EQ(o.checkpoint_every_steps, t.checkpoint_every_steps());
  EXPECT_EQ(o.torch_threads, t.torch_threads());
  EXPECT_EQ(o.training.device, t.device());
  EXPECT_EQ(o.seed, static_cast<uint64_t>(config->seed()));
  EXPECT_FLOAT_EQ(o.training.opponent_policy_loss_weight,
                  t.opponent_policy_loss_weight());
  EXPECT_FLOAT_EQ(o.training.short_value_loss_weight,
                  t.short_value_loss_weight());
  EXPECT_FLOAT_EQ(o.training.ema_decay, t.ema_decay());
  EXPECT_EQ(o.window.aux_targets, o.network.aux_heads);
  EXPECT_FLOAT_EQ(o.window.short_value_horizon, t.short_value_horizon_plies());

  pb::RunConfig aux = *config;
  aux.mutable_network()->set_aux_heads(true);
  const TrainingLoopOptions with_aux = ToTrainingLoopOptions(aux, "/runs/y");
  EXPECT_TRUE(with_aux.network.aux_heads);
  EXPECT_TRUE(with_aux.window.aux_targets);
}

TEST_F(TrainingLoopTest, BadOptionsAreErrors) {
  TrainingLoopOptions options = Options("run");
  options.batch_size = 0;
  auto loop = TrainingLoop::Create(options, store_.get(), nullptr);
  EXPECT_EQ(loop.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(loop.status().message().find("batch_size"), std::string::npos);
  options = Options("run");
  options.samples_per_position = 0;
  EXPECT_FALSE(TrainingLoop::Create(options, store_.get(), nullptr).ok());
}

TEST_F(TrainingLoopTest, TrainsUpToTheSamplesPerPositionRatio) {
  TrainingLoopOptions options = Options("run");
  options.min_positions = 1000;
  auto loop = MakeLoop(options);
  int64_t positions = AddGames(3);
  // Fewer positions than min_positions: no training yet.
  EXPECT_EQ(*loop->RunOnce(), TrainingLoop::Round::kWaiting);
  EXPECT_EQ(loop->GetStatus().positions_ingested, positions);
  EXPECT_TRUE(loop->GetStatus().waiting_for_games);

  options.min_positions = 1;
  loop = MakeLoop(options);
  const int steps = TrainUntilWaiting(*loop);
  // samples + batch <= 2 * positions, batch 8.
  EXPECT_EQ(steps, 2 * positions / 8);
  EXPECT_EQ(loop->GetStatus().samples_trained, 8 * steps);
  EXPECT_EQ(*loop->RunOnce(), TrainingLoop::Round::kWaiting);

  positions += AddGames(2);
  EXPECT_EQ(TrainUntilWaiting(*loop) + steps, 2 * positions / 8);
  EXPECT_EQ(loop->GetStatus().step, 2 * positions / 8);
}

// What a worker polling the trainer's status is told: pause while the
// stored positions lead what training has consumed by more than the
// allowed lead, once training could start; never with the lead at 0.
TEST_F(TrainingLoopTest, AsksSelfplayToPauseWhileTrainingLagsBehind) {
  TrainingLoopOptions options = Options("run");
  options.selfplay_lead_positions = 10;
  options.min_positions = 1;
  auto loop = MakeLoop(options);
  const int64_t positions = AddGames(2);
  ASSERT_GT(positions, 10 + 8);
  auto paused = [&](int64_t stored) {
    pb::TrainerStatus status;
    status.set_total_positions(stored);
    loop->FillStatus(&status);
    return status.selfplay_paused();
  };
  // Nothing trained yet: every stored position is ahead.
  ASSERT_EQ(*loop->RunOnce(), TrainingLoop::Round::kTrained);  // one batch
  // 8 samples at 2 per position consumed 4 positions.
  EXPECT_TRUE(paused(positions));
  EXPECT_FALSE(paused(14));  // 14 - 4 = 10: not more than the lead
  EXPECT_TRUE(paused(15));
  pb::TrainerStatus status;
  status.set_total_positions(positions);
  loop->FillStatus(&status);
  EXPECT_EQ(status.samples_trained(), 8);

  // Training catches up and the pause ends.
  TrainUntilWaiting(*loop);
  EXPECT_FALSE(paused(positions));
  // A loop waiting for games never pauses self-play, even when the lead is
  // smaller than what one batch consumes (else both would wait forever).
  ASSERT_TRUE(loop->GetStatus().waiting_for_games);
  EXPECT_FALSE(paused(positions + 100));

  // Below min_positions training cannot start, so self-play never waits.
  options.run_dir = dir_ / "fresh";
  options.min_positions = 1000;
  loop = MakeLoop(options);
  EXPECT_FALSE(paused(999));
  EXPECT_TRUE(paused(1000));
  // Without a lead, never.
  options.run_dir = dir_ / "no_lead";
  options.selfplay_lead_positions = 0;
  loop = MakeLoop(options);
  EXPECT_FALSE(paused(1000000));
}

TEST_F(TrainingLoopTest, ThreadWaitsForGamesAndResumesOnNotify) {
  const int64_t positions = AddGames(2);
  auto loop = MakeLoop(Options("run"));
  loop->Start();
  // A minute: only a failing test waits that long.
  auto wait_for = [&](auto done) {
    return loop->AwaitStatus(done, absl::Seconds(60));
  };
  const int64_t first_steps = 2 * positions / 8;
  ASSERT_TRUE(wait_for([&](const TrainingLoopStatus& s) {
    return s.waiting_for_games && s.step == first_steps;
  }));
  // Woken with no new games, it looks, waits again and takes no step.
  const int64_t idle_rounds = loop->GetStatus().idle_rounds;
  loop->NotifyNewGames();
  ASSERT_TRUE(wait_for([&](const TrainingLoopStatus& s) {
    return s.idle_rounds > idle_rounds;
  }));
  EXPECT_EQ(loop->GetStatus().step, first_steps);

  AddGames(2);
  loop->NotifyNewGames();
  ASSERT_TRUE(wait_for(
      [&](const TrainingLoopStatus& s) { return s.step > first_steps; }));
  EXPECT_TRUE(loop->Stop().ok());
  EXPECT_FALSE(loop->GetStatus().running);
  // Stopping saved the state: a new loop resumes at the same step.
  const int64_t step = loop->GetStatus().step;
  loop.reset();
  auto resumed = MakeLoop(Options("run"));
  EXPECT_EQ(resumed->GetStatus().step, step);
}

TEST_F(TrainingLoopTest, PublishesLoadableGenerations) {
  AddGames(4);
  auto loop = MakeLoop(Options("run"));
  ASSERT_TRUE(loop->PublishInitialModel().ok());
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(*loop->RunOnce(), TrainingLoop::Round::kTrained);
  }
  ASSERT_EQ(published_.size(), 2u);
  ModelOptions cpu;
  cpu.device = "cpu";
  for (int g = 0; g < 2; ++g) {
    EXPECT_EQ(published_[g].generation, g);
    EXPECT_EQ(published_[g].step, 4 * g);
    EXPECT_EQ(published_[g].games_seen, 4 * g);  // none before the first round
    EXPECT_EQ(published_[g].path, loop->model_path(g));
    auto model = Model::Load(published_[g].path, cpu, TestNetworkConfig());
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_EQ((*model)->info().generation, g);
    EXPECT_EQ((*model)->info().training_step, 4 * g);
    EXPECT_EQ((*model)->info().variants,
              std::vector<Variant>{Variant::kFreestyle});
  }
  EXPECT_EQ(loop->GetStatus().generation, 1);

  // A registry that is ahead of the saved state (say the state was lost
  // after generation 7 was registered): the next generation is 8.
  ModelEntry entry;
  entry.generation = 7;
  entry.path = "elsewhere";
  entry.status = "candidate";
  ASSERT_TRUE(store_->RegisterModel(entry).ok());
  loop = MakeLoop(Options("run"));
  EXPECT_EQ(loop->PublishInitialModel().code(),
            absl::StatusCode::kFailedPrecondition);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(loop->RunOnce().ok());
  EXPECT_EQ(published_.back().generation, 8);
  EXPECT_EQ(published_.back().step, 8);
}

TEST_F(TrainingLoopTest, StopsByItselfAfterTheLastGeneration) {
  AddGames(4);
  TrainingLoopOptions options = Options("run");
  options.stop_after_generation = 2;
  auto loop = MakeLoop(options);
  loop->Start();
  EXPECT_TRUE(loop->Wait().ok());
  EXPECT_EQ(loop->GetStatus().step, 8);
  EXPECT_EQ(published_.back().generation, 2);
}

// A crash after step 5 loses steps 5 (the last state is from step 4's
// publication); the restarted loop replays them and reaches the same
// weights as a loop that never stopped. The small window (c = 100) makes
// the restored window a strict suffix of the store.
TEST_F(TrainingLoopTest, ResumesExactlyAfterACrash) {
  AddGames(6);
  auto uninterrupted = MakeLoop(Options("a"));
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(*uninterrupted->RunOnce(), TrainingLoop::Round::kTrained);
  }
  {
    auto crashed = MakeLoop(Options("b"));
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(crashed->RunOnce().ok());
  }
  auto resumed = MakeLoop(Options("b"));
  EXPECT_EQ(resumed->GetStatus().step, 4);
  EXPECT_EQ(resumed->GetStatus().window_positions,
            uninterrupted->GetStatus().window_positions);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(*resumed->RunOnce(), TrainingLoop::Round::kTrained);
  }
  EXPECT_EQ(resumed->GetStatus().step, 8);
  EXPECT_EQ(resumed->GetStatus().samples_trained, 64);

  // Compare the published generation-2 weights of both runs.
  ModelOptions cpu;
  cpu.device = "cpu";
  auto a = Model::Load(uninterrupted->model_path(2), cpu);
  auto b = Model::Load(resumed->model_path(2), cpu);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)->content_hash(), (*b)->content_hash());
}

// The auxiliary heads and the weight average through the loop: the loss
// log gets the auxiliary losses, and a published generation is the
// average, loadable for play.
TEST_F(TrainingLoopTest, TrainsAuxHeadsAndPublishesTheAverage) {
  AddGames(4);
  TrainingLoopOptions options = Options("run");
  options.network.aux_heads = true;
  options.window.aux_targets = true;
  options.training.ema_decay = 0.99;
  auto loop = MakeLoop(options);
  ASSERT_TRUE(loop->PublishInitialModel().ok());
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(*loop->RunOnce(), TrainingLoop::Round::kTrained);
  }
  absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(loop->model_path(1));
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  PolicyValueNet published(checkpoint->info.config);
  ASSERT_TRUE(ImportTensors(checkpoint->tensors, "gen1", *published).ok());
  NetworkTrainer& trainer = loop->trainer();
  EXPECT_EQ(MaxDifference(*published, trainer.published_network()), 0.0);
  EXPECT_GT(MaxDifference(*published, trainer.network()), 0.0);
  ModelOptions cpu;
  cpu.device = "cpu";
  EXPECT_TRUE(Model::Load(loop->model_path(1), cpu, TestNetworkConfig()).ok());

  absl::StatusOr<std::vector<LossRow>> rows =
      ReadLossCsv(dir_ / "run/training.csv");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);  // steps 2 and 4
  EXPECT_GT(rows->back().opponent_policy_loss, 0);
  EXPECT_GT(rows->back().short_value_loss, 0);

  options.window.aux_targets = false;
  absl::StatusOr<std::unique_ptr<TrainingLoop>> mismatched =
      TrainingLoop::Create(options, store_.get(), nullptr);
  EXPECT_EQ(mismatched.status().code(), absl::StatusCode::kInvalidArgument);
}

// A run resumed from before the auxiliary columns keeps appending rows of
// its log's columns, so the log stays readable.
TEST_F(TrainingLoopTest, KeepsTheColumnsOfALegacyLossLog) {
  AddGames(2);
  const std::string log = dir_ / "run/training.csv";
  std::filesystem::create_directories(dir_ / "run");
  ASSERT_TRUE(WriteFileAtomically(log, std::string(kLegacyLossCsvHeader) +
                                           "\n1,1700000000000,5,1,5,0.01\n")
                  .ok());
  auto loop = MakeLoop(Options("run"));
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(loop->RunOnce().ok());
  absl::StatusOr<std::vector<LossRow>> rows = ReadLossCsv(log);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ(rows->back().step, 2);
}

TEST_F(TrainingLoopTest, RefusesAStateItsStoreCannotBackUp) {
  AddGames(3);
  {
    auto loop = MakeLoop(Options("run"));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(loop->RunOnce().ok());
  }
  auto other_store = GameStore::Open(dir_ / "other.sqlite");
  ASSERT_TRUE(other_store.ok());
  auto loop = TrainingLoop::Create(Options("run"), other_store->get(), nullptr);
  EXPECT_EQ(loop.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(loop.status().message().find("rebuilding the replay window"),
            std::string::npos)
      << loop.status();
}

TEST_F(TrainingLoopTest, TwoRanksTrainInStep) {
  AddGames(4);
  const std::string rendezvous = dir_ / "rendezvous";
  std::vector<std::unique_ptr<DataParallelGroup>> groups(2);
  std::vector<std::unique_ptr<TrainingLoop>> loops(2);
  std::vector<absl::Status> errors(2);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < 2; ++rank) {
    threads.emplace_back([&, rank] {
      DistributedOptions d;
      d.rank = rank;
      d.world_size = 2;
      d.init_method = "file://" + rendezvous;
      d.timeout_s = 60;
      auto group = DataParallelGroup::Connect(d);
      if (!group.ok()) {
        errors[rank] = group.status();
        return;
      }
      groups[rank] = *std::move(group);
      loops[rank] = MakeLoop(Options("run"), groups[rank].get());
      if (loops[rank] == nullptr) return;
      for (int i = 0; i < 5 && errors[rank].ok(); ++i) {
        errors[rank] = loops[rank]->RunOnce().status();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_TRUE(errors[0].ok()) << errors[0];
  ASSERT_TRUE(errors[1].ok()) << errors[1];
  ASSERT_NE(loops[0], nullptr);
  ASSERT_NE(loops[1], nullptr);
  for (int rank = 0; rank < 2; ++rank) {
    EXPECT_EQ(loops[rank]->GetStatus().step, 5);
    EXPECT_EQ(loops[rank]->GetStatus().generation, 1);
  }
  // Each rank sampled its own half of every batch, yet their weights are
  // the same: every step used the all-reduced gradients.
  EXPECT_EQ(MaxDifference(loops[0]->trainer().network(),
                          loops[1]->trainer().network()),
            0.0);
  // Only rank 0 publishes.
  ASSERT_EQ(published_.size(), 1u);
  EXPECT_EQ(published_[0].generation, 1);
}

}  // namespace
}  // namespace renju
