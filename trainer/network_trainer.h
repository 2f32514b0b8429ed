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
//           result from the side to move's view.
// Each is summed over the batch and divided by the batch size, so that with
// data parallelism the mean of the ranks' gradients is the gradient of the
// whole batch; weight decay is the optimizer's (L2 in SGD, decoupled in
// AdamW) and applies to conv and linear weights, not to biases and batch
// norm.
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
  // board size and encoding version must be the network's.
  absl::StatusOr<StepStats> Step(const TrainingBatch& batch);

  // The training state, as a tensor file of kind "training-state": the
  // weights, the optimizer's buffers (momentum; Adam's moments and step
  // counts), the step, and `extra` key/value lines the caller needs back
  // (the sampler's and the window's state). Written atomically.
  absl::Status SaveState(
      const std::string& path,
      const std::vector<std::pair<std::string, std::string>>& extra) const;
  // Restores a state saved by SaveState with the same network shape, input
  // encoding version (a state without one is version 1) and optimizer;
  // returns its `extra` lines. Continuing from it gives the same weights as
  // never having stopped (bit for bit on CPU with one intra-op thread). On
  // error the trainer may be partly overwritten.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> LoadState(
      const std::string& path);

  // Writes the weights as an inference checkpoint (checkpoint.h) with
  // `info` (its config is replaced by the network's); returns its hash.
  absl::StatusOr<std::string> ExportModel(const std::string& path,
                                          CheckpointInfo info) const;

  int64_t step() const { return step_; }
  const NetworkConfig& config() const { return config_; }
  const TrainingOptions& options() const { return options_; }
  // The module, for tests and tools that inspect or compare weights.
  PolicyValueNetImpl& network();

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
