// NetworkTrainer: the learning-rate schedule, the losses (policy only at
// full searches), learning on a fixed batch, exact resume from a saved
// training state, and export to a checkpoint inference loads.
#include "trainer/network_trainer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/network.h"
#include "nn/tensor_file.h"
#include "tests/trainer/training_test_util.h"

namespace renju {
namespace {

using ::renju::testing::AuxNetworkConfig;
using ::renju::testing::FixedBatch;
using ::renju::testing::FixedBatchInEncoding;
using ::renju::testing::MaxDifference;
using ::renju::testing::TempDir;
using ::renju::testing::TestNetworkConfig;

TrainingOptions CpuOptions(
    TrainingOptions::Optimizer optimizer = TrainingOptions::Optimizer::kSgd) {
  TrainingOptions o;
  o.optimizer = optimizer;
  o.device = "cpu";
  o.learning_rate = optimizer == TrainingOptions::Optimizer::kSgd ? 0.05 : 3e-3;
  o.warmup_steps = 2;
  return o;
}

NetworkConfig VersionTwoConfig() {
  NetworkConfig config = TestNetworkConfig();
  config.encoding_version = 2;
  return config;
}

std::unique_ptr<NetworkTrainer> MakeTrainer(
    const TrainingOptions& options, uint64_t seed = 1,
    const NetworkConfig& config = TestNetworkConfig()) {
  auto trainer = NetworkTrainer::Create(config, options, seed);
  EXPECT_TRUE(trainer.ok()) << trainer.status();
  return trainer.ok() ? *std::move(trainer) : nullptr;
}

TEST(LearningRateTest, WarmsUpThenDecaysInSteps) {
  TrainingOptions o;
  o.learning_rate = 0.1;
  o.warmup_steps = 4;
  o.lr_decay_factor = 0.5;
  o.lr_decay_every_steps = 10;
  EXPECT_DOUBLE_EQ(LearningRate(o, 0), 0.025);
  EXPECT_DOUBLE_EQ(LearningRate(o, 1), 0.05);
  EXPECT_DOUBLE_EQ(LearningRate(o, 3), 0.1);
  EXPECT_DOUBLE_EQ(LearningRate(o, 9), 0.1);
  EXPECT_DOUBLE_EQ(LearningRate(o, 10), 0.05);
  EXPECT_DOUBLE_EQ(LearningRate(o, 29), 0.025);
  EXPECT_DOUBLE_EQ(LearningRate(o, 30), 0.0125);
  o.warmup_steps = 0;
  o.lr_decay_every_steps = 0;
  EXPECT_DOUBLE_EQ(LearningRate(o, 0), 0.1);
  EXPECT_DOUBLE_EQ(LearningRate(o, 100000), 0.1);
}

// Plain SGD (no momentum, no decay): each weight moves by exactly -lr *
// gradient, with lr the schedule's value for that step.
TEST(NetworkTrainerTest, StepsWithTheScheduledLearningRate) {
  SetIntraOpThreads(1);
  TrainingOptions o = CpuOptions();
  o.momentum = 0;
  o.weight_decay = 0;
  o.learning_rate = 0.2;
  o.warmup_steps = 4;
  auto trainer = MakeTrainer(o);
  ASSERT_NE(trainer, nullptr);
  const TrainingBatch batch = FixedBatch(16, 1);
  for (int step = 0; step < 2; ++step) {
    torch::Tensor weight =
        trainer->network().named_parameters()["stem_conv.weight"];
    const torch::Tensor before = weight.detach().clone();
    absl::StatusOr<StepStats> stats = trainer->Step(batch);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(stats->step, step + 1);
    EXPECT_DOUBLE_EQ(stats->learning_rate, 0.05 * (step + 1));
    const torch::Tensor expected =
        before - stats->learning_rate * weight.grad();
    EXPECT_TRUE(torch::allclose(weight.detach(), expected, 1e-5, 1e-7));
  }
}

TEST(NetworkTrainerTest, LearnsAFixedBatch) {
  SetIntraOpThreads(1);
  for (auto optimizer :
       {TrainingOptions::Optimizer::kSgd, TrainingOptions::Optimizer::kAdamW}) {
    auto trainer = MakeTrainer(CpuOptions(optimizer));
    ASSERT_NE(trainer, nullptr);
    const TrainingBatch batch = FixedBatch(32, 2);
    absl::StatusOr<StepStats> first = trainer->Step(batch);
    ASSERT_TRUE(first.ok()) << first.status();
    StepStats last;
    for (int i = 0; i < 40; ++i) {
      absl::StatusOr<StepStats> stats = trainer->Step(batch);
      ASSERT_TRUE(stats.ok()) << stats.status();
      last = *stats;
    }
    SCOPED_TRACE(optimizer == TrainingOptions::Optimizer::kSgd ? "sgd"
                                                               : "adamw");
    EXPECT_EQ(first->samples, 32);
    EXPECT_GT(first->full_search_samples, 0);
    EXPECT_LT(first->full_search_samples, 32);
    EXPECT_LT(last.policy_loss, 0.8 * first->policy_loss);
    EXPECT_LT(last.value_loss, 0.8 * first->value_loss);
    EXPECT_LT(last.total_loss, first->total_loss);
    EXPECT_LT(last.policy_entropy, first->policy_entropy);
    // The statistics are what they claim to be.
    EXPECT_GT(first->policy_entropy, 0);
    EXPECT_LE(first->policy_entropy, std::log(81.0));
    EXPECT_GE(first->value_brier, 0);
    EXPECT_LE(first->value_brier, 2);
    EXPECT_NEAR(last.win_predicted, last.win_observed, 0.1);
  }
}

// Garbage policy targets at fast-search positions change nothing: their
// policy loss has weight zero.
TEST(NetworkTrainerTest, PolicyLossOnlyAtFullSearches) {
  SetIntraOpThreads(1);
  const TrainingBatch batch = FixedBatch(24, 3);
  TrainingBatch garbage = batch;
  const int points = batch.board_size * batch.board_size;
  int fast = 0;
  for (int i = 0; i < batch.size; ++i) {
    if (batch.policy_weight[i] != 0) continue;
    ++fast;
    for (int j = 0; j < points; ++j) {
      garbage.policy_target[i * points + j] = 1.0f / points;
    }
  }
  ASSERT_GT(fast, 0);
  auto a = MakeTrainer(CpuOptions());
  auto b = MakeTrainer(CpuOptions());
  absl::StatusOr<StepStats> sa = a->Step(batch);
  absl::StatusOr<StepStats> sb = b->Step(garbage);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_EQ(sa->full_search_samples, batch.size - fast);
  EXPECT_EQ(sa->policy_loss, sb->policy_loss);
  EXPECT_EQ(MaxDifference(a->network(), b->network()), 0.0);

  // The same garbage at a full-search position does change the step.
  for (int i = 0; i < batch.size; ++i) garbage.policy_weight[i] = 1;
  auto c = MakeTrainer(CpuOptions());
  ASSERT_TRUE(c->Step(garbage).ok());
  EXPECT_GT(MaxDifference(a->network(), c->network()), 0.0);
}

TEST(NetworkTrainerTest, RefusesABatchOfAnotherBoardSize) {
  auto trainer = MakeTrainer(CpuOptions());
  TrainingBatch batch;
  batch.Reset(4, 15, 1, false);
  absl::StatusOr<StepStats> stats = trainer->Step(batch);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(trainer->step(), 0);
}

TEST(NetworkTrainerTest, RefusesABatchOfAnotherEncoding) {
  auto trainer = MakeTrainer(CpuOptions());
  absl::StatusOr<StepStats> stats =
      trainer->Step(FixedBatchInEncoding(4, 1, 2));
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(stats.status().message().find("input encoding version 2"),
            std::string::npos)
      << stats.status();
  EXPECT_EQ(trainer->step(), 0);
}

// A run switched to encoding version 2 must not resume a version-1 state
// (its stem would not fit), nor the other way round; a state written
// before the version was recorded counts as version 1.
TEST(NetworkTrainerTest, StateOfAnotherEncodingIsRefused) {
  TempDir dir;
  const std::string v1_path = dir / "v1.ckpt";
  auto v1 = MakeTrainer(CpuOptions());
  ASSERT_TRUE(v1->SaveState(v1_path, {}).ok());
  auto v2 = MakeTrainer(CpuOptions(), 1, VersionTwoConfig());
  ASSERT_TRUE(v2->Step(FixedBatchInEncoding(8, 2, 2)).ok());
  const std::string v2_path = dir / "v2.ckpt";
  ASSERT_TRUE(v2->SaveState(v2_path, {}).ok());

  absl::Status s = v2->LoadState(v1_path).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            absl::StrCat("training state ", v1_path,
                         ": input encoding version 1, the network config "
                         "expects 2"));
  s = v1->LoadState(v2_path).status();
  EXPECT_NE(s.message().find("input encoding version 2, the network config "
                             "expects 1"),
            std::string::npos)
      << s;

  // The same v1 state without the key, as written before it existed.
  absl::StatusOr<TensorFile> file = ReadTensorFile(v1_path);
  ASSERT_TRUE(file.ok()) << file.status();
  auto& metadata = file->metadata;
  const size_t before = metadata.size();
  metadata.erase(std::remove_if(metadata.begin(), metadata.end(),
                                [](const auto& kv) {
                                  return kv.first == "encoding_version";
                                }),
                 metadata.end());
  ASSERT_EQ(metadata.size(), before - 1);
  ASSERT_TRUE(WriteTensorFile(v1_path, *file).ok());
  EXPECT_TRUE(MakeTrainer(CpuOptions())->LoadState(v1_path).ok());
  s = v2->LoadState(v1_path).status();
  EXPECT_NE(s.message().find("input encoding version 1, the network config "
                             "expects 2"),
            std::string::npos)
      << s;
}

class ExactResumeTest
    : public ::testing::TestWithParam<TrainingOptions::Optimizer> {};

// Stopping after 3 steps and resuming in a fresh trainer (built from
// another seed, so everything must come from the file) gives the very same
// weights after 6 steps as never stopping.
TEST_P(ExactResumeTest, BitIdenticalAfterRestart) {
  SetIntraOpThreads(1);
  TempDir dir;
  const TrainingOptions options = CpuOptions(GetParam());
  std::vector<TrainingBatch> batches;
  for (int i = 0; i < 6; ++i) batches.push_back(FixedBatch(16, 10 + i));

  auto uninterrupted = MakeTrainer(options);
  for (const TrainingBatch& b : batches)
    ASSERT_TRUE(uninterrupted->Step(b).ok());

  const std::string path = dir / "state.ckpt";
  {
    auto first = MakeTrainer(options);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(first->Step(batches[i]).ok());
    ASSERT_TRUE(first->SaveState(path, {{"sampler", "42"}}).ok());
  }
  auto resumed = MakeTrainer(options, /*seed=*/99);
  auto extra = resumed->LoadState(path);
  ASSERT_TRUE(extra.ok()) << extra.status();
  EXPECT_EQ(
      *extra,
      (std::vector<std::pair<std::string, std::string>>{{"sampler", "42"}}));
  EXPECT_EQ(resumed->step(), 3);
  for (int i = 3; i < 6; ++i) ASSERT_TRUE(resumed->Step(batches[i]).ok());
  EXPECT_EQ(resumed->step(), 6);
  EXPECT_EQ(MaxDifference(uninterrupted->network(), resumed->network()), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Optimizers, ExactResumeTest,
                         ::testing::Values(TrainingOptions::Optimizer::kSgd,
                                           TrainingOptions::Optimizer::kAdamW));

TEST(NetworkTrainerTest, StateOfAnotherRunIsRefused) {
  TempDir dir;
  const std::string path = dir / "state.ckpt";
  auto sgd = MakeTrainer(CpuOptions());
  ASSERT_TRUE(sgd->SaveState(path, {}).ok());
  EXPECT_EQ(sgd->SaveState(dir / "x", {{"step", "1"}}).code(),
            absl::StatusCode::kInvalidArgument);  // a reserved key

  auto adamw = MakeTrainer(CpuOptions(TrainingOptions::Optimizer::kAdamW));
  absl::Status s = adamw->LoadState(path).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("optimizer 'sgd'"), std::string::npos) << s;

  NetworkConfig wider = TestNetworkConfig();
  wider.channels = 24;
  auto other = NetworkTrainer::Create(wider, CpuOptions(), 1);
  ASSERT_TRUE(other.ok());
  s = (*other)->LoadState(path).status();
  EXPECT_NE(s.message().find("channels=24"), std::string::npos) << s;

  // A model checkpoint is not a training state.
  ASSERT_TRUE(sgd->ExportModel(dir / "gen1.model", CheckpointInfo{}).ok());
  s = sgd->LoadState(dir / "gen1.model").status();
  EXPECT_NE(s.message().find("kind 'model'"), std::string::npos) << s;
}

TEST(NetworkTrainerTest, ExportsACheckpointInferenceLoads) {
  TempDir dir;
  auto trainer = MakeTrainer(CpuOptions());
  const TrainingBatch batch = FixedBatch(8, 4);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(trainer->Step(batch).ok());
  CheckpointInfo info;
  info.generation = 3;
  info.training_step = trainer->step();
  info.variants = {Variant::kFreestyle};
  const std::string path = dir / "gen3.model";
  ASSERT_TRUE(trainer->ExportModel(path, info).ok());

  ModelOptions options;
  options.device = "cpu";
  auto model = Model::Load(path, options, TestNetworkConfig());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->info().generation, 3);
  EXPECT_EQ((*model)->info().training_step, 3);
  EXPECT_EQ((*model)->info().variants,
            std::vector<Variant>{Variant::kFreestyle});

  // Same outputs as the trainer's network in inference mode.
  std::vector<float> policy(batch.size * 81), wdl(batch.size * 3);
  ASSERT_TRUE(
      (*model)
          ->Forward(batch.planes.data(), batch.size, policy.data(), wdl.data())
          .ok());
  trainer->network().eval();
  torch::NoGradGuard no_grad;
  auto [expected_policy, expected_wdl] = trainer->network().forward(
      torch::from_blob(const_cast<float*>(batch.planes.data()),
                       {batch.size, kNumInputPlanesV1, 9, 9}));
  EXPECT_TRUE(torch::allclose(torch::from_blob(policy.data(), {batch.size, 81}),
                              expected_policy, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(torch::from_blob(wdl.data(), {batch.size, 3}),
                              expected_wdl, 1e-4, 1e-4));
}

// At KataGo-like small weights (0.15) forty steps barely move the
// auxiliary heads; at weight 1 they visibly learn.
TEST(NetworkTrainerTest, AuxHeadsLearnAFixedBatch) {
  SetIntraOpThreads(1);
  TrainingOptions options = CpuOptions();
  options.opponent_policy_loss_weight = 1;
  options.short_value_loss_weight = 1;
  auto trainer = MakeTrainer(options, 1, AuxNetworkConfig());
  ASSERT_NE(trainer, nullptr);
  const TrainingBatch batch = FixedBatch(32, 2, /*aux_targets=*/true);
  absl::StatusOr<StepStats> first = trainer->Step(batch);
  ASSERT_TRUE(first.ok()) << first.status();
  StepStats last;
  for (int i = 0; i < 40; ++i) {
    absl::StatusOr<StepStats> stats = trainer->Step(batch);
    ASSERT_TRUE(stats.ok()) << stats.status();
    last = *stats;
  }
  EXPECT_GT(first->opponent_policy_samples, 0);
  EXPECT_LT(first->opponent_policy_samples, 32);
  EXPECT_LT(last.opponent_policy_loss, 0.8 * first->opponent_policy_loss);
  // Its minimum is the soft target's entropy, not 0.
  EXPECT_LT(last.short_value_loss, 0.95 * first->short_value_loss);
  EXPECT_LT(last.policy_loss, 0.8 * first->policy_loss);
  EXPECT_LT(last.value_loss, 0.8 * first->value_loss);
  // The total counts the auxiliary losses at their weights.
  const TrainingOptions o = trainer->options();
  EXPECT_NEAR(
      first->total_loss,
      (o.policy_loss_weight * first->policy_loss * first->full_search_samples +
       o.opponent_policy_loss_weight * first->opponent_policy_loss *
           first->opponent_policy_samples) /
              32 +
          o.value_loss_weight * first->value_loss +
          o.short_value_loss_weight * first->short_value_loss,
      1e-4);

  // Without the heads the auxiliary statistics stay 0.
  auto plain = MakeTrainer(CpuOptions());
  absl::StatusOr<StepStats> stats = plain->Step(FixedBatch(8, 2));
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->opponent_policy_samples, 0);
  EXPECT_EQ(stats->opponent_policy_loss, 0);
  EXPECT_EQ(stats->short_value_loss, 0);
}

// Garbage opponent-policy targets where the next ply has none change
// nothing: their loss has weight zero.
TEST(NetworkTrainerTest, OpponentPolicyLossOnlyWhereTheReplyHasATarget) {
  SetIntraOpThreads(1);
  const TrainingBatch batch = FixedBatch(24, 3, /*aux_targets=*/true);
  TrainingBatch garbage = batch;
  const int points = batch.board_size * batch.board_size;
  int masked = 0;
  for (int i = 0; i < batch.size; ++i) {
    if (batch.opponent_policy_weight[i] != 0) continue;
    ++masked;
    for (int j = 0; j < points; ++j) {
      garbage.opponent_policy_target[i * points + j] = 1.0f / points;
    }
  }
  ASSERT_GT(masked, 0);
  auto a = MakeTrainer(CpuOptions(), 1, AuxNetworkConfig());
  auto b = MakeTrainer(CpuOptions(), 1, AuxNetworkConfig());
  absl::StatusOr<StepStats> sa = a->Step(batch);
  absl::StatusOr<StepStats> sb = b->Step(garbage);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_EQ(sa->opponent_policy_samples, batch.size - masked);
  EXPECT_EQ(sa->opponent_policy_loss, sb->opponent_policy_loss);
  EXPECT_EQ(MaxDifference(a->network(), b->network()), 0.0);
}

TEST(NetworkTrainerTest, AuxTargetsMustMatchTheHeads) {
  auto plain = MakeTrainer(CpuOptions());
  absl::StatusOr<StepStats> stats = plain->Step(FixedBatch(4, 1, true));
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(stats.status().message().find("with auxiliary targets"),
            std::string::npos)
      << stats.status();
  auto aux = MakeTrainer(CpuOptions(), 1, AuxNetworkConfig());
  stats = aux->Step(FixedBatch(4, 1));
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(aux->step(), 0);
}

// A checkpoint exported with aux heads loads into the inference Model
// (which expects the config without them) and evaluates exactly what the
// training net's main heads do.
TEST(NetworkTrainerTest, ExportedAuxHeadsLoadForPlay) {
  SetIntraOpThreads(1);
  TempDir dir;
  auto trainer = MakeTrainer(CpuOptions(), 1, AuxNetworkConfig());
  const TrainingBatch batch = FixedBatch(8, 4, /*aux_targets=*/true);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(trainer->Step(batch).ok());
  const std::string path = dir / "gen1.model";
  ASSERT_TRUE(trainer->ExportModel(path, CheckpointInfo{}).ok());

  ModelOptions options;
  options.device = "cpu";
  auto model = Model::Load(path, options, TestNetworkConfig());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE((*model)->config().aux_heads);
  std::vector<float> policy(batch.size * 81), wdl(batch.size * 3);
  ASSERT_TRUE(
      (*model)
          ->Forward(batch.planes.data(), batch.size, policy.data(), wdl.data())
          .ok());
  trainer->network().eval();
  torch::NoGradGuard no_grad;
  const NetworkOutputs expected = trainer->network().ForwardWithAux(
      torch::from_blob(const_cast<float*>(batch.planes.data()),
                       {batch.size, kNumInputPlanesV1, 9, 9}));
  EXPECT_TRUE(torch::allclose(torch::from_blob(policy.data(), {batch.size, 81}),
                              expected.policy, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(torch::from_blob(wdl.data(), {batch.size, 3}),
                              expected.wdl, 1e-4, 1e-4));
}

// The published weights after k steps are the average computed here by
// hand from the live weights after each step:
//   a_0 = w_0,  a_{t+1} = d_t a_t + (1 - d_t) w_{t+1},
//   d_t = min(ema_decay, (1 + t) / (10 + t)),
// for every floating-point parameter and batch-norm statistic; batch
// norm's step counters are the live ones.
TEST(NetworkTrainerTest, PublishesTheAverageOfTheWeights) {
  SetIntraOpThreads(1);
  TempDir dir;
  TrainingOptions options = CpuOptions();
  options.ema_decay = 0.2;  // below (1 + t) / (10 + t) from t = 2 on
  auto trainer = MakeTrainer(options, 1, AuxNetworkConfig());
  auto snapshot = [&] {
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : trainer->network().named_parameters()) {
      out[item.key()] = item.value().detach().to(torch::kDouble);
    }
    for (const auto& item : trainer->network().named_buffers()) {
      const torch::Tensor& b = item.value();
      out[item.key()] =
          b.is_floating_point() ? b.to(torch::kDouble) : b.clone();
    }
    return out;
  };
  std::map<std::string, torch::Tensor> average = snapshot();
  EXPECT_EQ(MaxDifference(trainer->network(), trainer->published_network()),
            0.0);
  for (int t = 0; t < 4; ++t) {
    ASSERT_TRUE(trainer->Step(FixedBatch(8, 20 + t, true)).ok());
    const double d = std::min(0.2, (1.0 + t) / (10.0 + t));
    for (auto& [name, live] : snapshot()) {
      torch::Tensor& a = average[name];
      a = a.is_floating_point() ? d * a + (1 - d) * live : live;
    }
  }
  absl::StatusOr<std::string> hash =
      trainer->ExportModel(dir / "gen1.model", CheckpointInfo{});
  ASSERT_TRUE(hash.ok()) << hash.status();
  absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(dir / "gen1.model");
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  ASSERT_EQ(checkpoint->tensors.size(), average.size());
  PolicyValueNet exported(AuxNetworkConfig());
  ASSERT_TRUE(ImportTensors(checkpoint->tensors, "test", *exported).ok());
  for (const auto* net : {&*exported, &trainer->published_network()}) {
    auto tensors = net->named_parameters();
    for (const auto& item : net->named_buffers()) {
      tensors.insert(item.key(), item.value());
    }
    for (const auto& item : tensors) {
      const torch::Tensor& expected = average.at(item.key());
      if (expected.is_floating_point()) {
        EXPECT_TRUE(torch::allclose(item.value().to(torch::kDouble), expected,
                                    1e-5, 1e-6))
            << item.key();
      } else {
        EXPECT_TRUE(torch::equal(item.value(), expected)) << item.key();
      }
    }
  }
  // Training went on with the live weights, which are not the average.
  EXPECT_GT(MaxDifference(trainer->network(), trainer->published_network()),
            1e-4);
}

// As ExactResumeTest, with the average: both the live and the published
// weights continue bit for bit.
TEST(NetworkTrainerTest, ResumesTheAverageExactly) {
  SetIntraOpThreads(1);
  TempDir dir;
  TrainingOptions options = CpuOptions();
  options.ema_decay = 0.9;
  std::vector<TrainingBatch> batches;
  for (int i = 0; i < 6; ++i) batches.push_back(FixedBatch(16, 10 + i, true));
  auto uninterrupted = MakeTrainer(options, 1, AuxNetworkConfig());
  for (const TrainingBatch& b : batches)
    ASSERT_TRUE(uninterrupted->Step(b).ok());

  const std::string path = dir / "state.ckpt";
  {
    auto first = MakeTrainer(options, 1, AuxNetworkConfig());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(first->Step(batches[i]).ok());
    ASSERT_TRUE(first->SaveState(path, {}).ok());
  }
  auto resumed = MakeTrainer(options, /*seed=*/99, AuxNetworkConfig());
  ASSERT_TRUE(resumed->LoadState(path).ok());
  for (int i = 3; i < 6; ++i) ASSERT_TRUE(resumed->Step(batches[i]).ok());
  EXPECT_EQ(MaxDifference(uninterrupted->network(), resumed->network()), 0.0);
  EXPECT_EQ(MaxDifference(uninterrupted->published_network(),
                          resumed->published_network()),
            0.0);
  EXPECT_GT(MaxDifference(resumed->network(), resumed->published_network()),
            0.0);
}

// A state saved without an average (ema_decay 0, or from before averaging
// existed) resumes with the average starting at its live weights; one with
// an average resumes without it when averaging is turned off.
TEST(NetworkTrainerTest, StatesWithAndWithoutAverageResume) {
  SetIntraOpThreads(1);
  TempDir dir;
  const TrainingBatch batch = FixedBatch(8, 5);
  auto plain = MakeTrainer(CpuOptions());
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(plain->Step(batch).ok());
  ASSERT_TRUE(plain->SaveState(dir / "plain.ckpt", {}).ok());

  TrainingOptions averaging = CpuOptions();
  averaging.ema_decay = 0.999;
  auto resumed = MakeTrainer(averaging, 7);
  ASSERT_TRUE(resumed->LoadState(dir / "plain.ckpt").ok());
  EXPECT_EQ(MaxDifference(resumed->network(), plain->network()), 0.0);
  EXPECT_EQ(MaxDifference(resumed->published_network(), plain->network()), 0.0);
  ASSERT_TRUE(resumed->Step(batch).ok());
  ASSERT_TRUE(resumed->SaveState(dir / "averaged.ckpt", {}).ok());

  auto without = MakeTrainer(CpuOptions(), 7);
  ASSERT_TRUE(without->LoadState(dir / "averaged.ckpt").ok());
  EXPECT_EQ(without->step(), 3);
  EXPECT_EQ(MaxDifference(without->network(), resumed->network()), 0.0);
  EXPECT_EQ(&without->published_network(), &without->network());
}

// A version-2 run exports a version-2 checkpoint, which inference loads
// under a version-2 config and a version-1 config refuses.
TEST(NetworkTrainerTest, ExportsAVersionTwoCheckpoint) {
  TempDir dir;
  auto trainer = MakeTrainer(CpuOptions(), 1, VersionTwoConfig());
  const TrainingBatch batch = FixedBatchInEncoding(8, 4, 2);
  ASSERT_TRUE(trainer->Step(batch).ok());
  const std::string path = dir / "gen1.model";
  ASSERT_TRUE(trainer->ExportModel(path, CheckpointInfo{}).ok());

  ModelOptions options;
  options.device = "cpu";
  auto model = Model::Load(path, options, VersionTwoConfig());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->config().encoding_version, 2);
  std::vector<float> policy(batch.size * 81), wdl(batch.size * 3);
  EXPECT_TRUE(
      (*model)
          ->Forward(batch.planes.data(), batch.size, policy.data(), wdl.data())
          .ok());
  const absl::Status s =
      Model::Load(path, options, TestNetworkConfig()).status();
  EXPECT_NE(s.message().find("input encoding version 2 (expected 1)"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace renju
