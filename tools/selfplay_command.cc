// `renju selfplay`: plays self-play games with many games in flight sharing
// one batched evaluator. Offline (--out DIR) it keeps every game in DIR;
// with --trainer HOST:PORT it uploads them (selfplay/worker.h).
//
// `renju selfplay-stats DIR`: summarises a directory of games.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <thread>

#include "absl/strings/str_format.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "cli/command_util.h"
#include "cli/token_flags.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "inference/remote_evaluator.h"
#include "launcher/progress.h"
#include "selfplay/game_directory.h"
#include "selfplay/selfplay_runner.h"
#include "selfplay/worker.h"
#include "tools/client_tls_flags.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

// The evaluator's part of a progress line, given the seconds so far.
using EvaluatorText = std::function<std::string(double seconds)>;

std::string TallyText(const SelfplayTally& t, double seconds,
                      const EvaluatorText& evaluator, int64_t target) {
  std::string text = absl::StrFormat("games %d", t.games);
  if (target > 0) {
    absl::StrAppendFormat(&text, "/%d", target);
    if (t.games > 0) {
      absl::StrAppend(&text, " (eta ",
                      FormatDuration(seconds * (target - t.games) / t.games),
                      ")");
    }
  }
  absl::StrAppendFormat(
      &text, " | %.1f games/min | %s | black %d white %d draw %d",
      seconds > 0 ? 60.0 * t.games / seconds : 0.0, evaluator(seconds),
      t.black_wins, t.white_wins, t.draws);
  return text;
}

EvaluatorText StackText(std::shared_ptr<EvaluatorStack> stack) {
  return [stack](double seconds) {
    const BatchedEvaluatorStats batch = stack->batch_stats();
    return absl::StrFormat(
        "%.0f pos/s | batch %.1f | cache %.0f%% | gen %d",
        seconds > 0 ? batch.positions / seconds : 0.0, batch.mean_batch_size(),
        100 * stack->cache_stats().hit_rate(), stack->generation());
  };
}

EvaluatorText RemoteText(std::shared_ptr<RemoteEvaluator> remote) {
  return [remote](double seconds) {
    const RemoteEvaluatorStats stats = remote->stats();
    return absl::StrFormat(
        "%.0f pos/s | remote batch %.1f | failed rpcs %d | gen %d",
        seconds > 0 ? stats.positions / seconds : 0.0, stats.mean_batch_size(),
        stats.failed_rpcs, remote->generation());
  };
}

const ClientTlsFlags kWorkerTrainerTls = {"tls-root-cert", "tls-cert",
                                          "tls-key"};
const ClientTlsFlags kEvaluatorTls = {
    "evaluator-tls-root-cert", "evaluator-tls-cert", "evaluator-tls-key"};

// --evaluator HOST:PORT: the inference server's network, batched per RPC as
// the local evaluator would batch its forwards.
absl::StatusOr<std::shared_ptr<RemoteEvaluator>> ConnectEvaluator(
    const pb::RunConfig& config, const Args& args, const std::string& token) {
  RemoteEvaluatorOptions options;
  options.channel.address = args.GetString("evaluator");
  options.channel.token = token;
  if (absl::Status s = SetClientTls(args, kEvaluatorTls, options.channel);
      !s.ok()) {
    return s;
  }
  options.max_batch_size = config.selfplay().evaluator().max_batch_size();
  options.max_wait_us = config.selfplay().evaluator().max_wait_us();
  absl::StatusOr<std::unique_ptr<RemoteEvaluator>> remote =
      RemoteEvaluator::Create(options);
  if (!remote.ok()) return remote.status();
  return std::shared_ptr<RemoteEvaluator>(std::move(*remote));
}

int RunOffline(const pb::RunConfig& config, const Args& args,
               const std::string& evaluator_token) {
  absl::StatusOr<GameDirectory> out =
      GameDirectory::Open(args.GetString("out"));
  if (!out.ok()) return Fail(out.status());
  SelfplayRunner::EvaluatorSource source;
  EvaluatorText evaluator_text;
  if (args.GetString("evaluator").empty()) {
    absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
        CreateEvaluatorStack(config, config.selfplay().evaluator(),
                             args.GetString("model"), config.seed());
    if (!stack.ok()) return Fail(stack.status());
    std::shared_ptr<EvaluatorStack> shared = std::move(*stack);
    source = [shared] { return GameModel(shared); };
    evaluator_text = StackText(shared);
  } else {
    absl::StatusOr<std::shared_ptr<RemoteEvaluator>> remote =
        ConnectEvaluator(config, args, evaluator_token);
    if (!remote.ok()) return Fail(remote.status());
    std::shared_ptr<RemoteEvaluator> shared = *remote;
    source = [shared] { return GameModel(shared, shared->generation()); };
    evaluator_text = RemoteText(shared);
  }

  SelfplaySettings settings = SelfplaySettingsFrom(config);
  settings.worker_id = args.GetString("worker-id");
  const int64_t games = args.GetInt("games");
  SelfplayRunner runner(settings, config.selfplay().concurrent_games(),
                        static_cast<uint64_t>(args.GetInt("seed")));
  ProgressLine progress;
  std::atomic<bool> done{false};
  std::thread reporter([&] {
    while (!done.load()) {
      progress.Update(TallyText(runner.tally(), progress.elapsed_seconds(),
                                evaluator_text, games));
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
  });
  absl::Status status = runner.Run(
      games, source,
      [&](const pb::GameRecord& game) { return out->Write(game); },
      &interrupted);
  done = true;
  reporter.join();
  progress.Finish(TallyText(runner.tally(), progress.elapsed_seconds(),
                            evaluator_text, games));
  if (!status.ok()) return Fail(status);
  return interrupted ? 130 : 0;
}

// --trainer HOST:PORT: a worker that uploads its games to the trainer and
// plays its models (or --evaluator's network).
int RunAsWorker(const pb::RunConfig& config, const Args& args,
                const std::string& token, const std::string& evaluator_token) {
  WorkerOptions options;
  options.trainer.address = args.GetString("trainer");
  options.trainer.token = token;
  if (absl::Status s = SetClientTls(args, kWorkerTrainerTls, options.trainer);
      !s.ok()) {
    return Fail(s);
  }
  options.worker_id = args.GetString("worker-id");
  options.pending_dir = args.GetString("out");
  options.max_games = args.GetInt("games");
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  options.metrics_listen = args.GetString("metrics");
  if (!args.GetString("evaluator").empty()) {
    absl::StatusOr<std::shared_ptr<RemoteEvaluator>> remote =
        ConnectEvaluator(config, args, evaluator_token);
    if (!remote.ok()) return Fail(remote.status());
    std::shared_ptr<RemoteEvaluator> shared = *remote;
    options.evaluators = [shared] {
      return GameModel(shared, shared->generation());
    };
  }
  absl::Status s = RunWorker(config, options, &interrupted);
  if (!s.ok()) return Fail(s);
  return interrupted ? 130 : 0;
}

void AddSelfplayFlags(Args& args) {
  args.AddString("config", "configs/tiny.textproto", "run config (text proto)");
  args.AddInt("games", 0, 0, 1000000000, "games to play (0: until stopped)");
  args.AddString("out", "selfplay-games", "directory for finished games");
  args.AddString("model", "", "checkpoint to play (default: a fresh network)");
  args.AddString("trainer", "", "trainer HOST:PORT to upload to");
  AddTokenFlags(args, "token", "worker token for the trainer",
                TokenEnv::kRenjuToken);
  AddClientTlsFlags(args, kWorkerTrainerTls, "the trainer");
  args.AddString("worker-id", "local", "worker name (letters, digits, -_.)");
  args.AddString("evaluator", "",
                 "inference server HOST:PORT whose network evaluates "
                 "positions (instead of a local --model)");
  AddTokenFlags(args, "evaluator-token", "bearer token for --evaluator",
                TokenEnv::kNone);
  AddClientTlsFlags(args, kEvaluatorTls, "--evaluator");
  args.AddInt("seed", 1, 0, INT64_MAX, "seed of the games' randomness");
  args.AddString("metrics", "",
                 "with --trainer, serve the worker's Prometheus metrics at "
                 "http://HOST:PORT/metrics (port 0: any free port; default: "
                 "none)");
}

}  // namespace

int Selfplay(const Argv& argv) {
  Args args("selfplay",
            "Plays self-play games. With --out DIR every finished game is "
            "written to DIR as <uid>.game; with --trainer HOST:PORT games are "
            "uploaded as they finish (kept in --out until acknowledged) and "
            "the worker switches to each new model between games.");
  AddSelfplayFlags(args);
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  if (!args.GetString("metrics").empty() && args.GetString("trainer").empty()) {
    return Fail(absl::InvalidArgumentError(
        "selfplay: --metrics serves a worker's metrics and needs --trainer"));
  }
  if (!IsSafeName(args.GetString("worker-id"))) {
    return Fail(absl::InvalidArgumentError(
        "selfplay: --worker-id may hold only letters, digits, '-', '_', '.'"));
  }
  if (!args.GetString("evaluator").empty() &&
      !args.GetString("model").empty()) {
    return Fail(absl::InvalidArgumentError(
        "selfplay: --model and --evaluator exclude each other (the server "
        "chooses the model)"));
  }
  absl::StatusOr<std::string> token =
      GetTokenFlag(args, "token", TokenEnv::kRenjuToken);
  if (!token.ok()) return Fail(token.status());
  absl::StatusOr<std::string> evaluator_token =
      GetTokenFlag(args, "evaluator-token", TokenEnv::kNone);
  if (!evaluator_token.ok()) return Fail(evaluator_token.status());
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return Fail(config.status());
  StopOnSignals();
  if (!args.GetString("trainer").empty()) {
    return RunAsWorker(*config, args, *token, *evaluator_token);
  }
  return RunOffline(*config, args, *evaluator_token);
}

}  // namespace renju::commands
