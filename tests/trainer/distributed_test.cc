// Data parallelism through c10d over Gloo: two ranks (two threads, each with
// its own process group, meeting through a FileStore) that each train on
// half of every batch take the same steps as one rank on the whole batch.
//
// Batch norm is the one honest difference: in training mode each rank
// normalises with its own half-batch statistics (as PyTorch's
// DistributedDataParallel does without SyncBatchNorm), so the exact
// equivalence is checked with batch norm using its running statistics
// (eval mode), where the loss is a plain mean over positions; in training
// mode the test checks what still must hold: the ranks stay identical and
// their averaged running means are the whole batch's.
#include "trainer/distributed.h"

#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nn/model.h"
#include "nn/network.h"
#include "tests/trainer/training_test_util.h"
#include "trainer/network_trainer.h"

namespace renju {
namespace {

using ::renju::testing::FixedBatch;
using ::renju::testing::MaxDifference;
using ::renju::testing::SliceBatch;
using ::renju::testing::TempDir;
using ::renju::testing::TestNetworkConfig;

constexpr int kSteps = 3;
constexpr int kBatch = 16;

TrainingOptions SgdOptions() {
  TrainingOptions o;
  o.device = "cpu";
  o.learning_rate = 0.05;
  o.warmup_steps = 0;
  o.momentum = 0.9;
  o.weight_decay = 1e-4;
  return o;
}

struct RankResult {
  absl::Status status;
  std::unique_ptr<DataParallelGroup> group;  // outlives the trainer
  std::unique_ptr<NetworkTrainer> trainer;
  std::vector<StepStats> stats;
};

// Runs `ranks` trainers on threads, rank r on rows [r * n, (r + 1) * n) of
// each batch, with batch norm in eval mode when `frozen_batch_norm`.
std::vector<RankResult> TrainOnRanks(int ranks,
                                     const std::vector<TrainingBatch>& batches,
                                     bool frozen_batch_norm,
                                     const std::string& rendezvous) {
  std::vector<RankResult> results(ranks);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank) {
    threads.emplace_back([&, rank] {
      RankResult& r = results[rank];
      DistributedOptions options;
      options.rank = rank;
      options.world_size = ranks;
      options.init_method = "file://" + rendezvous;
      options.timeout_s = 60;
      auto group = DataParallelGroup::Connect(options);
      if (!group.ok()) {
        r.status = group.status();
        return;
      }
      r.group = *std::move(group);
      // Different seeds: rank 0's weights must reach rank 1 by broadcast.
      auto trainer = NetworkTrainer::Create(TestNetworkConfig(), SgdOptions(),
                                            1 + rank, r.group.get());
      if (!trainer.ok()) {
        r.status = trainer.status();
        return;
      }
      r.trainer = *std::move(trainer);
      if (frozen_batch_norm) r.trainer->network().eval();
      const int share = kBatch / ranks;
      for (const TrainingBatch& batch : batches) {
        auto stats = r.trainer->Step(
            SliceBatch(batch, rank * share, (rank + 1) * share));
        if (!stats.ok()) {
          r.status = stats.status();
          return;
        }
        r.stats.push_back(*stats);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return results;
}

std::vector<TrainingBatch> Batches() {
  std::vector<TrainingBatch> out;
  for (int i = 0; i < kSteps; ++i) out.push_back(FixedBatch(kBatch, 20 + i));
  return out;
}

TEST(DistributedTest, TwoRanksEqualOneRankOnTheWholeBatch) {
  SetIntraOpThreads(1);
  TempDir dir;
  const std::vector<TrainingBatch> batches = Batches();
  auto reference = NetworkTrainer::Create(TestNetworkConfig(), SgdOptions(), 1);
  ASSERT_TRUE(reference.ok());
  (*reference)->network().eval();
  std::vector<StepStats> reference_stats;
  for (const TrainingBatch& b : batches) {
    auto stats = (*reference)->Step(b);
    ASSERT_TRUE(stats.ok()) << stats.status();
    reference_stats.push_back(*stats);
  }

  std::vector<RankResult> ranks =
      TrainOnRanks(2, batches, /*frozen_batch_norm=*/true, dir / "rendezvous");
  for (const RankResult& r : ranks) ASSERT_TRUE(r.status.ok()) << r.status;

  // The weights moved (so the comparison means something) ...
  auto untrained = NetworkTrainer::Create(TestNetworkConfig(), SgdOptions(), 1);
  ASSERT_TRUE(untrained.ok());
  EXPECT_GT(MaxDifference((*untrained)->network(), ranks[0].trainer->network()),
            1e-3);
  // ... the ranks agree exactly, and with the one-rank run to float
  // rounding (sums taken in another order).
  EXPECT_EQ(
      MaxDifference(ranks[0].trainer->network(), ranks[1].trainer->network()),
      0.0);
  EXPECT_LT(MaxDifference((*reference)->network(), ranks[0].trainer->network()),
            1e-5);
  for (int i = 0; i < kSteps; ++i) {
    const StepStats& a = reference_stats[i];
    const StepStats& b = ranks[0].stats[i];
    EXPECT_EQ(b.samples, kBatch);
    EXPECT_EQ(b.full_search_samples, a.full_search_samples);
    EXPECT_NEAR(b.policy_loss, a.policy_loss, 1e-4);
    EXPECT_NEAR(b.value_loss, a.value_loss, 1e-4);
    EXPECT_NEAR(b.value_brier, a.value_brier, 1e-4);
  }
}

TEST(DistributedTest, TrainingModeBatchNormKeepsRanksIdentical) {
  SetIntraOpThreads(1);
  TempDir dir;
  const std::vector<TrainingBatch> batches = Batches();
  std::vector<RankResult> ranks =
      TrainOnRanks(2, batches, /*frozen_batch_norm=*/false, dir / "rendezvous");
  for (const RankResult& r : ranks) ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(
      MaxDifference(ranks[0].trainer->network(), ranks[1].trainer->network()),
      0.0);

  // After one step from equal weights, the stem's batch norm has seen the
  // same inputs on both sides: the averaged running means of the halves
  // are the whole batch's (deeper layers' inputs already differ by the
  // per-half normalisation above them).
  const std::vector<TrainingBatch> first(batches.begin(), batches.begin() + 1);
  std::vector<RankResult> one_step =
      TrainOnRanks(2, first, /*frozen_batch_norm=*/false, dir / "rendezvous2");
  for (const RankResult& r : one_step) ASSERT_TRUE(r.status.ok()) << r.status;
  auto reference = NetworkTrainer::Create(TestNetworkConfig(), SgdOptions(), 1);
  ASSERT_TRUE(reference.ok());
  ASSERT_TRUE((*reference)->Step(first[0]).ok());
  const torch::Tensor whole =
      (*reference)->network().named_buffers()["stem_bn.running_mean"];
  const torch::Tensor averaged =
      one_step[0].trainer->network().named_buffers()["stem_bn.running_mean"];
  EXPECT_GT(whole.abs().max().item<float>(), 1e-4);
  EXPECT_TRUE(torch::allclose(whole, averaged, 1e-4, 1e-6));
}

TEST(DistributedTest, BadOptionsAreErrors) {
  DistributedOptions options;
  options.world_size = 2;
  options.rank = 2;
  options.init_method = "file:///tmp/x";
  EXPECT_EQ(DataParallelGroup::Connect(options).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.rank = 0;
  for (const char* method : {"", "file://relative", "tcp://host", "tcp://:80",
                             "tcp://h:99999", "nccl://x"}) {
    options.init_method = method;
    absl::Status s = DataParallelGroup::Connect(options).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << method;
  }
}

}  // namespace
}  // namespace renju
