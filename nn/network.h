// The policy-value network as a LibTorch module (shape in network_config.h).
// This is the one inference header that includes LibTorch: the model
// wrapper (model.h) and the trainer use it; search and the evaluators do not.
//
// The module works in whatever mode and on whatever device its caller sets
// (train() for the trainer, eval() and InferenceMode for Model). Not
// thread-safe: one caller at a time.
#ifndef RENJU_NN_NETWORK_H_
#define RENJU_NN_NETWORK_H_

// The module headers only, not <torch/torch.h>: they parse ~15% faster.
#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nn/network_config.h"
#include "nn/tensor_file.h"

namespace renju {

// Everything a training step needs from one forward pass. The auxiliary
// tensors are undefined for a net without NetworkConfig::aux_heads.
struct NetworkOutputs {
  torch::Tensor policy;  // [N, S * S] logits, as forward()
  torch::Tensor wdl;     // [N, 3] logits, as forward()
  // Logits of the opponent's reply to the move played here, over points
  // y * S + x (unmasked).
  torch::Tensor opponent_policy;  // [N, S * S]
  // Win/draw/loss logits of the short-term value (replay_window.h).
  torch::Tensor short_value;  // [N, 3]
};

class PolicyValueNetImpl : public torch::nn::Module {
 public:
  // `config` must be valid (NetworkConfig::Validate).
  explicit PolicyValueNetImpl(const NetworkConfig& config);

  // x: [N, NumInputPlanes(config.encoding_version), S, S] (encoding.h).
  // Returns policy logits
  // [N, S * S] (index y * S + x, unmasked) and win/draw/loss logits [N, 3].
  // Never computes the auxiliary heads: this is the inference path.
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x);
  // forward()'s outputs (the same values) plus, with aux_heads, the
  // auxiliary ones from the same trunk; for training.
  NetworkOutputs ForwardWithAux(torch::Tensor x);

  const NetworkConfig& config() const { return config_; }

 private:
  friend class InferenceNet;

  torch::Tensor Trunk(torch::Tensor x);
  // The heads' hidden layers, which the auxiliary outputs share.
  torch::Tensor PolicyHidden(const torch::Tensor& trunk);
  torch::Tensor ValueHidden(const torch::Tensor& trunk);

  NetworkConfig config_;
  torch::nn::Conv2d stem_conv_{nullptr};
  torch::nn::BatchNorm2d stem_bn_{nullptr};
  torch::nn::ModuleList blocks_{nullptr};
  torch::nn::Conv2d policy_conv_{nullptr};
  torch::nn::BatchNorm2d policy_bn_{nullptr};
  torch::nn::Conv2d policy_out_{nullptr};
  torch::nn::Conv2d value_conv_{nullptr};
  torch::nn::BatchNorm2d value_bn_{nullptr};
  torch::nn::Linear value_fc_{nullptr};
  torch::nn::Linear value_out_{nullptr};
  // With aux_heads only; registered last so that the other weights are
  // drawn as without them.
  torch::nn::Conv2d opponent_policy_out_{nullptr};
  torch::nn::Linear short_value_out_{nullptr};
};
TORCH_MODULE(PolicyValueNet);

// The network for play: each batch norm folded, with its running
// statistics, into the convolution before it, so a forward is convolutions,
// two small linear layers, adds and ReLUs instead of a batch norm pass over
// the activations after each convolution. Gives the eval-mode forward()'s
// outputs to rounding. Built once the weights are final (Model builds one
// after loading); later changes to `net` do not reach it. Same device as
// `net`; its weights are folded in float32 and then stored as `dtype`, the
// type its inputs must have. Not thread-safe: one caller at a time, in
// InferenceMode.
class InferenceNet {
 public:
  InferenceNet(PolicyValueNetImpl& net, torch::ScalarType dtype);
  // As PolicyValueNetImpl::forward.
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) const;

 private:
  struct FoldedConv {
    torch::Tensor weight;
    torch::Tensor bias;
    int padding = 0;
  };
  struct Block {
    FoldedConv conv1;  // its batch norms (regular and pooled) folded
    FoldedConv conv2;
    int regular = 0;
    int pooled = 0;
    torch::Tensor pool_fc_weight;
    torch::Tensor pool_fc_bias;
  };
  static FoldedConv Fold(const torch::nn::Conv2d& conv,
                         const std::vector<torch::nn::BatchNorm2d>& norms,
                         torch::ScalarType dtype);
  static torch::Tensor Apply(const FoldedConv& conv, const torch::Tensor& x);

  FoldedConv stem_;
  std::vector<Block> blocks_;
  FoldedConv policy_conv_;
  torch::Tensor policy_out_weight_;
  torch::Tensor policy_out_bias_;
  FoldedConv value_conv_;
  torch::Tensor value_fc_weight_;
  torch::Tensor value_fc_bias_;
  torch::Tensor value_out_weight_;
  torch::Tensor value_out_bias_;
};

// Every parameter and buffer (batch-norm statistics included) as CPU tensor
// records, named by the module's own paths ("blocks.0.conv1.weight").
std::vector<TensorRecord> ExportTensors(PolicyValueNetImpl& net);

// Copies `tensors` into `net`: the names, dtypes and shapes must match the
// net's exactly, with nothing missing or extra; the error names the first
// tensor that does not fit, prefixed with `source` (e.g. the file path).
// On error `net` may be partly overwritten.
absl::Status ImportTensors(const std::vector<TensorRecord>& tensors,
                           absl::string_view source, PolicyValueNetImpl& net);

}  // namespace renju

#endif  // RENJU_NN_NETWORK_H_
