// The inference server under load: an in-process `renju serve` service on
// loopback, and 1, 8, 32 client threads (each with its own channel, as
// separate processes would have) asking for suggestions of a fixed visit
// budget on distinct positions. Prints requests/s, p50 and p99 latency, the
// evaluator's mean batch size, and requests/s as a ratio to one client: the
// gain from many requests' leaves sharing the network's batches.
//
// Run: build/bench/serve_bench [--config configs/tiny.textproto]
//        [--model PATH] [--visits 200] [--seconds 10] [--clients 1,8,32]
// With no --model the network is a fresh one of the config's shape (as
// fast as a trained one).
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "base/random.h"
#include "bench/load_test.h"
#include "cli/args.h"
#include "config/config.h"
#include "inference/inference_service.h"
#include "rpc/game_record.h"

namespace renju {
namespace {

using Clock = std::chrono::steady_clock;

struct LevelResult {
  int clients = 0;
  int64_t requests = 0;
  int64_t failures = 0;
  double seconds = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double mean_batch = 0;
  double requests_per_s() const { return requests / seconds; }
};

LevelResult RunLevel(InferenceService& service, const std::string& address,
                     int clients, int visits, double seconds) {
  const BatchedEvaluatorStats before = service.model()->stack->batch_stats();
  std::atomic<bool> stop{false};
  std::atomic<int64_t> failures{0};
  std::vector<std::vector<double>> latencies(clients);
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      auto stub = pb::Inference::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
      Random rng(1234, static_cast<uint64_t>(clients * 1000 + c));
      while (!stop.load()) {
        pb::SuggestRequest request;
        *request.mutable_position() = RandomOpening(rng);
        request.set_visits(visits);
        pb::SuggestResponse response;
        grpc::ClientContext context;
        const Clock::time_point sent = Clock::now();
        if (!stub->Suggest(&context, request, &response).ok()) {
          ++failures;
          continue;
        }
        latencies[c].push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - sent)
                .count());
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& t : threads) t.join();

  LevelResult result;
  result.clients = clients;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  result.requests = all.size();
  result.failures = failures.load();
  result.p50_ms = Percentile(all, 0.50);
  result.p99_ms = Percentile(all, 0.99);
  const BatchedEvaluatorStats after = service.model()->stack->batch_stats();
  const int64_t batches = after.batches - before.batches;
  result.mean_batch =
      batches == 0
          ? 0.0
          : static_cast<double>(after.positions - before.positions) / batches;
  return result;
}

int Main(int argc, char** argv) {
  Args args("serve_bench", "Suggest throughput and latency of the server.");
  args.AddString("config", "configs/tiny.textproto", "run config");
  args.AddString("model", "", "checkpoint (default: a fresh network)");
  args.AddInt("visits", 200, 1, 100000, "visits per suggestion");
  args.AddDouble("seconds", 10, 0.1, 3600, "seconds per client count");
  args.AddString("clients", "1,8,32", "client counts, comma-separated");
  if (absl::Status s = args.Parse({argv + 1, argv + argc}); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 2;
  }
  std::vector<int> levels;
  for (absl::string_view part :
       absl::StrSplit(args.GetString("clients"), ',')) {
    int n = 0;
    if (!absl::SimpleAtoi(part, &n) || n < 1 || n > 1024) {
      std::fprintf(stderr, "--clients: bad count '%s'\n",
                   std::string(part).c_str());
      return 2;
    }
    levels.push_back(n);
  }
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(config.status().message()).c_str());
    return 1;
  }
  absl::StatusOr<std::shared_ptr<const ServedModel>> model =
      LoadServedModel(*config, args.GetString("model"), 1);
  if (!model.ok()) {
    std::fprintf(stderr, "%s\n", std::string(model.status().message()).c_str());
    return 1;
  }
  InferenceService service(*config, *model, nullptr, InferenceServiceOptions{});
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  const std::string address = "127.0.0.1:" + std::to_string(port);

  const pb::ServerConfig& s = config->server();
  std::printf(
      "serve_bench: %s, %d-visit suggestions, search threads %d, "
      "batch <= %d, wait %d us, %.0f s per level\n",
      args.GetString("config").c_str(), static_cast<int>(args.GetInt("visits")),
      s.search().threads(), s.evaluator().max_batch_size(),
      s.evaluator().max_wait_us(), args.GetDouble("seconds"));
  std::printf("%8s %9s %9s %10s %10s %10s %9s %8s\n", "clients", "requests",
              "failures", "req/s", "p50 ms", "p99 ms", "batch", "ratio");
  double base = 0;
  for (int clients : levels) {
    const LevelResult r = RunLevel(service, address, clients,
                                   static_cast<int>(args.GetInt("visits")),
                                   args.GetDouble("seconds"));
    if (base == 0) base = r.requests_per_s();
    std::printf("%8d %9lld %9lld %10.2f %10.1f %10.1f %9.1f %8.2f\n", clients,
                static_cast<long long>(r.requests),
                static_cast<long long>(r.failures), r.requests_per_s(),
                r.p50_ms, r.p99_ms, r.mean_batch,
                base > 0 ? r.requests_per_s() / base : 0.0);
    std::fflush(stdout);
  }
  server->Shutdown();
  return 0;
}

}  // namespace
}  // namespace renju

int main(int argc, char** argv) { return renju::Main(argc, argv); }
