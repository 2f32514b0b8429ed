// The trainer as a process (`renju trainer`). Moving parts:
//   GameStore (run.sqlite)  games, worker counts, model registry
//   TrainerService (gRPC)   uploads, model downloads, status, health
//   TrainingLoop (thread)   replay window -> training -> generations
//   Publisher               registers each generation, plays the rating /
//                           gating match against the best and the anchor
//                           matches, updates the ratings table and redraws
//                           the plots
//   run page (HTTP)         with --http: the run's page (run_page.h) and
//                           the Prometheus metrics at /metrics
//                           (trainer_metrics.h)
// Stops on SIGTERM/SIGINT, saving the training state; a restart with the
// same run folder resumes exactly where it stopped.
#ifndef RENJU_TRAINER_TRAINER_PROCESS_H_
#define RENJU_TRAINER_TRAINER_PROCESS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/config.pb.h"
#include "rpc/rpc.h"

namespace renju {

struct TrainerProcessOptions {
  std::string run_dir = "run";  // created if needed
  std::string listen = "127.0.0.1:7070";
  std::string address_file;  // gets the bound address; empty: none
  // HOST:PORT of the run's page (run_page.h; port 0: any free port); empty:
  // none. Read-only; loopback unless the run is meant to be public. HTTPS
  // with `tls`'s certificate and key.
  std::string http_listen;
  // Gets the page's address, http://HOST:PORT/; empty: none.
  std::string http_address_file;
  std::string tokens_file;  // '<worker-id> <token>' lines; empty: no auth
  ServerTlsOptions tls;
  // Stop training after publishing this generation and keep serving (0:
  // train until stopped).
  int64_t stop_after_generation = 0;
  // Data parallelism: ranks above 0 only train (no service).
  int rank = 0;
  int world_size = 1;
  std::string init_method;  // needed when world_size > 1
};

// Runs the trainer until SIGINT or SIGTERM (it installs handlers for both)
// or a failure. Every outside input is checked before the run folder is
// touched.
absl::Status RunTrainerProcess(const pb::RunConfig& config,
                               const TrainerProcessOptions& options);

// Worker tokens from a file of "<worker-id> <token>" lines ('#' comments):
// token -> worker id. An empty path gives no tokens. The file is read with
// ReadSecretFile (base/file_util.h): refused if group or others may read it.
absl::StatusOr<std::map<std::string, std::string>> ReadTokens(
    const std::string& path);

}  // namespace renju

#endif  // RENJU_TRAINER_TRAINER_PROCESS_H_
