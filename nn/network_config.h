// The shape of the policy-value network: a plain struct, so a later config
// layer (protobuf) can fill it in one place and checkpoints can store it.
//
// The network (network.h) is a residual tower in the AlphaZero/KataGo mould:
//   stem:   3x3 conv (the encoding's input planes -> channels), batch
//           norm, ReLU
//   tower:  `blocks` residual blocks of two 3x3 convs with batch norm; every
//           `global_pool_every`-th block is a KataGo-style global-pooling
//           block, whose first conv also feeds `global_pool_channels`
//           channels through mean and max pooling into per-channel biases
//   policy: 1x1 conv -> policy_channels, BN, ReLU, 1x1 conv -> 1 logit/point
//   value:  1x1 conv -> value_channels, BN, ReLU, mean and max pooling,
//           linear -> value_hidden, ReLU, linear -> 3 (win, draw, loss)
//   aux (with aux_heads, training only; KataGo, arXiv:1902.10565 §4):
//           a second 1x1 conv on the policy head's hidden layer -> the
//           opponent's reply policy, and a second linear on the value
//           head's hidden layer -> 3 short-term value logits
#ifndef RENJU_NN_NETWORK_CONFIG_H_
#define RENJU_NN_NETWORK_CONFIG_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace renju {

struct NetworkConfig {
  // The network serves one board size; positions of other sizes are errors.
  int board_size = 15;
  // Residual blocks in the tower, 1..64.
  int blocks = 4;
  // Channels in the tower, 8..512.
  int channels = 32;
  // Every n-th block (the n-th, 2n-th, ...) pools globally; 0 = none.
  int global_pool_every = 2;
  // Channels of a global-pooling block that are pooled, 1..channels-1.
  int global_pool_channels = 8;
  // Channels of the policy head's hidden layer, 1..512.
  int policy_channels = 8;
  // Channels of the value head's conv, 1..512, and its hidden width, 1..4096.
  int value_channels = 8;
  int value_hidden = 32;
  // The auxiliary heads above. Only training computes them; inference
  // loads and ignores them, so its cost is the same either way.
  bool aux_heads = false;
  // The input encoding (encoding.h), kMinEncodingVersion..kMaxEncodingVersion;
  // it sets the stem conv's input planes (NumInputPlanes).
  int encoding_version = 1;

  // OK, or InvalidArgument naming the first bad field and its value.
  absl::Status Validate() const;
  // "board_size=15 blocks=4 channels=32 ..." for logs and error messages:
  // the tower's shape, without encoding_version, which training states
  // (trainer/network_trainer.h) record apart so that states written before
  // it existed still match; " aux_heads=1" at the end only when on, for the
  // same reason.
  std::string DebugString() const;

  friend bool operator==(const NetworkConfig& a, const NetworkConfig& b);
  friend bool operator!=(const NetworkConfig& a, const NetworkConfig& b) {
    return !(a == b);
  }
};

// Learns on a laptop CPU: 4 blocks x 32 channels, one global-pooling block
// in two.
NetworkConfig TinyNetworkConfig(int board_size = 15);
// The benchmarks' mid-sized net: 10 blocks x 96 channels.
NetworkConfig MediumNetworkConfig(int board_size = 15);

}  // namespace renju

#endif  // RENJU_NN_NETWORK_CONFIG_H_
