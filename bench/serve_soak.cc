// serve_soak: the inference server's soak test (not part of CI; run through
// tools/soak_test.sh). The server under test is the real `renju serve`
// process, started as users start it, following a trainer with --trainer.
// Around it this program runs:
//   - the tests' fake trainer (tests/common/fake_trainer.h) on loopback,
//     serving the model files the server's ModelUpdater fetches
//     (GetCurrentModel, FetchModel); every --swap-seconds SoakModels
//     (soak_models.h) publishes a new best generation on it, alternating
//     between two real checkpoints of the config's shape (a fresh network
//     and --model), so the server hot-swaps.
//   - --clients threads, each on its own channel (its own connection, as
//     separate processes would have), asking for --visits suggestions on
//     random openings with a --deadline-ms deadline.
// Every --report-seconds it prints one line: requests answered, failures
// (DEADLINE_EXCEEDED apart from the rest), p50/p99 latency, the generations
// the answers came from, and the server's RSS. The summary at the end says
// whether the server passed: no failure other than by deadline, an answer
// from every published generation, and RSS at the end within
// --max-rss-growth-mib of RSS after the first interval (the warm-up).
//
// Exit code: 0 pass, 1 fail or error, 2 bad flags.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/file_util.h"
#include "base/random.h"
#include "base/subprocess.h"
#include "bench/load_test.h"
#include "bench/soak_models.h"
#include "cli/command_util.h"
#include "config/config.h"
#include "nn/checkpoint.h"
#include "nn/model.h"
#include "proto/inference.grpc.pb.h"
#include "proto/trainer.grpc.pb.h"
#include "rpc/game_record.h"
#include "rpc/rpc.h"
#include "rpc/sha256.h"
#include "rules/game.h"
#include "tests/common/fake_trainer.h"

namespace renju {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What the clients saw in one report interval.
struct Interval {
  int64_t ok = 0;
  int64_t deadline_exceeded = 0;
  std::map<grpc::StatusCode, int64_t> failures;  // other than the deadline
  std::vector<double> latencies_ms;
  std::map<int64_t, int64_t> generations;  // model generation -> answers
};

// The clients' results, shared by their threads. Thread-safe.
class SoakStats {
 public:
  explicit SoakStats(Clock::time_point start) : start_(start) {}

  void RecordAnswer(double latency_ms, int64_t generation) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++interval_.ok;
    interval_.latencies_ms.push_back(latency_ms);
    ++interval_.generations[generation];
    first_answer_s_.emplace(generation, SecondsSince(start_));
  }

  void RecordFailure(const grpc::Status& status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      ++interval_.deadline_exceeded;
      return;
    }
    ++interval_.failures[status.error_code()];
    // The first few tell what went wrong; the counts tell how often.
    if (++failures_printed_ <= 10) {
      std::fprintf(stderr, "at %.1f s: Suggest failed: code %d: %s\n",
                   SecondsSince(start_), static_cast<int>(status.error_code()),
                   status.error_message().c_str());
    }
  }

  // The interval so far; starts the next.
  Interval TakeInterval() {
    std::lock_guard<std::mutex> lock(mutex_);
    Interval taken = std::move(interval_);
    interval_ = Interval();
    return taken;
  }

  // Seconds from the start to the first answer from each generation.
  std::map<int64_t, double> FirstAnswers() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_answer_s_;
  }

 private:
  const Clock::time_point start_;
  std::mutex mutex_;
  Interval interval_ ABSL_GUARDED_BY(mutex_);
  std::map<int64_t, double> first_answer_s_ ABSL_GUARDED_BY(mutex_);
  int failures_printed_ ABSL_GUARDED_BY(mutex_) = 0;
};

struct ClientOptions {
  std::string address;
  int visits = 100;
  int64_t deadline_ms = 10000;
  uint64_t seed = 1;
};

// One client: Suggest after Suggest on its own connection until `stop`.
void RunClient(const ClientOptions& options, int index,
               const std::atomic<bool>& stop, SoakStats& stats) {
  grpc::ChannelArguments channel_args;
  // A channel of its own does not make a connection of its own: gRPC shares
  // subchannels between channels to one address unless told not to.
  channel_args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  auto stub = pb::Inference::NewStub(grpc::CreateCustomChannel(
      options.address, grpc::InsecureChannelCredentials(), channel_args));
  Random rng(options.seed, static_cast<uint64_t>(index));
  while (!stop.load()) {
    pb::SuggestRequest request;
    *request.mutable_position() = RandomOpening(rng);
    request.set_visits(options.visits);
    pb::SuggestResponse response;
    grpc::ClientContext context;
    const Clock::time_point sent = Clock::now();
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(options.deadline_ms));
    const grpc::Status status = stub->Suggest(&context, request, &response);
    if (!status.ok()) {
      stats.RecordFailure(status);
      continue;
    }
    stats.RecordAnswer(
        std::chrono::duration<double, std::milli>(Clock::now() - sent).count(),
        response.model_generation());
  }
}

// VmRSS of process `pid` in MiB.
absl::StatusOr<double> RssMib(pid_t pid) {
  const std::string path = absl::StrCat("/proc/", pid, "/status");
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("VmRSS:", 0) != 0) continue;
    std::istringstream value(line.substr(6));  // "VmRSS:   123456 kB"
    int64_t kib = 0;
    if (value >> kib) return kib / 1024.0;
    break;
  }
  return absl::NotFoundError(absl::StrCat("no VmRSS value in ", path));
}

// Waits up to `timeout_s` for `renju serve` to write its address file.
absl::StatusOr<std::string> WaitForAddress(Subprocess& server,
                                           const std::string& file,
                                           double timeout_s) {
  const Clock::time_point start = Clock::now();
  while (SecondsSince(start) < timeout_s) {
    if (!server.Running()) {
      return absl::UnavailableError(
          absl::StrCat("renju serve exited with code ", server.exit_code(),
                       " before serving"));
    }
    absl::StatusOr<std::string> text = ReadFile(file);
    if (text.ok() && !text->empty() && text->back() == '\n') {
      return text->substr(0, text->size() - 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "renju serve wrote no address to ", file, " in ", timeout_s, " s"));
}

std::string FormatFailures(
    const std::map<grpc::StatusCode, int64_t>& failures) {
  if (failures.empty()) return "0";
  std::vector<std::string> parts;
  for (const auto& [code, n] : failures) {
    parts.push_back(absl::StrCat(n, " (code ", static_cast<int>(code), ")"));
  }
  return absl::StrJoin(parts, ", ");
}

std::string FormatGenerations(const std::map<int64_t, int64_t>& generations) {
  std::vector<std::string> parts;
  for (const auto& [g, n] : generations)
    parts.push_back(absl::StrCat(g, ":", n));
  return parts.empty() ? "none" : absl::StrJoin(parts, " ");
}

// The soak's flags, checked against each other.
struct SoakOptions {
  std::string config_path;
  std::string model_path;
  std::string renju;
  std::string work_dir;
  int clients = 32;
  ClientOptions client;
  double seconds = 600;
  double swap_seconds = 60;
  double report_seconds = 60;
  double max_rss_growth_mib = 64;
};

// Publication times: every swap_seconds, each with at least half an
// interval of traffic after it to be seen in.
std::vector<double> SwapTimes(const SoakOptions& o) {
  std::vector<double> times;
  for (double t = o.swap_seconds; t <= o.seconds - o.swap_seconds / 2;
       t += o.swap_seconds) {
    times.push_back(t);
  }
  return times;
}

struct Totals {
  int64_t ok = 0;
  int64_t deadline_exceeded = 0;
  std::map<grpc::StatusCode, int64_t> failures;
  int64_t failed() const {
    int64_t n = 0;
    for (const auto& [code, count] : failures) n += count;
    return n;
  }
};

// Prints one interval's line and adds it to `totals`.
void Report(double at_s, Interval interval, double rss_mib, Totals& totals) {
  const double p50 = Percentile(interval.latencies_ms, 0.50);
  const double p99 = Percentile(interval.latencies_ms, 0.99);
  std::printf(
      "%6.0f s: ok %lld, deadline %lld, failed %s, p50 %.0f ms, p99 %.0f ms, "
      "generations %s, server RSS %.1f MiB\n",
      at_s, static_cast<long long>(interval.ok),
      static_cast<long long>(interval.deadline_exceeded),
      FormatFailures(interval.failures).c_str(), p50, p99,
      FormatGenerations(interval.generations).c_str(), rss_mib);
  std::fflush(stdout);
  totals.ok += interval.ok;
  totals.deadline_exceeded += interval.deadline_exceeded;
  for (const auto& [code, n] : interval.failures) totals.failures[code] += n;
}

// The client threads; Stop (or the destructor) waits for their requests in
// flight.
class Clients {
 public:
  Clients(const ClientOptions& options, int count, SoakStats& stats) {
    for (int c = 0; c < count; ++c) {
      threads_.emplace_back(
          [this, options, c, &stats] { RunClient(options, c, stop_, stats); });
    }
  }
  ~Clients() { Stop(); }

  void Stop() {
    stop_ = true;
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

struct SoakResult {
  Totals totals;
  std::map<int64_t, double> published;      // generation -> seconds
  std::map<int64_t, double> first_answers;  // generation -> seconds
  double rss_start = -1;                    // MiB, at the first report
  double rss_end = 0;  // MiB, at the last report the server was up
  double rss_max = 0;  // MiB, sampled every 200 ms
  bool server_died = false;
};

// Drives the server for options.seconds: clients, publications, reports.
absl::StatusOr<SoakResult> RunLoad(const SoakOptions& options,
                                   SoakModels& trainer, Subprocess& server,
                                   const std::string& address) {
  const Clock::time_point start = Clock::now();
  SoakStats stats(start);
  ClientOptions client = options.client;
  client.address = address;
  Clients clients(client, options.clients, stats);
  const std::vector<double> swap_times = SwapTimes(options);
  size_t next_swap = 0;
  double next_report = options.report_seconds;
  SoakResult result;
  result.published[1] = 0;
  for (bool done = false; !done;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double now = SecondsSince(start);
    if (!server.Running()) {
      std::fprintf(stderr, "at %.1f s: renju serve exited with code %d\n", now,
                   server.exit_code());
      result.server_died = true;
    }
    absl::StatusOr<double> rss = result.server_died
                                     ? absl::NotFoundError("exited")
                                     : RssMib(server.pid());
    if (rss.ok()) result.rss_max = std::max(result.rss_max, *rss);
    if (next_swap < swap_times.size() && now >= swap_times[next_swap]) {
      absl::StatusOr<int64_t> generation = trainer.PublishNext();
      if (!generation.ok()) return generation.status();
      result.published[*generation] = now;
      ++next_swap;
    }
    done = now >= options.seconds || result.server_died;
    if (now < next_report && !done) continue;
    // At the end, requests in flight count in the last interval.
    if (done) clients.Stop();
    if (rss.ok()) result.rss_end = *rss;
    if (result.rss_start < 0) result.rss_start = result.rss_end;
    Report(now, stats.TakeInterval(), result.rss_end, result.totals);
    next_report += options.report_seconds;
  }
  clients.Stop();
  result.first_answers = stats.FirstAnswers();
  return result;
}

// Prints the summary; returns why the soak failed (empty: it passed).
std::vector<std::string> Summarize(const SoakOptions& options,
                                   const SoakResult& r) {
  std::printf(
      "summary: %lld requests answered, %lld failed other than by "
      "deadline (%s), %lld deadline exceeded\n",
      static_cast<long long>(r.totals.ok),
      static_cast<long long>(r.totals.failed()),
      FormatFailures(r.totals.failures).c_str(),
      static_cast<long long>(r.totals.deadline_exceeded));
  int missing = 0;
  for (const auto& [generation, at_s] : r.published) {
    auto it = r.first_answers.find(generation);
    if (it == r.first_answers.end()) {
      ++missing;
      std::printf("summary: generation %lld published at %.1f s: no answer\n",
                  static_cast<long long>(generation), at_s);
    } else {
      std::printf(
          "summary: generation %lld published at %.1f s, first "
          "answer at %.1f s\n",
          static_cast<long long>(generation), at_s, it->second);
    }
  }
  std::printf("summary: swaps %d published, %d observed in answers\n",
              static_cast<int>(r.published.size()) - 1,
              std::max(0, static_cast<int>(r.first_answers.size()) - 1));
  const double growth = r.rss_end - r.rss_start;
  std::printf(
      "summary: server RSS start %.1f MiB (after %.0f s), end %.1f "
      "MiB, max %.1f MiB, growth %+.1f MiB (limit %.0f)\n",
      r.rss_start, options.report_seconds, r.rss_end, r.rss_max, growth,
      options.max_rss_growth_mib);

  std::vector<std::string> reasons;
  if (r.server_died) reasons.push_back("the server exited");
  if (r.totals.failed() > 0) reasons.push_back("requests failed");
  if (r.totals.ok == 0) reasons.push_back("no request was answered");
  if (missing > 0) reasons.push_back("published generations never answered");
  if (growth > options.max_rss_growth_mib) reasons.push_back("RSS grew");
  return reasons;
}

// Runs the soak against a started server; returns the exit code.
int Soak(const SoakOptions& options, SoakModels& trainer, Subprocess& server,
         const std::string& address) {
  absl::StatusOr<SoakResult> result =
      RunLoad(options, trainer, server, address);
  if (!result.ok()) return commands::Fail(result.status());
  std::vector<std::string> reasons = Summarize(options, *result);
  // A clean shutdown is part of serving well.
  if (!result->server_died) {
    if (int code = server.Stop(); code != 0) {
      reasons.push_back(absl::StrCat("renju serve exited with code ", code));
    }
  }
  const std::string verdict =
      reasons.empty() ? "PASS"
                      : absl::StrCat("FAIL: ", absl::StrJoin(reasons, "; "));
  std::printf("summary: %s\n", verdict.c_str());
  return reasons.empty() ? 0 : 1;
}

// "/path/to/build/serve_soak" -> "/path/to/build/renju".
std::string SiblingRenju() {
  return (std::filesystem::path(SelfExecutable()).parent_path() / "renju")
      .string();
}

// Reads and cross-checks the flags; errors name the flag.
absl::StatusOr<SoakOptions> ReadOptions(const Args& args,
                                        const pb::RunConfig& config) {
  SoakOptions o;
  o.config_path = args.GetString("config");
  o.model_path = args.GetString("model");
  o.renju = args.IsSet("renju") ? args.GetString("renju") : SiblingRenju();
  o.work_dir =
      args.IsSet("work-dir")
          ? args.GetString("work-dir")
          : absl::StrCat(std::filesystem::temp_directory_path().string(),
                         "/renju-soak-", ::getpid());
  o.clients = static_cast<int>(args.GetInt("clients"));
  o.client.visits = static_cast<int>(args.GetInt("visits"));
  o.client.deadline_ms = args.GetInt("deadline-ms");
  o.client.seed = static_cast<uint64_t>(args.GetInt("seed"));
  o.seconds = args.GetDouble("seconds");
  o.swap_seconds = args.GetDouble("swap-seconds");
  // A run shorter than the default interval reports once, at its end.
  o.report_seconds =
      args.IsSet("report-seconds")
          ? args.GetDouble("report-seconds")
          : std::min(args.GetDouble("report-seconds"), o.seconds);
  o.max_rss_growth_mib = args.GetDouble("max-rss-growth-mib");
  const int poll = config.server().model_poll_seconds();
  if (o.swap_seconds < 4 * poll) {
    return absl::InvalidArgumentError(
        absl::StrCat("--swap-seconds ", o.swap_seconds,
                     " is too short for the config's "
                     "server.model_poll_seconds ",
                     poll, ": give at least ", 4 * poll,
                     " so each swap can be seen before the next"));
  }
  if (SwapTimes(o).empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--seconds ", o.seconds, " leaves no time for a swap every ",
        o.swap_seconds, " s: give at least 1.5 x --swap-seconds"));
  }
  if (o.report_seconds > o.seconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("--report-seconds ", o.report_seconds,
                     " is longer than --seconds ", o.seconds));
  }
  if (o.client.visits > config.server().max_visits()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--visits ", o.client.visits,
                     " is above the config's server."
                     "max_visits ",
                     config.server().max_visits()));
  }
  if (!std::filesystem::exists(o.renju)) {
    return absl::NotFoundError(
        absl::StrCat("no renju binary at ", o.renju, " (give --renju PATH)"));
  }
  return o;
}

// The soak's flags, with their defaults.
void AddSoakFlags(Args& args) {
  args.AddString("config", "configs/tiny.textproto",
                 "run config for the server and the network shape");
  args.AddString("model", "tests/data/tiny-gen3.model",
                 "checkpoint alternated with a fresh network");
  args.AddString("renju", "", "the renju binary (default: next to this one)");
  args.AddString("work-dir", "",
                 "models and the server's log (default: a new temp folder)");
  args.AddInt("clients", 32, 1, 1024, "concurrent clients");
  args.AddInt("visits", 100, 1, 10000000, "visits per suggestion");
  args.AddInt("deadline-ms", 10000, 100, 600000, "deadline per request");
  args.AddDouble("seconds", 600, 1, 7 * 24 * 3600, "length of the soak");
  args.AddDouble("swap-seconds", 60, 1, 24 * 3600,
                 "seconds between published models");
  args.AddDouble("report-seconds", 60, 1, 24 * 3600,
                 "seconds per progress line");
  args.AddDouble("max-rss-growth-mib", 64, 0, 1e6,
                 "allowed server RSS growth from the first report to the end");
  args.AddInt("seed", 1, 0, INT64_MAX, "seed of the positions and fresh net");
}

int Main(int argc, char** argv) {
  Args args("serve_soak",
            "Soak test of `renju serve`: many clients for a long time while "
            "a stand-in trainer publishes a new best model every "
            "--swap-seconds. Fails on any failed request other than by "
            "deadline, a published generation never answered, or RSS "
            "growth.");
  AddSoakFlags(args);
  if (int code = commands::ParseOrExit(args, {argv + 1, argv + argc});
      code >= 0) {
    return code;
  }
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return commands::Fail(config.status());
  absl::StatusOr<SoakOptions> options = ReadOptions(args, *config);
  if (!options.ok()) {
    std::fprintf(stderr, "serve_soak: %s\n",
                 std::string(options.status().message()).c_str());
    return 2;
  }
  const SoakOptions& o = *options;
  std::error_code error;
  std::filesystem::create_directories(o.work_dir + "/trainer", error);
  if (error) {
    return commands::Fail(absl::InternalError(
        absl::StrCat("cannot create ", o.work_dir, ": ", error.message())));
  }

  // FetchModel in 64 KiB chunks, as the soak has always streamed them.
  testing::FakeTrainer trainer_service(1 << 16);
  absl::StatusOr<std::unique_ptr<SoakModels>> trainer =
      SoakModels::Create(*config, o.model_path, o.work_dir + "/trainer",
                         o.client.seed, trainer_service);
  if (!trainer.ok()) return commands::Fail(trainer.status());
  if (absl::StatusOr<int64_t> first = (*trainer)->PublishNext(); !first.ok()) {
    return commands::Fail(first.status());
  }
  grpc::ServerBuilder builder;
  int trainer_port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &trainer_port);
  builder.RegisterService(&trainer_service);
  std::unique_ptr<grpc::Server> trainer_server = builder.BuildAndStart();
  if (trainer_server == nullptr || trainer_port == 0) {
    return commands::Fail(
        absl::UnavailableError("cannot listen on 127.0.0.1 for the trainer"));
  }

  const std::string address_file = o.work_dir + "/serve.address";
  const std::string log = o.work_dir + "/serve.log";
  std::filesystem::remove(address_file, error);
  absl::StatusOr<Subprocess> server = Subprocess::Start(
      {o.renju, "serve", "--config", o.config_path, "--trainer",
       absl::StrCat("127.0.0.1:", trainer_port), "--listen", "127.0.0.1:0",
       "--address-file", address_file, "--model-dir",
       o.work_dir + "/serve-models"},
      log);
  if (!server.ok()) return commands::Fail(server.status());
  absl::StatusOr<std::string> address =
      WaitForAddress(*server, address_file, 120);
  if (!address.ok()) {
    return commands::Fail(absl::Status(
        address.status().code(),
        absl::StrCat(address.status().message(), "; its log: ", log)));
  }
  std::printf(
      "serve_soak: renju serve (pid %d) on %s, %d clients, %d visits, "
      "deadline %lld ms, %.0f s, a new model every %.0f s; log %s\n",
      static_cast<int>(server->pid()), address->c_str(), o.clients,
      o.client.visits, static_cast<long long>(o.client.deadline_ms), o.seconds,
      o.swap_seconds, log.c_str());
  std::fflush(stdout);
  const int code = Soak(o, **trainer, *server, *address);
  trainer_server->Shutdown(std::chrono::system_clock::now() +
                           std::chrono::seconds(5));
  return code;
}

}  // namespace
}  // namespace renju

int main(int argc, char** argv) { return renju::Main(argc, argv); }
