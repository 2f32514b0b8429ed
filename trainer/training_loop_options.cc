// The training loop's options: from the run config, and their checks
// (training_loop.h).
#include "trainer/training_loop.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "config/config.h"

namespace renju {
namespace {

absl::Status InvalidOption(absl::string_view field, absl::string_view value,
                           absl::string_view expected) {
  return absl::InvalidArgumentError(absl::StrCat(
      "training loop option ", field, " = ", value, ": expected ", expected));
}

}  // namespace

absl::Status ValidateTrainingLoopOptions(const TrainingLoopOptions& o,
                                         int world_size) {
  if (o.run_dir.empty()) return InvalidOption("run_dir", "''", "a directory");
  // Before the replay window, which needs a known encoding version.
  if (absl::Status s = o.network.Validate(); !s.ok()) return s;
  if (world_size > static_cast<int>(kMaxTrainingRanks)) {
    return InvalidOption("world size", absl::StrCat(world_size),
                         absl::StrCat("at most ", kMaxTrainingRanks));
  }
  if (o.batch_size < 1 || o.batch_size % world_size != 0) {
    return InvalidOption(
        "batch_size", absl::StrCat(o.batch_size),
        absl::StrCat("a positive multiple of the ", world_size, " ranks"));
  }
  if (o.min_positions < 0) {
    return InvalidOption("min_positions", absl::StrCat(o.min_positions),
                         ">= 0");
  }
  if (!(o.samples_per_position > 0)) {
    return InvalidOption("samples_per_position",
                         absl::StrCat(o.samples_per_position), "> 0");
  }
  for (const auto& [name, value] :
       {std::pair{"steps_per_generation", o.steps_per_generation},
        std::pair{"checkpoint_every_steps", o.checkpoint_every_steps},
        std::pair{"log_every_steps", o.log_every_steps},
        std::pair{"sampling_threads", int64_t{o.sampling_threads}}}) {
    if (value < 1) return InvalidOption(name, absl::StrCat(value), ">= 1");
  }
  if (o.variants.empty()) return InvalidOption("variants", "{}", "one or more");
  if (o.window.aux_targets != o.network.aux_heads) {
    return InvalidOption("window.aux_targets", o.window.aux_targets ? "1" : "0",
                         "network.aux_heads");
  }
  if (!(o.window.short_value_horizon >= 1)) {
    return InvalidOption("window.short_value_horizon",
                         absl::StrCat(o.window.short_value_horizon), ">= 1");
  }
  if (o.seed > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return InvalidOption("seed", absl::StrCat(o.seed), "0..2^63-1");
  }
  return absl::OkStatus();
}

TrainingLoopOptions ToTrainingLoopOptions(const pb::RunConfig& config,
                                          const std::string& run_dir) {
  const pb::TrainerConfig& t = config.trainer();
  TrainingLoopOptions o;
  o.run_dir = run_dir;
  o.network = ToNetworkConfig(config);
  o.variants = {VariantOf(config)};
  o.training.optimizer = t.optimizer() == pb::TrainerConfig::ADAMW
                             ? TrainingOptions::Optimizer::kAdamW
                             : TrainingOptions::Optimizer::kSgd;
  o.training.learning_rate = t.learning_rate();
  o.training.warmup_steps = t.warmup_steps();
  o.training.lr_decay_factor = t.lr_decay_factor();
  o.training.lr_decay_every_steps = t.lr_decay_every_steps();
  o.training.momentum = t.momentum();
  o.training.weight_decay = t.weight_decay();
  o.training.policy_loss_weight = t.policy_loss_weight();
  o.training.value_loss_weight = t.value_loss_weight();
  o.training.opponent_policy_loss_weight = t.opponent_policy_loss_weight();
  o.training.short_value_loss_weight = t.short_value_loss_weight();
  o.training.ema_decay = t.ema_decay();
  o.training.device = t.device();
  o.batch_size = t.batch_size();
  o.window = WindowParams{t.window_c(), t.window_alpha(), t.window_beta()};
  o.window.aux_targets = o.network.aux_heads;
  o.window.short_value_horizon = t.short_value_horizon_plies();
  o.min_positions = t.min_positions();
  o.samples_per_position = t.samples_per_position();
  o.selfplay_lead_positions = t.selfplay_lead_positions();
  o.steps_per_generation = t.steps_per_generation();
  o.checkpoint_every_steps = t.checkpoint_every_steps();
  o.log_every_steps = t.log_every_steps();
  o.torch_threads = t.torch_threads();
  o.seed = static_cast<uint64_t>(config.seed());
  return o;
}

}  // namespace renju
