#include "trainer/trainer_metrics.h"

#include <functional>
#include <string>

namespace renju {
namespace {

// A gauge of one field of the loop's status.
void AddLoopGauge(MetricsRegistry& registry, const std::string& name,
                  const std::string& help, const TrainingLoop& loop,
                  std::function<double(const TrainingLoopStatus&)> field) {
  registry.AddGaugeFunction(name, help, [&loop, field = std::move(field)] {
    return field(loop.GetStatus());
  });
}

void RegisterLoopMetrics(MetricsRegistry& registry, const TrainingLoop& loop) {
  registry.AddCounterFunction(
      "renju_trainer_training_steps_total",
      "Training steps taken (a resumed run counts from its saved step).",
      [&loop] { return static_cast<double>(loop.GetStatus().step); });
  registry.AddCounterFunction(
      "renju_trainer_samples_trained_total",
      "Positions trained on, over every step (a resumed run counts from its "
      "saved state).",
      [&loop] {
        return static_cast<double>(loop.GetStatus().samples_trained);
      });
  AddLoopGauge(
      registry, "renju_trainer_samples_per_second",
      "Samples trained per second between the last two training log "
      "lines (trainer.log_every_steps apart), waits included.",
      loop, [](const TrainingLoopStatus& s) { return s.samples_per_second; });
  AddLoopGauge(registry, "renju_trainer_window_positions",
               "Positions in the replay window.", loop,
               [](const TrainingLoopStatus& s) {
                 return static_cast<double>(s.window_positions);
               });
  AddLoopGauge(registry, "renju_trainer_window_games",
               "Games in the replay window.", loop,
               [](const TrainingLoopStatus& s) {
                 return static_cast<double>(s.window_games);
               });
  AddLoopGauge(
      registry, "renju_trainer_policy_loss",
      "Policy cross-entropy of the last step, in nats.", loop,
      [](const TrainingLoopStatus& s) { return s.last_step.policy_loss; });
  AddLoopGauge(
      registry, "renju_trainer_value_loss",
      "Value cross-entropy of the last step, in nats.", loop,
      [](const TrainingLoopStatus& s) { return s.last_step.value_loss; });
  AddLoopGauge(
      registry, "renju_trainer_learning_rate",
      "Learning rate of the last step.", loop,
      [](const TrainingLoopStatus& s) { return s.last_step.learning_rate; });
  AddLoopGauge(registry, "renju_trainer_generation",
               "The last generation published (0: the initial network).", loop,
               [](const TrainingLoopStatus& s) {
                 return static_cast<double>(s.generation);
               });
  AddLoopGauge(registry, "renju_trainer_waiting_for_games",
               "1 while training waits for new games, else 0.", loop,
               [](const TrainingLoopStatus& s) {
                 return s.waiting_for_games ? 1.0 : 0.0;
               });
}

}  // namespace

void RegisterTrainerMetrics(MetricsRegistry& registry, GameStore& store,
                            const TrainingLoop& loop, TrainerService& service) {
  registry.AddGaugeFunction(
      "renju_trainer_stored_games",
      "Games in the run's store, from every process that wrote it.",
      [&store] { return static_cast<double>(store.NumGames()); });
  registry.AddGaugeFunction(
      "renju_trainer_stored_positions", "Training positions in the store.",
      [&store] { return static_cast<double>(store.NumPositions()); });
  RegisterLoopMetrics(registry, loop);
  registry.AddGaugeFunction(
      "renju_trainer_workers_connected",
      "Clients (workers, and inference servers following the trainer) that "
      "called the trainer in the last minute.",
      [&service] {
        return static_cast<double>(service.NumConnectedClients());
      });
}

}  // namespace renju
