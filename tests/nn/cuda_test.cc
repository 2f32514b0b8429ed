// The GPU path: a model on CUDA in float32, float16 and bfloat16 against the
// same weights on the CPU, checkpoints crossing between devices, training
// steps on the GPU, and the batched evaluator feeding a GPU. Every test skips
// where the linked LibTorch has no CUDA or no GPU is visible (Debian's
// LibTorch, CI); tools/gpu_check.sh runs them on a GPU host.
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "base/notification.h"
#include "gtest/gtest.h"
#include "nn/batched_evaluator.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/network.h"
#include "nn/output.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::IndexOf;
using ::renju::testing::kDoubleThreeMoves;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;

#define SKIP_WITHOUT_CUDA()                                       \
  if (!CudaAvailable()) {                                         \
    GTEST_SKIP() << "no CUDA in this LibTorch or no GPU visible"; \
  }

std::string TempPath(const std::string& tag) {
  return ::testing::TempDir() + "/renju_cuda_test_" + tag + ".ckpt";
}

std::unique_ptr<Model> Load(const std::string& path, const std::string& device,
                            Precision precision) {
  ModelOptions options;
  options.device = device;
  options.precision = precision;
  absl::StatusOr<std::unique_ptr<Model>> model = Model::Load(path, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : nullptr;
}

// A renju position after `plies` seeded random legal moves.
Game RandomRenjuGame(int seed, int plies) {
  std::mt19937 rng(seed);
  Game game(Variant::kRenju, kRenjuBoardSize);
  while (game.ply() < plies && !game.over()) {
    std::vector<Point> legal = game.LegalPoints();
    EXPECT_TRUE(game.Play(Move::At(legal[rng() % legal.size()])).ok());
  }
  if (game.over()) game.Undo();
  return game;
}

// Masked policy and WDL probabilities of `games` from one batched forward.
std::vector<Evaluation> Evaluate(Model& model, std::vector<Game>& games) {
  const int n = static_cast<int>(games.size());
  const int floats = model.input_floats();
  const int points = model.policy_size();
  std::vector<float> planes(static_cast<size_t>(n) * floats);
  const int version = model.config().encoding_version;
  for (int i = 0; i < n; ++i) {
    EncodePosition(games[i], version, &planes[i * floats]);
  }
  std::vector<float> policy(static_cast<size_t>(n) * points);
  std::vector<float> wdl(static_cast<size_t>(n) * 3);
  const absl::Status status =
      model.Forward(planes.data(), n, policy.data(), wdl.data());
  EXPECT_TRUE(status.ok()) << status;
  std::vector<Evaluation> out(n);
  for (int i = 0; i < n; ++i) {
    out[i].policy.assign(policy.begin() + i * points,
                         policy.begin() + (i + 1) * points);
    MaskedSoftmax(&planes[i * floats] + kLegalPlane * points, points,
                  out[i].policy.data());
    SetWdl(&wdl[i * 3], out[i]);
  }
  return out;
}

double MaxDifference(const std::vector<Evaluation>& a,
                     const std::vector<Evaluation>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t k = 0; k < a[i].policy.size(); ++k) {
      worst =
          std::max(worst, std::fabs(double{a[i].policy[k]} - b[i].policy[k]));
    }
    worst = std::max(worst, std::fabs(double{a[i].win} - b[i].win));
    worst = std::max(worst, std::fabs(double{a[i].draw} - b[i].draw));
    worst = std::max(worst, std::fabs(double{a[i].loss} - b[i].loss));
  }
  return worst;
}

class ModelCudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_CUDA();
    ModelOptions cpu;
    cpu.device = "cpu";
    absl::StatusOr<std::unique_ptr<Model>> model =
        Model::Create(MediumNetworkConfig(), cpu, 11);
    ASSERT_TRUE(model.ok()) << model.status();
    path_ = TempPath(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE((*model)->Save(path_).ok());
    for (int i = 0; i < 64; ++i)
      games_.push_back(RandomRenjuGame(i, 2 + i % 50));
    cpu_ = *std::move(model);
    expected_ = Evaluate(*cpu_, games_);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::string path_;
  std::unique_ptr<Model> cpu_;
  std::vector<Game> games_;
  std::vector<Evaluation> expected_;
};

TEST_F(ModelCudaTest, Float32OnTheGpuMatchesTheCpu) {
  std::unique_ptr<Model> gpu = Load(path_, "cuda", Precision::kFloat32);
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->device_name(), "cuda:0");
  EXPECT_EQ(gpu->content_hash(), cpu_->content_hash());
  // cuDNN may run float32 convolutions in TF32 (10-bit mantissa), so the
  // agreement is to about 1e-3 on probabilities, not to float rounding.
  EXPECT_LT(MaxDifference(Evaluate(*gpu, games_), expected_), 5e-3);
}

TEST_F(ModelCudaTest, HalfAndBfloat16StayCloseToFloat32) {
  for (Precision precision : {Precision::kFloat16, Precision::kBFloat16}) {
    SCOPED_TRACE(static_cast<int>(precision));
    std::unique_ptr<Model> gpu = Load(path_, "cuda", precision);
    ASSERT_NE(gpu, nullptr);
    std::vector<Evaluation> got = Evaluate(*gpu, games_);
    // bfloat16 keeps 8 bits of mantissa: probabilities within a few
    // hundredths, and the masking stays exact.
    EXPECT_LT(MaxDifference(got, expected_), 0.05);
    for (size_t i = 0; i < games_.size(); ++i) {
      double sum = 0;
      for (float p : got[i].policy) sum += p;
      EXPECT_NEAR(sum, 1.0, 1e-4) << i;
    }
  }
  Game game = MakeGame(kDoubleThreeMoves);
  std::vector<Game> one = {game};
  std::unique_ptr<Model> bf16 = Load(path_, "cuda", Precision::kBFloat16);
  ASSERT_NE(bf16, nullptr);
  const Evaluation out = Evaluate(*bf16, one)[0];
  EXPECT_EQ(out.policy[IndexOf(Pt("i8"))], 0.0f);  // forbidden for black
  EXPECT_EQ(out.policy[IndexOf(Pt("h8"))], 0.0f);  // occupied
  EXPECT_GT(out.policy[IndexOf(Pt("j8"))], 0.0f);
}

TEST_F(ModelCudaTest, CheckpointSavedOnTheGpuLoadsOnTheCpuBitExact) {
  std::unique_ptr<Model> gpu = Load(path_, "cuda", Precision::kFloat32);
  ASSERT_NE(gpu, nullptr);
  const std::string again = TempPath("saved_from_gpu");
  ASSERT_TRUE(gpu->Save(again).ok());
  EXPECT_EQ(gpu->content_hash(), cpu_->content_hash());
  std::unique_ptr<Model> back = Load(again, "cpu", Precision::kFloat32);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->content_hash(), cpu_->content_hash());
  EXPECT_EQ(MaxDifference(Evaluate(*back, games_), expected_), 0.0);
  std::remove(again.c_str());
}

TEST_F(ModelCudaTest, BatchedEvaluatorOnTheGpuGivesEachCallerItsOwnResult) {
  std::vector<std::unique_ptr<Model>> models;
  for (int i = 0; i < 2; ++i) {
    models.push_back(Load(path_, "cuda", Precision::kFloat32));
    ASSERT_NE(models.back(), nullptr);
  }
  BatchedEvaluatorOptions options;
  options.max_batch_size = 32;
  options.max_wait_us = 2000;
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(std::move(models), options);
  ASSERT_TRUE(evaluator.ok()) << evaluator.status();
  std::vector<Evaluation> results(games_.size());
  std::vector<Game> games = games_;
  Notification start;
  std::vector<std::thread> threads;
  constexpr int kThreads = 32;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.WaitForNotification();
      for (size_t i = t; i < games.size(); i += kThreads) {
        EXPECT_TRUE((*evaluator)->Evaluate(games[i], results[i]).ok());
      }
    });
  }
  start.Notify();
  for (std::thread& t : threads) t.join();
  EXPECT_LT(MaxDifference(results, expected_), 5e-3);
  EXPECT_GT((*evaluator)->stats().mean_batch_size(), 1.5);
}

TEST(NetworkCudaTest, LearnsAFixedTargetOnTheGpu) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(3);
  const torch::Device device(torch::kCUDA, 0);
  PolicyValueNet net(TinyNetworkConfig());
  net->to(device);
  net->train();
  std::vector<Game> games;
  for (int i = 0; i < 16; ++i) games.push_back(RandomRenjuGame(100 + i, i * 3));
  torch::Tensor x = torch::zeros({16, kNumInputPlanesV1, 15, 15});
  for (int i = 0; i < 16; ++i) {
    EncodePosition(games[i], 1, x[i].data_ptr<float>());
  }
  x = x.to(device);
  const torch::Tensor move = torch::full({16}, 112, torch::kLong).to(device);
  const torch::Tensor result = torch::full({16}, 1, torch::kLong).to(device);
  torch::optim::Adam optimizer(net->parameters(),
                               torch::optim::AdamOptions(1e-2));
  auto loss_fn = [&] {
    auto [policy, wdl] = net->forward(x);
    return torch::nn::functional::cross_entropy(policy, move) +
           torch::nn::functional::cross_entropy(wdl, result);
  };
  const float initial = loss_fn().item<float>();
  for (int step = 0; step < 60; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = loss_fn();
    loss.backward();
    optimizer.step();
  }
  const float final_loss = loss_fn().item<float>();
  EXPECT_LT(final_loss, 0.2f * initial) << initial << " -> " << final_loss;
  for (const auto& p : net->named_parameters()) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_TRUE(p.value().is_cuda()) << p.key();
  }
}

}  // namespace
}  // namespace renju
