// The trainer's Prometheus metrics, served at GET /metrics on its --http
// address beside the run's page (trainer_process.cc): what the service
// counts (TrainerServiceMetrics, trainer_service.h), and figures the game
// store, the training loop and the service keep, read at each scrape.
// README.md ("Metrics") lists them.
#ifndef RENJU_TRAINER_TRAINER_METRICS_H_
#define RENJU_TRAINER_TRAINER_METRICS_H_

#include "base/metrics.h"
#include "trainer/game_store.h"
#include "trainer/trainer_service.h"
#include "trainer/training_loop.h"

namespace renju {

// Registers the store's, the loop's and the service's figures in
// `registry`; all three must outlive every Render of it. The service's own
// counters are registered apart (RegisterTrainerServiceMetrics), before
// the service is built.
void RegisterTrainerMetrics(MetricsRegistry& registry, GameStore& store,
                            const TrainingLoop& loop, TrainerService& service);

}  // namespace renju

#endif  // RENJU_TRAINER_TRAINER_METRICS_H_
