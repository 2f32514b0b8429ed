// The losses of a training step (network_trainer.h states them): the
// batch as tensors on the training device, the loss to minimise, and the
// per-step sums the step's statistics come from. Internal to trainer/
// (network_trainer.cc); not thread-safe, like the trainer.
#ifndef RENJU_TRAINER_LOSSES_H_
#define RENJU_TRAINER_LOSSES_H_

#include <cstdint>

#include "nn/network.h"
#include "trainer/network_trainer.h"
#include "trainer/replay_window.h"

namespace renju::losses {

// Logits of illegal points: finite, so that 0 * log p stays 0 in the loss
// and the entropy, and exp() of it is exactly 0 in float32 and float16.
constexpr double kMaskedLogit = -1e4;

// Per-step sums, all-reduced with the gradients when data-parallel.
enum StatIndex {
  kPolicyCeSum,
  kFullSearchCount,
  kValueCeSum,
  kEntropySum,
  kWinPredictedSum,
  kWinObservedSum,
  kBrierSum,
  kSampleCount,
  kOpponentPolicyCeSum,
  kOpponentPolicyCount,
  kShortValueCeSum,
  kNumStats
};

struct BatchTensors {
  torch::Tensor x;              // [n, planes, S, S]
  torch::Tensor policy_target;  // [n, S * S]
  torch::Tensor policy_weight;  // [n]
  torch::Tensor wdl_target;     // [n, 3]
  // Points inference would consider, plus any the target names (a target
  // is always legal in a validated game; this keeps the loss finite
  // regardless).
  torch::Tensor candidates;  // [n, S * S] bool
  // With auxiliary targets only (else undefined).
  torch::Tensor opponent_policy_target;  // [n, S * S]
  torch::Tensor opponent_policy_weight;  // [n]
  torch::Tensor short_value_target;      // [n, 3]
};

// `batch` on `device`: its planes, targets and weights, and the points
// inference would consider.
BatchTensors ToTensors(const TrainingBatch& batch, const torch::Device& device);

// The loss to minimise (see network_trainer.h) and, without gradients, the
// per-step sums indexed by StatIndex.
void ComputeLosses(const NetworkOutputs& out, const BatchTensors& b,
                   const TrainingOptions& options, torch::Tensor& loss,
                   torch::Tensor& sums);

// The step's statistics from the sums (kNumStats of them, all ranks'
// when data-parallel).
StepStats Summarize(const double* sum, const TrainingOptions& options,
                    int64_t step, double lr);

}  // namespace renju::losses

#endif  // RENJU_TRAINER_LOSSES_H_
