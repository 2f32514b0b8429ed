// `renju train`: the whole training loop on one machine, run by the local
// launcher (launcher/launcher.h), which starts a trainer, self-play workers
// and (optionally) an inference server as separate processes talking gRPC
// over loopback, and stops after the configured number of generations with
// a final match of the last generation against generation 0 and a summary.
// This file reads the flags and prepares the run folder (a new run's
// config, or a resumed run's). `renju train --resume RUN_DIR` continues a
// run: the trainer resumes from its state and workers deliver the games
// they still hold.
//
// With a CPU budget (launcher.max_cpu_minutes or --cpu-minutes) the run also
// stops once its processes have used that much CPU time; the count is kept
// in <run>/cpu_seconds.txt, so a resumed run goes on from it. The last
// published generation is then the run's result. Every run appends each
// generation it sees published, with the CPU time used by then, to
// <run>/generations_cpu.csv (generation,cpu_seconds,wall_seconds, the wall
// time counted from the start of the launcher's session): the x axis of Elo
// per CPU-hour (bench/strength.sh).
//
// The trainer serves the run's page (trainer/run_page.h) on --http (by
// default any free loopback port); the launcher prints its address.
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "arena/anchors.h"
#include "arena/gating.h"
#include "base/file_util.h"
#include "cli/command_util.h"
#include "config/config.h"
#include "launcher/launcher.h"
#include "tools/commands.h"

namespace renju::commands {

namespace fs = std::filesystem;

namespace {

// A resumed run's config, the one in its folder (`paths.root`, set here).
absl::StatusOr<pb::RunConfig> LoadResumedTrainConfig(const Args& args,
                                                     RunFolder& paths) {
  if (!args.GetString("override").empty()) {
    return absl::InvalidArgumentError(
        "--override applies to a new run; a resumed run keeps its "
        "config.textproto");
  }
  paths.root = args.GetString("resume");
  return LoadRunConfig(paths.config().string());
}

// A new run's config: --config with --override, checked, its anchors'
// model paths made absolute.
absl::StatusOr<pb::RunConfig> LoadNewTrainConfig(const Args& args) {
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return config.status();
  if (!args.GetString("override").empty()) {
    config =
        OverrideRunConfig(*config, args.GetString("override"), "--override");
    if (!config.ok()) return config.status();
  }
  // The trainer checks this too, but only after the run folder exists.
  if (absl::Status s = CheckAnchorFiles(config->arena()); !s.ok()) return s;
  if (absl::Status s = CheckGatingCanDecide(config->arena()); !s.ok()) {
    return s;
  }
  // The run folder's config must work from wherever the run is resumed.
  for (pb::AnchorPlayer& anchor : *config->mutable_arena()->mutable_anchors()) {
    if (anchor.has_model() && !anchor.model().path().empty()) {
      anchor.mutable_model()->set_path(
          fs::absolute(anchor.model().path()).lexically_normal().string());
    }
  }
  return config;
}

// A new run's folder (`paths.root`, set here), which must be empty, with
// its config written there.
absl::Status CreateTrainRunDir(const Args& args, const pb::RunConfig& config,
                               RunFolder& paths) {
  paths.root = args.GetString("run-dir").empty() ? DefaultRunDir(config)
                                                 : args.GetString("run-dir");
  std::error_code error;
  if (fs::exists(paths.root) && !fs::is_empty(paths.root, error)) {
    return absl::AlreadyExistsError(absl::StrCat(
        "run folder ", paths.root.string(),
        " is not empty; continue it with --resume ", paths.root.string()));
  }
  fs::create_directories(paths.root, error);
  return WriteFileAtomically(paths.config().string(), RunConfigText(config));
}

}  // namespace

int Train(const Argv& argv) {
  Args args("train",
            "Runs the whole loop on this machine: a trainer, self-play workers "
            "and an inference server as separate processes on loopback, until "
            "the configured number of generations; then the last generation "
            "plays generation 0.");
  args.AddString("config", "configs/tiny.textproto", "run config (text proto)");
  args.AddString("run-dir", "", "run folder (default runs/<name>-<time>)");
  args.AddString("resume", "", "continue the run in this folder");
  args.AddInt("generations", 0, 0, 100000,
              "stop at this generation (default: the config's)");
  args.AddString("override", "",
                 "config fields to change, in text format, e.g. "
                 "'trainer { learning_rate: 0.01 }' (a new run only)");
  args.AddString("http", "127.0.0.1:0",
                 "serve the run's page (generations, Elo, losses, match "
                 "games) on this HOST:PORT; port 0: any free port; \"\": "
                 "none");
  args.AddDouble("cpu-minutes", 0, 0, 1e7,
                 "stop once the run has used this much CPU time "
                 "(default: the config's launcher.max_cpu_minutes)");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;

  RunFolder paths;
  absl::StatusOr<pb::RunConfig> config;
  if (!args.GetString("resume").empty()) {
    config = LoadResumedTrainConfig(args, paths);
    if (!config.ok()) return Fail(config.status());
  } else {
    config = LoadNewTrainConfig(args);
    if (!config.ok()) return Fail(config.status());
    if (absl::Status s = CreateTrainRunDir(args, *config, paths); !s.ok()) {
      return Fail(s);
    }
  }
  std::error_code error;
  fs::create_directories(paths.logs(), error);
  const int generations = args.GetInt("generations") > 0
                              ? static_cast<int>(args.GetInt("generations"))
                              : config->launcher().generations();
  StopOnSignals();
  const double cpu_minutes = args.GetDouble("cpu-minutes") > 0
                                 ? args.GetDouble("cpu-minutes")
                                 : config->launcher().max_cpu_minutes();
  Launcher launcher(*config, paths, generations, cpu_minutes * 60,
                    args.GetString("http"), interrupted);
  absl::Status status = launcher.Run();
  if (!status.ok())
    return absl::IsCancelled(status) ? (Fail(status), 130) : Fail(status);
  return 0;
}

}  // namespace renju::commands
