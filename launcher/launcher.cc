#include "launcher/launcher.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "launcher/progress.h"
#include "launcher/run_eta.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

// The last lines of a log, to explain why a child died.
std::string LogTail(const fs::path& path, int lines = 8) {
  std::ifstream in(path);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (size_t i = all.size() > static_cast<size_t>(lines) ? all.size() - lines
                                                          : 0;
       i < all.size(); ++i) {
    absl::StrAppend(&out, "  ", all[i], "\n");
  }
  return out;
}

// Waits until `child` writes its listening address to `file`.
absl::StatusOr<std::string> WaitForAddress(Subprocess& child,
                                           const fs::path& file,
                                           const fs::path& log,
                                           const std::atomic<bool>& stop) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (absl::StatusOr<std::string> text = ReadFile(file.string()); text.ok()) {
      const std::string address(absl::StripAsciiWhitespace(*text));
      if (!address.empty()) return address;
    }
    if (!child.Running()) {
      return absl::InternalError(absl::StrCat(
          child.name(), " exited with code ", child.exit_code(),
          " before listening; end of ", log.string(), ":\n", LogTail(log)));
    }
    if (stop) return absl::CancelledError("interrupted");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return absl::DeadlineExceededError(absl::StrCat(
      child.name(), " did not start listening; see ", log.string()));
}

// Reads the CPU seconds of the run's earlier sessions from `file`
// (cpu_seconds.txt) into `seconds`, which stays as it is without the file.
absl::Status ReadEarlierCpuSeconds(const fs::path& file, double* seconds) {
  if (absl::StatusOr<std::string> text = ReadFile(file.string());
      text.ok() &&
      !absl::SimpleAtod(absl::StripAsciiWhitespace(*text), seconds)) {
    return absl::DataLossError(
        absl::StrCat(file.string(), ": not a number of seconds: '",
                     absl::StripAsciiWhitespace(*text), "'"));
  }
  return absl::OkStatus();
}

// The newest generation noted in `file` (generations_cpu.csv), or `noted`
// when that is newer or there is no such file.
int64_t LastNotedGeneration(const fs::path& file, int64_t noted) {
  absl::StatusOr<std::string> text = ReadFile(file.string());
  if (!text.ok()) return noted;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    int64_t generation = 0;
    if (absl::SimpleAtoi(line.substr(0, line.find(',')), &generation)) {
      noted = std::max(noted, generation);
    }
  }
  return noted;
}

}  // namespace

std::string DefaultRunDir(const pb::RunConfig& config) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
  return (fs::path("runs") / absl::StrCat(config.name(), "-", stamp)).string();
}

absl::Status Launcher::StartTrainer() {
  fs::remove(paths_.trainer_address());
  fs::remove(paths_.run_page_address());
  std::vector<std::string> command = {self_,
                                      "trainer",
                                      "--config",
                                      paths_.config().string(),
                                      "--run-dir",
                                      paths_.root.string(),
                                      "--listen",
                                      "127.0.0.1:0",
                                      "--address-file",
                                      paths_.trainer_address().string(),
                                      "--generations",
                                      absl::StrCat(generations_)};
  if (!http_listen_.empty()) {
    for (const std::string& arg : {std::string("--http"), http_listen_,
                                   std::string("--http-address-file"),
                                   paths_.run_page_address().string()}) {
      command.push_back(arg);
    }
  }
  absl::StatusOr<Subprocess> child =
      Subprocess::Start(command, paths_.log("trainer").string());
  if (!child.ok()) return child.status();
  trainer_.emplace(std::move(*child));
  absl::StatusOr<std::string> address = WaitForAddress(
      *trainer_, paths_.trainer_address(), paths_.log("trainer"), stop_);
  if (!address.ok()) return address.status();
  trainer_address_ = *address;
  if (!http_listen_.empty()) {
    // Written before the gRPC address, so it is there now.
    absl::StatusOr<std::string> page = WaitForAddress(
        *trainer_, paths_.run_page_address(), paths_.log("trainer"), stop_);
    if (!page.ok()) return page.status();
    std::printf("run page: %s\n", page->c_str());
    std::fflush(stdout);
  }
  ChannelOptions channel;
  channel.address = trainer_address_;
  absl::StatusOr<std::unique_ptr<TrainerClient>> client =
      TrainerClient::Create(channel, 5000);
  if (!client.ok()) return client.status();
  client_ = std::move(*client);
  return absl::OkStatus();
}

absl::Status Launcher::StartWorker(int i) {
  const std::string id = absl::StrCat("worker-", i);
  absl::StatusOr<Subprocess> child = Subprocess::Start(
      {self_, "selfplay", "--config", paths_.config().string(), "--trainer",
       trainer_address_, "--worker-id", id, "--out",
       paths_.worker_dir(i).string(), "--seed",
       absl::StrCat(config_.seed() * 1000 + i + 1000 * restarts_)},
      paths_.log(id).string());
  if (!child.ok()) return child.status();
  workers_[i].emplace(std::move(*child));
  return absl::OkStatus();
}

absl::Status Launcher::StartServer() {
  fs::remove(paths_.server_address());
  absl::StatusOr<Subprocess> child = Subprocess::Start(
      {self_, "serve", "--config", paths_.config().string(), "--trainer",
       trainer_address_, "--listen", "127.0.0.1:0", "--address-file",
       paths_.server_address().string()},
      paths_.log("serve").string());
  if (!child.ok()) return child.status();
  server_.emplace(std::move(*child));
  return absl::OkStatus();
}

absl::Status Launcher::KeepChildrenAlive() {
  constexpr int kMaxRestarts = 10;
  if (!trainer_->Running()) {
    if (++restarts_ > kMaxRestarts) {
      return absl::InternalError(
          absl::StrCat("the trainer keeps exiting; end of its log:\n",
                       LogTail(paths_.log("trainer"))));
    }
    RENJU_LOG(WARNING) << "trainer exited with code " << trainer_->exit_code()
                       << "; restarting it";
    cpu_seconds_exited_ += trainer_->CpuSeconds();
    if (absl::Status s = StartTrainer(); !s.ok()) return s;
    // Workers reconnect by themselves; the server polls the new address
    // only if restarted, so restart it too.
    if (server_.has_value()) {
      server_->Stop();
      cpu_seconds_exited_ += server_->CpuSeconds();
      if (absl::Status s = StartServer(); !s.ok()) return s;
    }
  }
  for (int i = 0; i < static_cast<int>(workers_.size()); ++i) {
    if (workers_[i]->Running()) continue;
    if (++restarts_ > kMaxRestarts) {
      return absl::InternalError(
          absl::StrCat("worker-", i, " keeps exiting; end of its log:\n",
                       LogTail(paths_.log(absl::StrCat("worker-", i)))));
    }
    RENJU_LOG(WARNING) << "worker-" << i << " exited with code "
                       << workers_[i]->exit_code() << "; restarting it";
    cpu_seconds_exited_ += workers_[i]->CpuSeconds();
    if (absl::Status s = StartWorker(i); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string Launcher::ProgressText(const pb::TrainerStatus& s, double seconds) {
  if (games_at_start_ < 0) {
    games_at_start_ = s.total_games();
    generation_at_start_ = s.latest_generation();
    paced_generation_ = s.latest_generation();
  }
  const double minutes = seconds / 60;
  const int64_t new_games = s.total_games() - games_at_start_;
  std::string text =
      absl::StrFormat("gen %d/%d | games %d (%.1f/min) | window %d | step %d",
                      s.latest_generation(), generations_, s.total_games(),
                      minutes > 0 ? new_games / minutes : 0.0,
                      s.window_positions(), s.training_step());
  if (s.training_step() > 0) {
    absl::StrAppendFormat(&text, " | loss policy %.3f value %.3f",
                          s.policy_loss(), s.value_loss());
  }
  absl::StrAppend(&text, " | ", FormatDuration(seconds));
  if (cpu_budget_seconds_ > 0) {
    // ETA from the CPU time this session has used per wall second.
    const double used = RunCpuSeconds();
    const double rate = (used - cpu_seconds_before_) / std::max(seconds, 1.0);
    absl::StrAppendFormat(&text, " | cpu %.1f/%.0f min", used / 60,
                          cpu_budget_seconds_ / 60);
    if (rate > 0 && used < cpu_budget_seconds_) {
      absl::StrAppend(&text, " (eta ",
                      FormatDuration((cpu_budget_seconds_ - used) / rate), ")");
    }
    return text;
  }
  // ETA from the pace of the generations published in this session.
  if (s.latest_generation() > paced_generation_) {
    paced_generation_ = s.latest_generation();
    last_published_seconds_ = seconds;
  }
  RunPace pace;
  pace.now_seconds = seconds;
  pace.published = s.latest_generation() - generation_at_start_;
  pace.last_published_seconds = last_published_seconds_;
  pace.left = generations_ - s.latest_generation();
  if (const std::optional<double> eta = RunEtaSeconds(pace)) {
    absl::StrAppend(&text, " (eta ", FormatDuration(*eta), ")");
  }
  return text;
}

absl::Status Launcher::FinalMatch() {
  const int games = config_.launcher().final_match_games();
  if (games == 0 || final_generation_ == 0) return absl::OkStatus();
  const fs::path models = paths_.root / "models";
  const fs::path last =
      models / absl::StrCat("gen", final_generation_, ".model");
  const fs::path first = models / "gen0.model";
  const fs::path out = paths_.root / "final_match";
  std::printf("final match: generation %lld against generation 0, %d games\n",
              static_cast<long long>(final_generation_), games);
  std::fflush(stdout);
  absl::StatusOr<Subprocess> arena =
      Subprocess::Start({self_, "arena", "--config", paths_.config().string(),
                         "--a", absl::StrCat("model:", last.string()), "--b",
                         absl::StrCat("model:", first.string()), "--games",
                         absl::StrCat(games), "--out", out.string()},
                        paths_.log("final_match").string());
  if (!arena.ok()) return arena.status();
  while (arena->Running()) {
    if (stop_) {
      arena->Stop();
      return absl::CancelledError("interrupted during the final match");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (arena->exit_code() != 0) {
    return absl::InternalError(
        absl::StrCat("final match failed; end of its log:\n",
                     LogTail(paths_.log("final_match"))));
  }
  std::printf("%s", LogTail(paths_.log("final_match"), 6).c_str());
  return absl::OkStatus();
}

int64_t Launcher::DecidedGeneration() {
  absl::StatusOr<std::vector<pb::ModelInfo>> models = client_->ListModels();
  if (!models.ok()) return 0;
  int64_t decided = 0;
  for (const pb::ModelInfo& m : *models) {
    if (m.status() != "candidate") decided = std::max(decided, m.generation());
  }
  return decided;
}

void Launcher::PrintRatings() {
  absl::StatusOr<std::vector<pb::ModelInfo>> models = client_->ListModels();
  if (!models.ok()) return;
  std::string table = "generation  status     step   games     elo\n";
  for (const pb::ModelInfo& m : *models) {
    absl::StrAppendFormat(&table, "%10d  %-9s %5d %7d %+7.1f\n", m.generation(),
                          m.status(), m.training_step(), m.games_seen(),
                          m.elo());
  }
  std::printf("%s", table.c_str());
  std::fflush(stdout);
}

double Launcher::RunCpuSeconds() const {
  double total = cpu_seconds_before_ + cpu_seconds_exited_;
  if (trainer_.has_value()) total += trainer_->CpuSeconds();
  if (server_.has_value()) total += server_->CpuSeconds();
  for (const auto& w : workers_) {
    if (w.has_value()) total += w->CpuSeconds();
  }
  return total;
}

void Launcher::SaveCpuSeconds(double seconds) {
  // Best effort: losing it only restarts the count of a resumed run.
  (void)WriteFileAtomically(paths_.cpu_seconds().string(),
                            absl::StrFormat("%.1f\n", seconds));
}

void Launcher::NoteGenerationCpu(int64_t latest, double cpu_seconds,
                                 double wall_seconds) {
  if (latest <= noted_generation_) return;
  const bool fresh = !fs::exists(paths_.generations_cpu());
  std::ofstream out(paths_.generations_cpu(), std::ios::app);
  if (fresh) out << "generation,cpu_seconds,wall_seconds\n";
  for (int64_t g = noted_generation_ + 1; g <= latest; ++g) {
    out << absl::StrFormat("%d,%.1f,%.1f\n", g, cpu_seconds, wall_seconds);
  }
  noted_generation_ = latest;
  if (!out) {
    RENJU_LOG(WARNING) << "cannot append to "
                       << paths_.generations_cpu().string();
  }
}

void Launcher::StopAll() {
  for (auto& w : workers_) {
    if (w.has_value()) w->Stop();
  }
  if (server_.has_value()) server_->Stop();
  if (trainer_.has_value()) trainer_->Stop(30000);
}

absl::Status Launcher::StartChildren() {
  if (absl::Status s = StartTrainer(); !s.ok()) return s;
  workers_.resize(config_.launcher().workers());
  for (int i = 0; i < config_.launcher().workers(); ++i) {
    if (absl::Status s = StartWorker(i); !s.ok()) return s;
  }
  if (config_.launcher().inference_server()) {
    if (absl::Status s = StartServer(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Launcher::FollowTrainer(ProgressLine& progress,
                                     pb::TrainerStatus* status) {
  int64_t shown_generation = 0;
  while (!stop_) {
    if (absl::Status s = KeepChildrenAlive(); !s.ok()) {
      StopAll();
      return s;
    }
    absl::StatusOr<pb::TrainerStatus> now = client_->GetStatus();
    if (now.ok()) {
      *status = *now;
      const double cpu_seconds = RunCpuSeconds();
      SaveCpuSeconds(cpu_seconds);
      NoteGenerationCpu(status->latest_generation(), cpu_seconds,
                        progress.elapsed_seconds());
      // A generation counts once its match decided it (not "candidate").
      const int64_t decided = DecidedGeneration();
      if (decided > shown_generation) {
        progress.Finish(ProgressText(*status, progress.elapsed_seconds()));
        PrintRatings();
        shown_generation = decided;
      }
      if (decided >= generations_) {
        final_generation_ = decided;
        break;
      }
      if (cpu_budget_seconds_ > 0 && cpu_seconds >= cpu_budget_seconds_) {
        final_generation_ = status->latest_generation();
        progress.Finish(ProgressText(*status, progress.elapsed_seconds()));
        std::printf("cpu budget of %.1f minutes spent at generation %lld\n",
                    cpu_budget_seconds_ / 60,
                    static_cast<long long>(final_generation_));
        break;
      }
      progress.Update(ProgressText(*status, progress.elapsed_seconds()));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return absl::OkStatus();
}

absl::Status Launcher::EndRun(ProgressLine& progress,
                              const pb::TrainerStatus& status) {
  progress.Finish(ProgressText(status, progress.elapsed_seconds()));
  for (auto& w : workers_) w->Stop();
  if (server_.has_value()) server_->Stop();
  if (stop_) {
    trainer_->Stop(30000);
    SaveCpuSeconds(RunCpuSeconds());  // the stopped children's final figures
    return absl::CancelledError(
        absl::StrCat("interrupted; continue with: renju train --resume ",
                     paths_.root.string()));
  }
  absl::Status match = FinalMatch();
  trainer_->Stop(30000);
  const double cpu_seconds = RunCpuSeconds();  // the final match not included
  SaveCpuSeconds(cpu_seconds);
  if (!match.ok()) return match;
  std::printf(
      "done: %lld generations, %lld games, %lld training steps in %s"
      " (%.1f CPU minutes in all)\n"
      "ratings, plots and logs are in %s\n",
      static_cast<long long>(final_generation_),
      static_cast<long long>(status.total_games()),
      static_cast<long long>(status.training_step()),
      FormatDuration(progress.elapsed_seconds()).c_str(), cpu_seconds / 60,
      paths_.root.string().c_str());
  return absl::OkStatus();
}

absl::Status Launcher::Run() {
  std::printf("run folder: %s\n", paths_.root.string().c_str());
  std::fflush(stdout);
  if (absl::Status s =
          ReadEarlierCpuSeconds(paths_.cpu_seconds(), &cpu_seconds_before_);
      !s.ok()) {
    return s;
  }
  // A resumed run notes only generations newer than its last row.
  noted_generation_ =
      LastNotedGeneration(paths_.generations_cpu(), noted_generation_);
  if (cpu_budget_seconds_ > 0) {
    std::printf("cpu budget: %.1f of %.1f minutes used\n",
                cpu_seconds_before_ / 60, cpu_budget_seconds_ / 60);
  }
  if (absl::Status s = StartChildren(); !s.ok()) return s;
  ProgressLine progress(stdout, 15000);
  pb::TrainerStatus status;
  if (absl::Status s = FollowTrainer(progress, &status); !s.ok()) return s;
  return EndRun(progress, status);
}

}  // namespace renju
