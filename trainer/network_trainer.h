// One training step of the policy-value network in LibTorch, its optimizer
// and learning-rate schedule, the training state (weights, optimizer
// buffers, step) saved and restored exactly, and export to an inference
// checkpoint.
//
// Losses per position (KataGo's and AlphaZero's):
//   policy: cross-entropy between the search's visit distribution and the
//           network's policy over the legal points (illegal logits are
//           masked out, as inference masks them), for full-search positions
//           only;
//   value:  cross-entropy between the win/draw/loss logits and the game's
//           result from the side to move's view;
// and with the auxiliary heads (NetworkConfig::aux_heads), whose targets
// the replay window builds (replay_window.h):
//   opponent policy: cross-entropy between the next ply's policy target
//           and the opponent-policy logits over all points (unmasked: the
//           reply comes after a move not yet on the board), where the next
//           ply has a target;
//   short-term value: cross-entropy between the short-term value logits
//           and the soft win/draw/loss target T_t (its minimum is T_t's
//           entropy, not 0).
// Each is summed over the batch and divided by the batch size, so that with
// data parallelism the mean of the ranks' gradients is the gradient of the
// whole batch; weight decay is the optimizer's (L2 in SGD, decoupled in
// AdamW) and applies to conv and linear weights, not to biases and batch
// norm.
//
// Weight averaging (ema_decay > 0): after every step each floating-point
// parameter and batch-norm running statistic of an averaged copy moves to
//   average = d * average + (1 - d) * live,  d = min(ema_decay, (1+t)/(10+t))
// with t the steps taken before this one (TensorFlow's
// ExponentialMovingAverage with num_updates: a short horizon early, so the
// average soon forgets the random start). The statistics are averaged too,
// rather than taken live, so they describe activations over the same span
// of training as the averaged weights. Training continues on the live
// weights; export (the published generations) writes the average.
//
// Not thread-safe: one owner, the training loop.
#ifndef RENJU_TRAINER_NETWORK_TRAINER_H_
#define RENJU_TRAINER_NETWORK_TRAINER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nn/checkpoint.h"
#include "nn/network_config.h"
#include "trainer/replay_window.h"

namespace renju {

class DataParallelGroup;
class PolicyValueNetImpl;

struct TrainingOptions {
  enum class Optimizer { kSgd, kAdamW };
  Optimizer optimizer = Optimizer::kSgd;
  // The schedule (LearningRate below).
  double learning_rate = 0.02;
  int64_t warmup_steps = 100;
  double lr_decay_factor = 0.5;
  int64_t lr_decay_every_steps = 0;  // 0: never
  double momentum = 0.9;             // SGD only
  double weight_decay = 1e-4;
  double policy_loss_weight = 1;
  double value_loss_weight = 1;
  // The auxiliary losses', for a network with aux heads.
  double opponent_policy_loss_weight = 0.15;
  double short_value_loss_weight = 0.5;
  // The average's decay per step (file comment), [0, 1); 0 = no average.
  double ema_decay = 0;
  // "auto" (CUDA when available), "cpu", "cuda" or "cuda:N".
  std::string device = "auto";
};

// The learning rate of the step with 0-based index `step`:
//   peak * min(1, (step + 1) / warmup_steps)
//        * lr_decay_factor ^ floor(step / lr_decay_every_steps)
// (the second factor only when lr_decay_every_steps > 0).
double LearningRate(const TrainingOptions& options, int64_t step);

// What one step saw, before its update. With data parallelism, over all
// ranks' positions.
struct StepStats {
  int64_t step = 0;  // steps taken, this one included
  double learning_rate = 0;
  int samples = 0;
  int full_search_samples = 0;
  // Policy cross-entropy per full-search position and value cross-entropy
  // per position, in nats.
  double policy_loss = 0;
  double value_loss = 0;
  // The weighted loss that was minimised (see the file comment).
  double total_loss = 0;
  // Mean entropy of the network's (masked) policy at full-search positions.
  double policy_entropy = 0;
  // With aux heads (else 0): positions whose next ply has a policy target,
  // the opponent-policy cross-entropy per such position and the short-term
  // value cross-entropy per position, in nats.
  int opponent_policy_samples = 0;
  double opponent_policy_loss = 0;
  double short_value_loss = 0;
  // Value calibration: mean predicted win probability against the observed
  // win rate, and the Brier score of the win/draw/loss prediction (mean of
  // the summed squared errors; 0 is perfect, 2 the worst).
  double win_predicted = 0;
  double win_observed = 0;
  double value_brier = 0;
};

class NetworkTrainer {
 public:
  // A fresh network, initialised from `seed`, and its optimizer. The
  // weights are drawn from LibTorch's global generator, seeded here, so
  // equal seeds give equal weights as long as nothing else (Model::Create)
  // draws from it at the same time; concurrent Creates are serialised.
  // `group` (may be null; must outlive the trainer) makes every step
  // data-parallel: each rank passes its own part of the batch, gradients and
  // batch-norm statistics are averaged over the ranks, and rank 0's weights
  // are broadcast first so all ranks start equal.
  static absl::StatusOr<std::unique_ptr<NetworkTrainer>> Create(
      const NetworkConfig& config, const TrainingOptions& options,
      uint64_t seed, DataParallelGroup* group = nullptr);
  ~NetworkTrainer();
  NetworkTrainer(const NetworkTrainer&) = delete;
  NetworkTrainer& operator=(const NetworkTrainer&) = delete;

  // One optimizer step on `batch` (this rank's part of it); the batch's
  // board size and encoding version must be the network's, and it must
  // carry auxiliary targets exactly when the network has aux heads.
  absl::StatusOr<StepStats> Step(const TrainingBatch& batch);

  // The training state, as a tensor file of kind "training-state": the
  // weights, the average (with ema_decay > 0), the optimizer's buffers
  // (momentum; Adam's moments and step counts), the step, and `extra`
  // key/value lines the caller needs back (the sampler's and the window's
  // state). Written atomically.
  absl::Status SaveState(
      const std::string& path,
      const std::vector<std::pair<std::string, std::string>>& extra) const;
  // Restores a state saved by SaveState with the same network shape, input
  // encoding version (a state without one is version 1) and optimizer;
  // returns its `extra` lines. Continuing from it gives the same weights as
  // never having stopped (bit for bit on CPU with one intra-op thread). A
  // state without an average (saved with ema_decay 0, or before averaging
  // existed) starts the average at its live weights; an average in the
  // state is dropped when ema_decay is 0. On error the trainer may be
  // partly overwritten.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> LoadState(
      const std::string& path);

  // Writes published_network() as an inference checkpoint (checkpoint.h)
  // with `info` (its config is replaced by the network's); returns its
  // hash.
  absl::StatusOr<std::string> ExportModel(const std::string& path,
                                          CheckpointInfo info) const;

  int64_t step() const { return step_; }
  const NetworkConfig& config() const { return config_; }
  const TrainingOptions& options() const { return options_; }
  // The module, for tests and tools that inspect or compare weights.
  PolicyValueNetImpl& network();
  // What ExportModel writes: the average with ema_decay > 0, else
  // network().
  PolicyValueNetImpl& published_network() const;

 private:
  struct Impl;
  NetworkTrainer(NetworkConfig config, TrainingOptions options,
                 DataParallelGroup* group);

  NetworkConfig config_;
  TrainingOptions options_;
  DataParallelGroup* group_;
  int64_t step_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace renju

#endif  // RENJU_TRAINER_NETWORK_TRAINER_H_
