#include "nn/network.h"

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/logging.h"
#include "nn/encoding.h"

namespace renju {
namespace {

torch::nn::Conv2d Conv(int in, int out, int kernel) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                               .padding(kernel / 2)
                               .bias(false));
}

// Mean and max over the board: [N, C, S, S] -> [N, 2C].
torch::Tensor GlobalPool(const torch::Tensor& x) {
  return torch::cat({x.mean({2, 3}), x.amax({2, 3})}, 1);
}

// Two 3x3 convs with batch norm and a skip connection. With pooled > 0 it
// is a KataGo global-pooling block: `pooled` of the first conv's channels
// are pooled over the board into a bias for the remaining ones, which lets
// far-apart shapes (a four at one edge, a forbidden point at the other)
// inform each other in one block.
class ResidualBlockImpl : public torch::nn::Module {
 public:
  friend class ::renju::InferenceNet;

  ResidualBlockImpl(int channels, int pooled)
      : regular_(channels - pooled), pooled_(pooled) {
    conv1_ = register_module("conv1", Conv(channels, channels, 3));
    bn1_ = register_module("bn1", torch::nn::BatchNorm2d(regular_));
    if (pooled_ > 0) {
      pool_bn_ = register_module("pool_bn", torch::nn::BatchNorm2d(pooled_));
      pool_fc_ =
          register_module("pool_fc", torch::nn::Linear(2 * pooled_, regular_));
    }
    conv2_ = register_module("conv2", Conv(regular_, channels, 3));
    bn2_ = register_module("bn2", torch::nn::BatchNorm2d(channels));
  }

  torch::Tensor forward(const torch::Tensor& x) {
    torch::Tensor t = conv1_->forward(x);
    torch::Tensor r = bn1_->forward(t.narrow(1, 0, regular_));
    if (pooled_ > 0) {
      torch::Tensor g =
          torch::relu(pool_bn_->forward(t.narrow(1, regular_, pooled_)));
      r = r + pool_fc_->forward(GlobalPool(g)).unsqueeze(-1).unsqueeze(-1);
    }
    torch::Tensor y = bn2_->forward(conv2_->forward(torch::relu(r)));
    return torch::relu(x + y);
  }

 private:
  int regular_;
  int pooled_;
  torch::nn::Conv2d conv1_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr};
  torch::nn::BatchNorm2d pool_bn_{nullptr};
  torch::nn::Linear pool_fc_{nullptr};
  torch::nn::Conv2d conv2_{nullptr};
  torch::nn::BatchNorm2d bn2_{nullptr};
};
TORCH_MODULE(ResidualBlock);

TensorDtype DtypeOf(const torch::Tensor& t) {
  return t.scalar_type() == torch::kInt64 ? TensorDtype::kInt64
                                          : TensorDtype::kFloat32;
}

TensorRecord ToRecord(const std::string& name, const torch::Tensor& tensor) {
  TensorRecord record;
  record.name = name;
  record.dtype = DtypeOf(tensor);
  const torch::Tensor cpu =
      tensor.detach()
          .to(torch::kCPU, record.dtype == TensorDtype::kInt64
                               ? torch::kInt64
                               : torch::kFloat32)
          .contiguous();
  record.shape.assign(cpu.sizes().begin(), cpu.sizes().end());
  record.data.assign(static_cast<const char*>(cpu.data_ptr()), cpu.nbytes());
  return record;
}

absl::Status CopyInto(const TensorRecord& record, torch::Tensor& target) {
  const std::vector<int64_t> shape(target.sizes().begin(),
                                   target.sizes().end());
  if (record.shape != shape) {
    return absl::FailedPreconditionError(
        absl::StrCat("tensor ", record.name, " has shape [",
                     absl::StrJoin(record.shape, ","), "], the network wants [",
                     absl::StrJoin(shape, ","), "]"));
  }
  if (record.dtype != DtypeOf(target)) {
    return absl::FailedPreconditionError(
        absl::StrCat("tensor ", record.name, " has the wrong dtype"));
  }
  const auto dtype =
      record.dtype == TensorDtype::kInt64 ? torch::kInt64 : torch::kFloat32;
  const int64_t bytes =
      record.NumElements() * (record.dtype == TensorDtype::kInt64 ? 8 : 4);
  if (static_cast<int64_t>(record.data.size()) != bytes) {
    return absl::FailedPreconditionError(
        absl::StrCat("tensor ", record.name, " has ", record.data.size(),
                     " bytes of data, its shape needs ", bytes));
  }
  torch::Tensor source = torch::empty(shape, torch::TensorOptions(dtype));
  std::memcpy(source.data_ptr(), record.data.data(), record.data.size());
  torch::NoGradGuard no_grad;
  target.copy_(source);
  return absl::OkStatus();
}

}  // namespace

PolicyValueNetImpl::PolicyValueNetImpl(const NetworkConfig& config)
    : config_(config) {
  RENJU_CHECK(config.Validate().ok()) << config.Validate();
  const int c = config.channels;
  stem_conv_ = register_module(
      "stem_conv", Conv(NumInputPlanes(config.encoding_version), c, 3));
  stem_bn_ = register_module("stem_bn", torch::nn::BatchNorm2d(c));
  blocks_ = register_module("blocks", torch::nn::ModuleList());
  for (int i = 1; i <= config.blocks; ++i) {
    const bool pooling =
        config.global_pool_every > 0 && i % config.global_pool_every == 0;
    blocks_->push_back(
        ResidualBlock(c, pooling ? config.global_pool_channels : 0));
  }
  policy_conv_ =
      register_module("policy_conv", Conv(c, config.policy_channels, 1));
  policy_bn_ = register_module("policy_bn",
                               torch::nn::BatchNorm2d(config.policy_channels));
  policy_out_ =
      register_module("policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                        config.policy_channels, 1, 1)));
  value_conv_ =
      register_module("value_conv", Conv(c, config.value_channels, 1));
  value_bn_ = register_module("value_bn",
                              torch::nn::BatchNorm2d(config.value_channels));
  value_fc_ = register_module(
      "value_fc",
      torch::nn::Linear(2 * config.value_channels, config.value_hidden));
  value_out_ =
      register_module("value_out", torch::nn::Linear(config.value_hidden, 3));
  if (config.aux_heads) {
    opponent_policy_out_ = register_module(
        "opponent_policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                   config.policy_channels, 1, 1)));
    short_value_out_ = register_module(
        "short_value_out", torch::nn::Linear(config.value_hidden, 3));
  }
}

std::pair<torch::Tensor, torch::Tensor> PolicyValueNetImpl::forward(
    torch::Tensor x) {
  const torch::Tensor trunk = Trunk(std::move(x));
  return {policy_out_->forward(PolicyHidden(trunk)).flatten(1),
          value_out_->forward(ValueHidden(trunk))};
}

NetworkOutputs PolicyValueNetImpl::ForwardWithAux(torch::Tensor x) {
  const torch::Tensor trunk = Trunk(std::move(x));
  const torch::Tensor p = PolicyHidden(trunk);
  const torch::Tensor v = ValueHidden(trunk);
  NetworkOutputs out;
  out.policy = policy_out_->forward(p).flatten(1);
  out.wdl = value_out_->forward(v);
  if (config_.aux_heads) {
    out.opponent_policy = opponent_policy_out_->forward(p).flatten(1);
    out.short_value = short_value_out_->forward(v);
  }
  return out;
}

torch::Tensor PolicyValueNetImpl::Trunk(torch::Tensor x) {
  x = torch::relu(stem_bn_->forward(stem_conv_->forward(x)));
  for (const std::shared_ptr<torch::nn::Module>& block : *blocks_) {
    x = block->as<ResidualBlockImpl>()->forward(x);
  }
  return x;
}

torch::Tensor PolicyValueNetImpl::PolicyHidden(const torch::Tensor& trunk) {
  return torch::relu(policy_bn_->forward(policy_conv_->forward(trunk)));
}

torch::Tensor PolicyValueNetImpl::ValueHidden(const torch::Tensor& trunk) {
  torch::Tensor v =
      torch::relu(value_bn_->forward(value_conv_->forward(trunk)));
  return torch::relu(value_fc_->forward(GlobalPool(v)));
}

InferenceNet::FoldedConv InferenceNet::Fold(
    const torch::nn::Conv2d& conv,
    const std::vector<torch::nn::BatchNorm2d>& norms, torch::ScalarType dtype) {
  // Folded in float32 whatever the net's precision, then rounded once.
  const torch::Tensor w = conv->weight.detach().to(torch::kFloat32);
  std::vector<torch::Tensor> scales;
  std::vector<torch::Tensor> shifts;
  for (const torch::nn::BatchNorm2d& bn : norms) {
    const torch::Tensor mean = bn->running_mean.to(torch::kFloat32);
    const torch::Tensor var = bn->running_var.to(torch::kFloat32);
    const torch::Tensor gamma = bn->weight.detach().to(torch::kFloat32);
    const torch::Tensor beta = bn->bias.detach().to(torch::kFloat32);
    const torch::Tensor scale = gamma / torch::sqrt(var + bn->options.eps());
    scales.push_back(scale);
    shifts.push_back(beta - mean * scale);
  }
  const torch::Tensor scale = torch::cat(scales);
  FoldedConv out;
  out.weight = (w * scale.view({-1, 1, 1, 1}))
                   .to(dtype)
                   .contiguous(torch::MemoryFormat::ChannelsLast);
  out.bias = torch::cat(shifts).to(dtype);
  out.padding = (*conv->options.kernel_size())[0] / 2;
  return out;
}

torch::Tensor InferenceNet::Apply(const FoldedConv& conv,
                                  const torch::Tensor& x) {
  return torch::conv2d(x, conv.weight, conv.bias, /*stride=*/1, conv.padding);
}

InferenceNet::InferenceNet(PolicyValueNetImpl& net, torch::ScalarType dtype) {
  torch::NoGradGuard no_grad;
  auto take = [dtype](const torch::Tensor& t) { return t.detach().to(dtype); };
  stem_ = Fold(net.stem_conv_, {net.stem_bn_}, dtype);
  for (const std::shared_ptr<torch::nn::Module>& module : *net.blocks_) {
    const ResidualBlockImpl& b = *module->as<ResidualBlockImpl>();
    Block block;
    block.regular = b.regular_;
    block.pooled = b.pooled_;
    if (b.pooled_ > 0) {
      block.conv1 = Fold(b.conv1_, {b.bn1_, b.pool_bn_}, dtype);
      block.pool_fc_weight = take(b.pool_fc_->weight);
      block.pool_fc_bias = take(b.pool_fc_->bias);
    } else {
      block.conv1 = Fold(b.conv1_, {b.bn1_}, dtype);
    }
    block.conv2 = Fold(b.conv2_, {b.bn2_}, dtype);
    blocks_.push_back(std::move(block));
  }
  policy_conv_ = Fold(net.policy_conv_, {net.policy_bn_}, dtype);
  policy_out_weight_ = take(net.policy_out_->weight);
  policy_out_bias_ = take(net.policy_out_->bias);
  value_conv_ = Fold(net.value_conv_, {net.value_bn_}, dtype);
  value_fc_weight_ = take(net.value_fc_->weight);
  value_fc_bias_ = take(net.value_fc_->bias);
  value_out_weight_ = take(net.value_out_->weight);
  value_out_bias_ = take(net.value_out_->bias);
}

std::pair<torch::Tensor, torch::Tensor> InferenceNet::forward(
    const torch::Tensor& input) const {
  torch::Tensor x = torch::relu(Apply(stem_, input));
  for (const Block& b : blocks_) {
    const torch::Tensor t = Apply(b.conv1, x);
    torch::Tensor r = t.narrow(1, 0, b.regular);
    if (b.pooled > 0) {
      const torch::Tensor g = torch::relu(t.narrow(1, b.regular, b.pooled));
      r = r + torch::linear(GlobalPool(g), b.pool_fc_weight, b.pool_fc_bias)
                  .unsqueeze(-1)
                  .unsqueeze(-1);
    }
    x = torch::relu(x + Apply(b.conv2, torch::relu(r)));
  }
  const torch::Tensor p = torch::relu(Apply(policy_conv_, x));
  torch::Tensor policy =
      torch::conv2d(p, policy_out_weight_, policy_out_bias_).flatten(1);
  const torch::Tensor v = torch::relu(Apply(value_conv_, x));
  const torch::Tensor hidden = torch::relu(
      torch::linear(GlobalPool(v), value_fc_weight_, value_fc_bias_));
  return {std::move(policy),
          torch::linear(hidden, value_out_weight_, value_out_bias_)};
}

std::vector<TensorRecord> ExportTensors(PolicyValueNetImpl& net) {
  std::vector<TensorRecord> out;
  for (const auto& item : net.named_parameters()) {
    out.push_back(ToRecord(item.key(), item.value()));
  }
  for (const auto& item : net.named_buffers()) {
    out.push_back(ToRecord(item.key(), item.value()));
  }
  return out;
}

absl::Status ImportTensors(const std::vector<TensorRecord>& tensors,
                           absl::string_view source, PolicyValueNetImpl& net) {
  absl::flat_hash_map<std::string, torch::Tensor> targets;
  for (const auto& item : net.named_parameters()) {
    targets.emplace(item.key(), item.value());
  }
  for (const auto& item : net.named_buffers()) {
    targets.emplace(item.key(), item.value());
  }
  absl::Status status;
  for (const TensorRecord& record : tensors) {
    auto it = targets.find(record.name);
    status = it == targets.end()
                 ? absl::FailedPreconditionError(absl::StrCat(
                       "tensor ", record.name, " is not in the network"))
                 : CopyInto(record, it->second);
    if (!status.ok()) break;
    targets.erase(it);
  }
  if (status.ok() && !targets.empty()) {
    status = absl::FailedPreconditionError(
        absl::StrCat("tensor ", targets.begin()->first, " is missing"));
  }
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(source, ": ", status.message()));
}

}  // namespace renju
