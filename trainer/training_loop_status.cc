// The training loop's progress: the log lines, <run>/training.csv, and the
// status it shares with the trainer's service (training_loop.h).
#include "base/run_folder.h"
#include "trainer/training_loop.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "base/logging.h"
#include "trainer/plots.h"

namespace renju {

void TrainingLoop::LogProgress() {
  const absl::Time now = absl::Now();
  const double seconds = absl::ToDoubleSeconds(now - last_log_time_);
  const double rate =
      seconds <= 0 ? 0 : (samples_trained_ - samples_at_last_log_) / seconds;
  last_log_time_ = now;
  samples_at_last_log_ = samples_trained_;
  samples_per_second_ = rate;
  const StepStats& s = last_step_;
  RENJU_LOG(INFO) << absl::StrFormat(
      "train step %d samples/s %.0f policy %.3f value %.3f entropy %.3f "
      "win pred %.3f obs %.3f brier %.3f lr %.3g window %d of %d positions "
      "gen %d",
      s.step, rate, s.policy_loss, s.value_loss, s.policy_entropy,
      s.win_predicted, s.win_observed, s.value_brier, s.learning_rate,
      window_.window_positions(), window_.total_positions(), generation_);
  if (options_.network.aux_heads) {
    RENJU_LOG(INFO) << absl::StrFormat(
        "train step %d opponent policy %.3f short-term value %.3f", s.step,
        s.opponent_policy_loss, s.short_value_loss);
  }
  AppendLossRow(s);
}

// One row per logged step in <run>/training.csv (trainer/plots.h reads it
// for the loss plot). A failed write costs the plot a row, not the run.
void TrainingLoop::AppendLossRow(const StepStats& s) {
  const std::string path = RunFolder{options_.run_dir}.training_csv().string();
  // A log begun before the auxiliary columns keeps its columns.
  std::string header;
  {
    std::ifstream in(path);
    std::getline(in, header);
  }
  const bool fresh = header.empty();
  if (fresh) header = kLossCsvHeader;
  std::ofstream out(path, std::ios::app);
  if (!out) {
    RENJU_LOG(WARNING) << "cannot append to " << path;
    return;
  }
  if (fresh) out << header << "\n";
  LossRow row;
  row.step = s.step;
  row.unix_ms = absl::ToUnixMillis(absl::Now());
  row.policy_loss = s.policy_loss;
  row.value_loss = s.value_loss;
  row.policy_entropy = s.policy_entropy;
  row.lr = s.learning_rate;
  row.opponent_policy_loss = s.opponent_policy_loss;
  row.short_value_loss = s.short_value_loss;
  out << FormatLossRow(row, header);
  if (!out.flush()) RENJU_LOG(WARNING) << "cannot append to " << path;
}

void TrainingLoop::PublishStatus(bool waiting) {
  absl::MutexLock lock(&mutex_);
  status_.games_ingested = games_ingested_;
  status_.positions_ingested = window_.total_positions();
  status_.window_positions = window_.window_positions();
  status_.window_games = window_.num_games();
  status_.step = trainer_->step();
  status_.samples_trained = samples_trained_;
  status_.samples_per_second = samples_per_second_;
  status_.generation = generation_;
  status_.waiting_for_games = waiting;
  if (waiting) ++status_.idle_rounds;
  status_.last_step = last_step_;
}

TrainingLoopStatus TrainingLoop::GetStatus() const {
  absl::MutexLock lock(&mutex_);
  return status_;
}

bool TrainingLoop::AwaitStatus(
    const std::function<bool(const TrainingLoopStatus&)>& done,
    absl::Duration timeout) const {
  absl::MutexLock lock(&mutex_);
  auto holds = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return done(status_);
  };
  return mutex_.AwaitWithTimeout(absl::Condition(&holds), timeout);
}

void TrainingLoop::FillStatus(pb::TrainerStatus* status) const {
  const TrainingLoopStatus s = GetStatus();
  status->set_window_positions(s.window_positions);
  status->set_training_step(s.step);
  status->set_policy_loss(s.last_step.policy_loss);
  status->set_value_loss(s.last_step.value_loss);
  status->set_samples_trained(s.samples_trained);
  // Stored, not ingested, positions count: games that arrive while the loop
  // plays a rating match are still ahead of training.
  const int64_t stored = status->total_positions();
  const double consumed =
      static_cast<double>(s.samples_trained) / options_.samples_per_position;
  // Never while the loop waits for games: a lead smaller than one batch's
  // worth of positions would otherwise leave both sides waiting.
  status->set_selfplay_paused(
      options_.selfplay_lead_positions > 0 && !s.waiting_for_games &&
      stored >= options_.min_positions &&
      static_cast<double>(stored) - consumed >
          static_cast<double>(options_.selfplay_lead_positions));
}

}  // namespace renju
