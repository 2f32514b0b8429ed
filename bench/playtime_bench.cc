// Play-time throughput: how much of the machine one search uses
// (BENCHMARKS.md, "Play-time throughput").
//
// For each core count (the process pinned to the first N cores, one
// LibTorch intra-op thread per forward thread) and each gathered batch
// size B, from real positions (every 6th of the first 40 shared games) and
// the shipped model:
//   forward  raw Model::Forward positions/s at batch B, one forward thread
//            per core, each with its own copy of the network (batch norms
//            folded, as play runs it), and the same for the network run as
//            trained (`unfolded`);
//   search   playouts/s of ONE search (one tree) with one gathering thread
//            per core and SearchParams::minibatch_size B, behind a
//            BatchedEvaluator with one server thread per core; B = 1 is
//            the search before gathering (one leaf per evaluator call).
// Every figure is the best of --rounds windows of --seconds, the
// configurations interleaved round by round, since the machine is shared
// and other processes only ever slow a window down. The ratios are
// against figures of the same run.
//
//   build/bench/playtime_bench [--model PATH] [--cores 1,2]
//       [--batches 1,4,8,16,32] [--visits 400] [--seconds 2] [--rounds 3]
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bench/shared_games.h"
#include "nn/batched_evaluator.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "search/search.h"

namespace renju {
namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  std::string model = RENJU_SOURCE_DIR "/models/default.model";
  std::vector<int> cores = {1, 2};
  std::vector<int> batches = {1, 4, 8, 16, 32};
  int64_t visits = 400;
  double seconds = 2;
  int rounds = 3;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::fprintf(stderr,
               "playtime_bench: %s\nusage: playtime_bench [--model PATH] "
               "[--cores 1,2] [--batches 1,4,8,16,32] [--visits N] "
               "[--seconds S] [--rounds R]\n",
               problem.c_str());
  std::exit(2);
}

std::vector<int> ParseInts(const std::string& flag, const std::string& text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int v = 0;
    if (!absl::SimpleAtoi(part, &v) || v < 1 || v > 1024) {
      Usage(flag + " wants numbers 1..1024 separated by commas, not '" + text +
            "'");
    }
    out.push_back(v);
  }
  return out;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) Usage(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--model") {
      f.model = value;
    } else if (flag == "--cores") {
      f.cores = ParseInts(flag, value);
    } else if (flag == "--batches") {
      f.batches = ParseInts(flag, value);
    } else if (flag == "--visits") {
      if (!absl::SimpleAtoi(value, &f.visits) || f.visits < 1) {
        Usage("--visits wants a positive number");
      }
    } else if (flag == "--seconds") {
      if (!absl::SimpleAtod(value, &f.seconds) || !(f.seconds > 0)) {
        Usage("--seconds wants a positive number");
      }
    } else if (flag == "--rounds") {
      if (!absl::SimpleAtoi(value, &f.rounds) || f.rounds < 1) {
        Usage("--rounds wants a positive number");
      }
    } else {
      Usage("unknown flag " + flag);
    }
  }
  const int available = std::thread::hardware_concurrency();
  for (int c : f.cores) {
    if (c > available) Usage("this machine has fewer cores than --cores asks");
  }
  return f;
}

// Pins this thread, and so every thread it starts from now on, to the
// first `cores` CPUs this process may use.
void PinToCores(int cores) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  sched_getaffinity(0, sizeof(allowed), &allowed);
  static const cpu_set_t original = allowed;
  cpu_set_t set;
  CPU_ZERO(&set);
  int taken = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && taken < cores; ++cpu) {
    if (CPU_ISSET(cpu, &original)) {
      CPU_SET(cpu, &set);
      ++taken;
    }
  }
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    std::perror("sched_setaffinity");
    std::exit(1);
  }
}

std::vector<Game> RealPositions() {
  absl::StatusOr<std::vector<std::vector<Move>>> games = LoadSharedGames(40);
  if (!games.ok()) {
    std::fprintf(stderr, "playtime_bench: %s\n",
                 std::string(games.status().message()).c_str());
    std::exit(1);
  }
  std::vector<Game> out;
  for (const std::vector<Move>& moves : *games) {
    Game game;
    int ply = 0;
    for (Move m : moves) {
      if (!game.Play(m).ok() || game.over()) break;
      if (++ply % 6 == 0) out.push_back(game);
    }
  }
  return out;
}

std::vector<std::unique_ptr<Model>> Models(const Model& model, int n) {
  std::vector<std::unique_ptr<Model>> out;
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<std::unique_ptr<Model>> copy = model.Clone();
    if (!copy.ok()) {
      std::fprintf(stderr, "playtime_bench: cannot copy the model\n");
      std::exit(1);
    }
    out.push_back(std::move(*copy));
  }
  return out;
}

// Positions/s of `cores` threads each forwarding batches of `batch`.
double ForwardRate(const Model& model, std::vector<Game>& positions, int cores,
                   int batch, double seconds) {
  std::vector<std::unique_ptr<Model>> models = Models(model, cores);
  const int input = model.input_floats();
  std::vector<float> inputs(static_cast<size_t>(batch) * input);
  for (int i = 0; i < batch; ++i) {
    EncodePosition(positions[i % positions.size()],
                   model.config().encoding_version,
                   inputs.data() + static_cast<size_t>(i) * input);
  }
  std::vector<int64_t> done(cores, 0);
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(seconds));
  std::vector<std::thread> threads;
  for (int t = 0; t < cores; ++t) {
    threads.emplace_back([&, t] {
      std::vector<float> policy(static_cast<size_t>(batch) *
                                model.policy_size());
      std::vector<float> wdl(static_cast<size_t>(batch) * 3);
      while (Clock::now() < end) {
        if (!models[t]
                 ->Forward(inputs.data(), batch, policy.data(), wdl.data())
                 .ok()) {
          std::fprintf(stderr, "playtime_bench: forward failed\n");
          std::exit(1);
        }
        done[t] += batch;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  int64_t total = 0;
  for (int64_t d : done) total += d;
  return total / std::chrono::duration<double>(Clock::now() - start).count();
}

struct SearchRate {
  double playouts_per_s = 0;
  double mean_batch = 0;
};

// Playouts/s of one search at a time over `positions`, `cores` gathering
// threads on its tree.
SearchRate OneSearchRate(const Model& model, const std::vector<Game>& positions,
                         int cores, int batch, int64_t visits, double seconds) {
  BatchedEvaluatorOptions options;
  options.max_batch_size = batch;
  options.max_wait_us = 0;  // as the engine and the server run it
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(Models(model, cores), options);
  if (!evaluator.ok()) {
    std::fprintf(stderr, "playtime_bench: %s\n",
                 std::string(evaluator.status().message()).c_str());
    std::exit(1);
  }
  SearchParams params;
  params.max_visits = visits;
  params.num_threads = cores;
  params.minibatch_size = batch;
  Random rng(1);
  int64_t playouts = 0;
  size_t next = 0;
  const Clock::time_point start = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    Search search(params, **evaluator, positions[next++ % positions.size()]);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    if (!r.ok()) {
      std::fprintf(stderr, "playtime_bench: %s\n",
                   std::string(r.status().message()).c_str());
      std::exit(1);
    }
    playouts += r->playouts;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return SearchRate{playouts / elapsed,
                    (*evaluator)->stats().mean_batch_size()};
}

int Main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  SetIntraOpThreads(1);
  ModelOptions options;
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Load(flags.model, options);
  options.fold_batch_norm = false;
  absl::StatusOr<std::unique_ptr<Model>> unfolded_model =
      Model::Load(flags.model, options);
  if (!model.ok() || !unfolded_model.ok()) {
    std::fprintf(stderr, "playtime_bench: %s\n",
                 std::string(model.status().message()).c_str());
    return 1;
  }
  std::vector<Game> positions = RealPositions();
  const NetworkConfig& net = (*model)->config();
  std::printf(
      "model %s (%d blocks x %d channels), %zu positions, %lld "
      "visits a search, best of %d x %.1f s\n",
      flags.model.c_str(), net.blocks, net.channels, positions.size(),
      static_cast<long long>(flags.visits), flags.rounds, flags.seconds);

  // (cores, batch) -> best figures over the rounds.
  std::map<std::pair<int, int>, double> forward;
  std::map<std::pair<int, int>, double> unfolded;
  std::map<std::pair<int, int>, SearchRate> search;
  for (int round = 0; round < flags.rounds; ++round) {
    for (int cores : flags.cores) {
      PinToCores(cores);
      for (int batch : flags.batches) {
        const auto key = std::make_pair(cores, batch);
        forward[key] = std::max(
            forward[key],
            ForwardRate(**model, positions, cores, batch, flags.seconds));
        unfolded[key] =
            std::max(unfolded[key], ForwardRate(**unfolded_model, positions,
                                                cores, batch, flags.seconds));
        const SearchRate s = OneSearchRate(**model, positions, cores, batch,
                                           flags.visits, flags.seconds);
        if (s.playouts_per_s > search[key].playouts_per_s) search[key] = s;
        std::fprintf(stderr,
                     "round %d/%d, %d core(s), batch %2d: forward %.0f/s, "
                     "search %.0f playouts/s\n",
                     round + 1, flags.rounds, cores, batch, forward[key],
                     search[key].playouts_per_s);
      }
    }
  }

  const double today = search[{flags.cores[0], 1}].playouts_per_s;
  std::printf(
      "\n| cores | batch | forward pos/s | folded / unfolded | "
      "one search playouts/s | "
      "mean batch | search / forward at batch | search / best "
      "forward | search / today's (%d core, batch 1) |\n",
      flags.cores[0]);
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (int cores : flags.cores) {
    double best_forward = 0;
    for (int batch : flags.batches) {
      best_forward = std::max(best_forward, forward[{cores, batch}]);
    }
    for (int batch : flags.batches) {
      const double f = forward[{cores, batch}];
      const SearchRate& s = search[{cores, batch}];
      std::printf(
          "| %d | %d | %.0f | %.2f | %.0f | %.1f | %.2f | %.2f | %.2f |\n",
          cores, batch, f, f / unfolded[{cores, batch}], s.playouts_per_s,
          s.mean_batch, s.playouts_per_s / f, s.playouts_per_s / best_forward,
          s.playouts_per_s / today);
    }
  }
  return 0;
}

}  // namespace
}  // namespace renju

int main(int argc, char** argv) { return renju::Main(argc, argv); }
