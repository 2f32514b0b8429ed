#include "trainer/losses.h"

#include <torch/utils.h>

#include <algorithm>
#include <cmath>

#include "nn/encoding.h"

namespace renju::losses {
namespace {

// The auxiliary losses' sums over the batch: the opponent policy's
// (weighted by its mask) and the short-term value's cross-entropy.
struct AuxSums {
  torch::Tensor opponent_policy_ce;
  torch::Tensor short_value_ce;
};

AuxSums AuxLosses(const NetworkOutputs& out, const BatchTensors& b) {
  const torch::Tensor opponent_ce =
      -(b.opponent_policy_target * torch::log_softmax(out.opponent_policy, 1))
           .sum(1);
  const torch::Tensor short_value_ce =
      -(b.short_value_target * torch::log_softmax(out.short_value, 1)).sum(1);
  return {(b.opponent_policy_weight * opponent_ce).sum(), short_value_ce.sum()};
}

}  // namespace

BatchTensors ToTensors(const TrainingBatch& batch,
                       const torch::Device& device) {
  const int64_t n = batch.size;
  const int64_t s = batch.board_size;
  auto tensor = [&](const std::vector<float>& v, std::vector<int64_t> shape) {
    return torch::from_blob(const_cast<float*>(v.data()), shape,
                            torch::kFloat32)
        .to(device);
  };
  BatchTensors b;
  b.x = tensor(batch.planes, {n, NumInputPlanes(batch.encoding_version), s, s});
  b.policy_target = tensor(batch.policy_target, {n, s * s});
  b.policy_weight = tensor(batch.policy_weight, {n});
  b.wdl_target = tensor(batch.wdl_target, {n, 3});
  b.candidates = b.x.select(1, kLegalPlane).reshape({n, s * s}).gt(0.5) |
                 b.policy_target.gt(0);
  if (batch.has_aux_targets()) {
    b.opponent_policy_target = tensor(batch.opponent_policy_target, {n, s * s});
    b.opponent_policy_weight = tensor(batch.opponent_policy_weight, {n});
    b.short_value_target = tensor(batch.short_value_target, {n, 3});
  }
  return b;
}

void ComputeLosses(const NetworkOutputs& out, const BatchTensors& b,
                   const TrainingOptions& options, torch::Tensor& loss,
                   torch::Tensor& sums) {
  const double n = static_cast<double>(b.x.size(0));
  const torch::Tensor log_policy = torch::log_softmax(
      out.policy.masked_fill(b.candidates.logical_not(), kMaskedLogit), 1);
  const torch::Tensor log_wdl = torch::log_softmax(out.wdl, 1);
  const torch::Tensor policy_ce = -(b.policy_target * log_policy).sum(1);
  const torch::Tensor value_ce = -(b.wdl_target * log_wdl).sum(1);
  loss = (options.policy_loss_weight * (b.policy_weight * policy_ce).sum() +
          options.value_loss_weight * value_ce.sum()) /
         n;
  const torch::Tensor zero = torch::zeros({}, b.x.options());
  AuxSums aux{zero, zero};
  if (out.short_value.defined()) {
    aux = AuxLosses(out, b);
    loss =
        loss + (options.opponent_policy_loss_weight * aux.opponent_policy_ce +
                options.short_value_loss_weight * aux.short_value_ce) /
                   n;
  }

  torch::NoGradGuard no_grad;
  const torch::Tensor entropy = -(log_policy.exp() * log_policy).sum(1);
  const torch::Tensor wdl = log_wdl.exp();
  sums = torch::stack({
      (b.policy_weight * policy_ce).sum(),
      b.policy_weight.sum(),
      value_ce.sum(),
      (b.policy_weight * entropy).sum(),
      wdl.select(1, 0).sum(),
      b.wdl_target.select(1, 0).sum(),
      (wdl - b.wdl_target).pow(2).sum(),
      torch::full({}, n, b.x.options()),
      aux.opponent_policy_ce.detach(),
      out.short_value.defined() ? b.opponent_policy_weight.sum() : zero,
      aux.short_value_ce.detach(),
  });
}

StepStats Summarize(const double* sum, const TrainingOptions& options,
                    int64_t step, double lr) {
  StepStats out;
  out.step = step;
  out.learning_rate = lr;
  out.samples = static_cast<int>(std::lround(sum[kSampleCount]));
  out.full_search_samples =
      static_cast<int>(std::lround(sum[kFullSearchCount]));
  const double samples = std::max(1.0, sum[kSampleCount]);
  const double full = std::max(1.0, sum[kFullSearchCount]);
  out.policy_loss = sum[kPolicyCeSum] / full;
  out.value_loss = sum[kValueCeSum] / samples;
  out.total_loss =
      (options.policy_loss_weight * sum[kPolicyCeSum] +
       options.value_loss_weight * sum[kValueCeSum] +
       options.opponent_policy_loss_weight * sum[kOpponentPolicyCeSum] +
       options.short_value_loss_weight * sum[kShortValueCeSum]) /
      samples;
  out.opponent_policy_samples =
      static_cast<int>(std::lround(sum[kOpponentPolicyCount]));
  out.opponent_policy_loss =
      sum[kOpponentPolicyCeSum] / std::max(1.0, sum[kOpponentPolicyCount]);
  out.short_value_loss = sum[kShortValueCeSum] / samples;
  out.policy_entropy = sum[kEntropySum] / full;
  out.win_predicted = sum[kWinPredictedSum] / samples;
  out.win_observed = sum[kWinObservedSum] / samples;
  out.value_brier = sum[kBrierSum] / samples;
  return out;
}

}  // namespace renju::losses
