// The local launcher of `renju train` (tools/train_command.cc): the whole
// training loop on one machine. Starts a trainer, self-play workers and
// (optionally) an inference server as separate processes talking gRPC over
// loopback (base/subprocess.h), follows the trainer's status with a
// progress line (progress.h), and stops after the configured number of
// generations with a final match of the last generation against
// generation 0 and a summary. A resumed run: the trainer resumes from its
// state and workers deliver the games they still hold.
//
// With a CPU budget the run also stops once its processes have used that
// much CPU time; the count is kept in <run>/cpu_seconds.txt, so a resumed
// run goes on from it. The last published generation is then the run's
// result. Every run appends each generation it sees published, with the
// CPU time used by then, to <run>/generations_cpu.csv
// (generation,cpu_seconds,wall_seconds, the wall time counted from the
// start of the launcher's session): the x axis of Elo per CPU-hour
// (bench/strength.sh).
//
// The trainer serves the run's page (trainer/run_page.h) on the launcher's
// HTTP address; the launcher prints its address.
//
// Run folder (RunFolder): config.textproto, run.sqlite (games, registry,
// matches), models/, state/, logs/<process>.log, workers/<id>/, plots and
// summary.json.
#ifndef RENJU_LAUNCHER_LAUNCHER_H_
#define RENJU_LAUNCHER_LAUNCHER_H_

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/run_folder.h"
#include "base/subprocess.h"
#include "proto/config.pb.h"
#include "proto/trainer.pb.h"
#include "rpc/trainer_client.h"

namespace renju {

class ProgressLine;  // launcher/progress.h

// runs/<config name>-<local time>.
std::string DefaultRunDir(const pb::RunConfig& config);

// Runs trainer, workers and server as children of this process (the
// running binary's own `trainer`, `selfplay`, `serve` and `arena`
// commands), restarts those that die, and stops them all at the end.
// Not thread-safe: one thread calls Run.
class Launcher {
 public:
  // `generations`: stop once this generation is decided;
  // `cpu_budget_seconds`: also stop once the run has used this much CPU
  // (0: no budget); `http_listen`: the run page's HOST:PORT (empty: none);
  // `stop`: set (e.g. by a signal handler) to stop the run cleanly; it
  // must outlive the launcher.
  Launcher(pb::RunConfig config, RunFolder paths, int generations,
           double cpu_budget_seconds, std::string http_listen,
           const std::atomic<bool>& stop)
      : config_(std::move(config)),
        paths_(std::move(paths)),
        generations_(generations),
        cpu_budget_seconds_(cpu_budget_seconds),
        http_listen_(std::move(http_listen)),
        self_(SelfExecutable()),
        stop_(stop) {}

  // The whole run: OK after the last generation and the final match;
  // CANCELLED when `stop` was set (the run can be resumed).
  absl::Status Run();

 private:
  absl::Status StartTrainer();
  absl::Status StartWorker(int i);
  absl::Status StartServer();
  // The trainer, the workers and (when configured) the server.
  absl::Status StartChildren();
  // Restarts children that died (a crashed worker must not stall the run).
  absl::Status KeepChildrenAlive();
  std::string ProgressText(const pb::TrainerStatus& status, double seconds);
  absl::Status FinalMatch();
  // The registry as a table: generation, status, step, games seen, Elo.
  void PrintRatings();
  // The newest generation whose rating/gating match is over (0 if none).
  int64_t DecidedGeneration();
  void StopAll();
  // The main loop: keeps the children alive and shows the trainer's status
  // in `progress` (the latest in `status`) until the last generation is
  // decided, the CPU budget is spent or `stop` is set. An error stops all
  // the children.
  absl::Status FollowTrainer(ProgressLine& progress, pb::TrainerStatus* status);
  // After FollowTrainer: stops the children, plays the final match (unless
  // stopped) and prints the summary; CANCELLED when stopped.
  absl::Status EndRun(ProgressLine& progress, const pb::TrainerStatus& status);
  // CPU seconds of this run so far: earlier sessions (cpu_seconds.txt),
  // children that exited, and the running children.
  double RunCpuSeconds() const;
  // Saves RunCpuSeconds() to cpu_seconds.txt (once a poll of the main loop).
  void SaveCpuSeconds(double seconds);
  // Appends generation,cpu_seconds,wall_seconds for every generation newer
  // than the last one noted, up to `latest`: generations published between
  // two polls share the poll's figures.
  void NoteGenerationCpu(int64_t latest, double cpu_seconds,
                         double wall_seconds);

  const pb::RunConfig config_;
  const RunFolder paths_;
  const int generations_;
  const double cpu_budget_seconds_;  // 0: none
  const std::string http_listen_;    // the run page's; empty: none
  const std::string self_;
  const std::atomic<bool>& stop_;
  std::optional<Subprocess> trainer_;
  std::vector<std::optional<Subprocess>> workers_;
  std::optional<Subprocess> server_;
  std::string trainer_address_;
  std::unique_ptr<TrainerClient> client_;
  int restarts_ = 0;
  int64_t final_generation_ = 0;
  int64_t games_at_start_ = -1;
  int64_t generation_at_start_ = 0;
  // The newest generation the progress line has seen, and when it first
  // saw it (seconds of this session).
  int64_t paced_generation_ = 0;
  double last_published_seconds_ = 0;
  double cpu_seconds_before_ = 0;  // earlier sessions of the run
  double cpu_seconds_exited_ = 0;  // this session's children that exited
  int64_t noted_generation_ = -1;
};

}  // namespace renju

#endif  // RENJU_LAUNCHER_LAUNCHER_H_
