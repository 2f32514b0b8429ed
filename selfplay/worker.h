// A self-play worker connected to a trainer: plays games with the trainer's
// current model, keeps each finished game on local disk until the trainer
// acknowledged it (uploads retry with backoff while the trainer is away),
// and switches to each new generation between games after a small random
// delay, so a fleet of workers does not fetch at the same moment.
//
// Threads: the game threads (SelfplayRunner), one uploader, one model
// poller, and with `metrics_listen` an HTTP server answering GET /metrics
// (Prometheus' text format; README.md "Metrics" lists the series). Open to
// whoever reaches the address, like the trainer's: it shows counts, not
// games or tokens. Everything stops when `stop` is set.
#ifndef RENJU_SELFPLAY_WORKER_H_
#define RENJU_SELFPLAY_WORKER_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "proto/config.pb.h"
#include "rpc/rpc.h"
#include "selfplay/selfplay_runner.h"

namespace renju {

struct WorkerOptions {
  ChannelOptions trainer;
  std::string worker_id = "worker";
  // Finished games not yet acknowledged; fetched models go in
  // <pending_dir>/models.
  std::string pending_dir = "pending-games";
  // Stop after this many games have been played and every game in
  // pending_dir (an earlier run's too) delivered (0: never).
  int64_t max_games = 0;
  uint64_t seed = 1;
  // When set, games are played with what this returns (e.g. an inference
  // server's network through a RemoteEvaluator) and no models are fetched.
  SelfplayRunner::EvaluatorSource evaluators;
  // HOST:PORT for the worker's Prometheus metrics (port 0: any free port);
  // empty: none. A bad address is an error naming `--metrics`.
  std::string metrics_listen;
};

absl::Status RunWorker(const pb::RunConfig& config,
                       const WorkerOptions& options,
                       const std::atomic<bool>* stop);

}  // namespace renju

#endif  // RENJU_SELFPLAY_WORKER_H_
