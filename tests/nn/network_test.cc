// The LibTorch module itself: output shapes, and that it learns (gradients
// reach every head and block), which the trainer will rely on.
#include "nn/network.h"

#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>

#include <vector>

#include "gtest/gtest.h"
#include "nn/encoding.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::MakeGame;

torch::Tensor Encode(const std::vector<std::string>& games, int size,
                     int encoding_version = 1) {
  torch::Tensor x =
      torch::zeros({static_cast<int64_t>(games.size()),
                    NumInputPlanes(encoding_version), size, size});
  for (size_t i = 0; i < games.size(); ++i) {
    Game game = MakeGame(games[i], Variant::kFreestyle, size);
    EncodePosition(game, encoding_version, x[i].data_ptr<float>());
  }
  return x;
}

TEST(NetworkTest, OutputShapes) {
  PolicyValueNet net(TinyNetworkConfig(9));
  net->eval();
  torch::NoGradGuard no_grad;
  auto [policy, wdl] = net->forward(Encode({"e5", "a1 b2 c3", ""}, 9));
  EXPECT_EQ(policy.sizes(), (std::vector<int64_t>{3, 81}));
  EXPECT_EQ(wdl.sizes(), (std::vector<int64_t>{3, 3}));
}

TEST(NetworkTest, StemTakesTheEncodingsPlanes) {
  for (int version : {1, 2}) {
    NetworkConfig config = TinyNetworkConfig(9);
    config.encoding_version = version;
    PolicyValueNet net(config);
    net->eval();
    EXPECT_EQ(net->named_parameters()["stem_conv.weight"].size(1),
              NumInputPlanes(version));
    torch::NoGradGuard no_grad;
    auto [policy, wdl] = net->forward(Encode({"e5 e6 d5", ""}, 9, version));
    EXPECT_EQ(policy.sizes(), (std::vector<int64_t>{2, 81}));
    EXPECT_EQ(wdl.sizes(), (std::vector<int64_t>{2, 3}));
  }
}

TEST(NetworkTest, LearnsAFixedTarget) {
  torch::manual_seed(3);
  PolicyValueNet net(TinyNetworkConfig(9));
  net->train();
  const torch::Tensor x = Encode({"e5", "a1 b2", "c3 d4 e5", "i9", ""}, 9);
  // Every position: a1 (index 0) is the move and the game is a draw.
  const torch::Tensor move = torch::zeros({5}, torch::kLong);
  const torch::Tensor result = torch::full({5}, 1, torch::kLong);
  torch::optim::Adam optimizer(net->parameters(),
                               torch::optim::AdamOptions(1e-2));
  auto loss_fn = [&] {
    auto [policy, wdl] = net->forward(x);
    return torch::nn::functional::cross_entropy(policy, move) +
           torch::nn::functional::cross_entropy(wdl, result);
  };
  const float initial = loss_fn().item<float>();
  for (int step = 0; step < 40; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = loss_fn();
    loss.backward();
    optimizer.step();
  }
  const float final_loss = loss_fn().item<float>();
  EXPECT_LT(final_loss, 0.2f * initial) << initial << " -> " << final_loss;
  for (const auto& p : net->named_parameters()) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_GT(p.value().grad().abs().sum().item<float>(), 0.0f) << p.key();
  }
}

TEST(NetworkTest, ExportedTensorsNameEveryParameterAndBuffer) {
  PolicyValueNet net(TinyNetworkConfig());
  const std::vector<TensorRecord> tensors = ExportTensors(*net);
  EXPECT_EQ(tensors.size(),
            net->named_parameters().size() + net->named_buffers().size());
  int64_t parameters = 0;
  for (const TensorRecord& t : tensors) {
    if (t.name.find("running_") == std::string::npos &&
        t.name.find("num_batches") == std::string::npos) {
      parameters += t.NumElements();
    }
  }
  // 4 blocks x 32 channels: about 75k weights, a ~0.3 MB checkpoint.
  EXPECT_GT(parameters, 60000);
  EXPECT_LT(parameters, 90000);
  PolicyValueNet copy(TinyNetworkConfig());
  ASSERT_TRUE(ImportTensors(tensors, "test", *copy).ok());
  EXPECT_TRUE(torch::equal(copy->named_parameters()["stem_conv.weight"],
                           net->named_parameters()["stem_conv.weight"]));
}

// The auxiliary heads are extra outputs for training: the main outputs
// and the main weights are the same with or without them.
TEST(NetworkTest, AuxHeadsAddOutputsAndChangeNothingElse) {
  NetworkConfig with = TinyNetworkConfig(9);
  with.aux_heads = true;
  torch::manual_seed(5);
  PolicyValueNet plain(TinyNetworkConfig(9));
  torch::manual_seed(5);
  PolicyValueNet aux(with);
  for (const auto& p : plain->named_parameters()) {
    EXPECT_TRUE(torch::equal(p.value(), aux->named_parameters()[p.key()]))
        << p.key();
  }
  EXPECT_EQ(aux->named_parameters().size(),
            plain->named_parameters().size() + 4);  // two weights, two biases

  aux->eval();
  torch::NoGradGuard no_grad;
  const torch::Tensor x = Encode({"e5", "a1 b2 c3", ""}, 9);
  const NetworkOutputs out = aux->ForwardWithAux(x);
  auto [policy, wdl] = aux->forward(x);
  EXPECT_TRUE(torch::equal(out.policy, policy));
  EXPECT_TRUE(torch::equal(out.wdl, wdl));
  EXPECT_EQ(out.opponent_policy.sizes(), (std::vector<int64_t>{3, 81}));
  EXPECT_EQ(out.short_value.sizes(), (std::vector<int64_t>{3, 3}));
  EXPECT_FALSE(plain->ForwardWithAux(x).short_value.defined());
}

// Folding needs batch-norm statistics that do something: random running
// means and variances, scales and shifts, as a trained net has.
void RandomiseBatchNorms(PolicyValueNetImpl& net) {
  torch::NoGradGuard no_grad;
  for (const auto& item : net.named_buffers()) {
    torch::Tensor t = item.value();
    if (item.key().find("running_mean") != std::string::npos) {
      t.copy_(torch::randn_like(t) * 0.5);
    } else if (item.key().find("running_var") != std::string::npos) {
      t.copy_(torch::rand_like(t) * 2 + 0.2);
    }
  }
  for (const auto& item : net.named_parameters()) {
    if (item.key().find("bn") != std::string::npos && item.value().dim() == 1) {
      item.value().copy_(torch::randn_like(item.value()) * 0.5 + 0.5);
    }
  }
}

TEST(NetworkTest, FoldedBatchNormsGiveTheSameOutputs) {
  // TinyNetworkConfig has global-pooling blocks, so the pooled channels'
  // batch norm is folded too.
  for (int encoding_version : {1, 2}) {
    SCOPED_TRACE(encoding_version);
    NetworkConfig config = TinyNetworkConfig(9);
    config.encoding_version = encoding_version;
    torch::manual_seed(3);
    PolicyValueNet net(config);
    RandomiseBatchNorms(*net);
    net->eval();
    torch::NoGradGuard no_grad;
    const torch::Tensor x =
        Encode({"e5", "a1 b2 c3", "", "e5 e6 f5 f6 d4"}, 9, encoding_version);
    auto [policy, wdl] = net->forward(x);
    const InferenceNet folded(*net, torch::kFloat32);
    auto [folded_policy, folded_wdl] = folded.forward(x);
    EXPECT_TRUE(torch::allclose(folded_policy, policy, 1e-4, 1e-4))
        << (folded_policy - policy).abs().max().item<float>();
    EXPECT_TRUE(torch::allclose(folded_wdl, wdl, 1e-4, 1e-4))
        << (folded_wdl - wdl).abs().max().item<float>();
    // The running statistics matter: the batch's own give other outputs.
    net->train();
    EXPECT_FALSE(torch::allclose(net->forward(x).first, policy, 1e-3, 1e-3))
        << "batch statistics instead of running ones should differ";
  }
}

}  // namespace
}  // namespace renju
