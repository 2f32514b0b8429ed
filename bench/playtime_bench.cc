// Play-time throughput: how much of the machine one search uses
// (BENCHMARKS.md, "Play-time throughput").
//
// For each core count (the process pinned to the first N cores, one
// LibTorch intra-op thread per forward thread) and each gathered batch
// size B, from real positions (every 6th of the first 40 shared games) and
// the shipped model:
//   forward  raw Model::Forward positions/s at batch B, one forward thread
//            per core, each with its own copy of the network as play runs
//            it (batch norms folded, in --precision: by default "auto",
//            bf16 on a CPU that computes it natively), and the same for the
//            network run as trained (`unfolded`, float32);
//   search   playouts/s of ONE search (one tree) with one gathering thread
//            per core and SearchParams::minibatch_size B, behind a
//            BatchedEvaluator with one server thread per core; B = 1 is
//            the search before gathering (one leaf per evaluator call);
//   before   the search as it was before issue 29: batch 1 on the network
//            as trained (no gathering, no folded batch norms), the
//            reference of the last column.
// Each search gets --visits (default 1600, about what one core searches in
// a 1-second move): a visit budget caps the gathered batch at budget / 32
// (kMinVisitsPerGatheredLeaf), so a smaller budget would measure smaller
// batches than the column says.
// Every figure is the best of --rounds windows of --seconds, the
// configurations interleaved round by round, since the machine is shared
// and other processes only ever slow a window down. The ratios are
// against figures of the same run. First it prints how far the play
// network's outputs are from the float32 network's on the positions.
//
//   build/bench/playtime_bench [--model PATH] [--cores 1,2]
//       [--batches 1,4,8,16,32] [--visits 1600] [--seconds 2] [--rounds 3]
//       [--precision auto|fp32|bf16] [--gatherers-per-core 1]
// --gatherers-per-core N runs N gathering threads per core on the one tree
// (the evaluator keeps one forward thread per core).
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/shared_games.h"
#include "nn/batched_evaluator.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/output.h"
#include "search/search.h"

namespace renju {
namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  std::string model = RENJU_SOURCE_DIR "/models/default.model";
  std::vector<int> cores = {1, 2};
  std::vector<int> batches = {1, 4, 8, 16, 32};
  int64_t visits = 1600;
  double seconds = 2;
  int rounds = 3;
  std::string precision = "auto";
  int gatherers_per_core = 1;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::fprintf(stderr,
               "playtime_bench: %s\nusage: playtime_bench [--model PATH] "
               "[--cores 1,2] [--batches 1,4,8,16,32] [--visits N] "
               "[--seconds S] [--rounds R] [--precision auto|fp32|bf16] "
               "[--gatherers-per-core N]\n",
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
    } else if (flag == "--gatherers-per-core") {
      if (!absl::SimpleAtoi(value, &f.gatherers_per_core) ||
          f.gatherers_per_core < 1 || f.gatherers_per_core > 8) {
        Usage("--gatherers-per-core wants a number 1..8");
      }
    } else if (flag == "--precision") {
      f.precision = value;
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

// Playouts/s of one search at a time over `positions`: `gatherers`
// gathering threads on its tree, one forward thread per core.
SearchRate OneSearchRate(const Model& model, const std::vector<Game>& positions,
                         int cores, int gatherers, int batch, int64_t visits,
                         double seconds) {
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
  params.num_threads = gatherers;
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

std::unique_ptr<Model> LoadOrDie(const std::string& path, Precision precision,
                                 bool fold) {
  ModelOptions options;
  options.device = "cpu";
  options.precision = precision;
  options.fold_batch_norm = fold;
  absl::StatusOr<std::unique_ptr<Model>> model = Model::Load(path, options);
  if (!model.ok()) {
    std::fprintf(stderr, "playtime_bench: %s\n",
                 std::string(model.status().message()).c_str());
    std::exit(1);
  }
  return std::move(*model);
}

// How far `model`'s evaluations are from `reference`'s on `positions`: the
// largest difference of one move's probability (legal moves only), how
// often the most likely move is the same, and the largest difference of the
// value (win - loss).
void PrintDistance(Model& model, Model& reference,
                   std::vector<Game>& positions) {
  const int input = model.input_floats();
  const int area = model.policy_size();
  std::vector<float> planes(input);
  std::vector<float> p(area), q(area);
  float wdl_p[3], wdl_q[3];
  double max_policy = 0, max_value = 0;
  int same_top = 0;
  for (Game& game : positions) {
    EncodePosition(game, model.config().encoding_version, planes.data());
    if (!model.Forward(planes.data(), 1, p.data(), wdl_p).ok() ||
        !reference.Forward(planes.data(), 1, q.data(), wdl_q).ok()) {
      std::fprintf(stderr, "playtime_bench: forward failed\n");
      std::exit(1);
    }
    const float* legal = planes.data() + kLegalPlane * area;
    MaskedSoftmax(legal, area, p.data());
    MaskedSoftmax(legal, area, q.data());
    for (int i = 0; i < area; ++i) {
      max_policy = std::max<double>(max_policy, std::fabs(p[i] - q[i]));
    }
    same_top += std::max_element(p.begin(), p.end()) - p.begin() ==
                std::max_element(q.begin(), q.end()) - q.begin();
    Evaluation a, b;
    SetWdl(wdl_p, a);
    SetWdl(wdl_q, b);
    max_value = std::max<double>(
        max_value, std::fabs((a.win - a.loss) - (b.win - b.loss)));
  }
  std::printf(
      "play network (%s) against float32 on the %zu positions: largest "
      "move probability difference %.4f, same most likely move %d/%zu, "
      "largest value (win - loss) difference %.4f\n",
      model.precision_name().c_str(), positions.size(), max_policy, same_top,
      positions.size(), max_value);
}

// Best figures over the rounds, by (cores, batch) or by cores.
struct Figures {
  std::map<std::pair<int, int>, double> forward;
  std::map<std::pair<int, int>, double> unfolded;
  std::map<std::pair<int, int>, SearchRate> search;
  std::map<int, double> before;  // the search before issue 29
};

Figures Measure(const Flags& flags, const Model& model,
                const Model& unfolded_model, std::vector<Game>& positions) {
  Figures f;
  auto& [forward, unfolded, search, before] = f;
  for (int round = 0; round < flags.rounds; ++round) {
    for (int cores : flags.cores) {
      PinToCores(cores);
      before[cores] = std::max(
          before[cores], OneSearchRate(unfolded_model, positions, cores, cores,
                                       1, flags.visits, flags.seconds)
                             .playouts_per_s);
      for (int batch : flags.batches) {
        const auto key = std::make_pair(cores, batch);
        forward[key] = std::max(
            forward[key],
            ForwardRate(model, positions, cores, batch, flags.seconds));
        unfolded[key] =
            std::max(unfolded[key], ForwardRate(unfolded_model, positions,
                                                cores, batch, flags.seconds));
        const SearchRate s = OneSearchRate(model, positions, cores,
                                           cores * flags.gatherers_per_core,
                                           batch, flags.visits, flags.seconds);
        if (s.playouts_per_s > search[key].playouts_per_s) search[key] = s;
        std::fprintf(stderr,
                     "round %d/%d, %d core(s), batch %2d: forward %.0f/s, "
                     "search %.0f playouts/s\n",
                     round + 1, flags.rounds, cores, batch, forward[key],
                     search[key].playouts_per_s);
      }
    }
  }

  return f;
}

void PrintTable(const Flags& flags, Figures& figures) {
  const int first = flags.cores[0];
  const double today = figures.before[first];
  std::printf("\nthe search before issue 29 (batch 1, unfolded network): ");
  for (int cores : flags.cores) {
    std::printf("%s%d core(s) %.0f playouts/s", cores == first ? "" : ", ",
                cores, figures.before[cores]);
  }
  std::printf(
      "\n\n| cores | batch | forward pos/s | folded / unfolded | "
      "one search playouts/s | "
      "mean batch | search / forward at batch | search / best "
      "forward | search / batch 1 | search / before (%d core) |\n",
      first);
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (int cores : flags.cores) {
    double best_forward = 0;
    for (int batch : flags.batches) {
      best_forward = std::max(best_forward, figures.forward[{cores, batch}]);
    }
    const double batch_one = figures.search[{cores, 1}].playouts_per_s;
    for (int batch : flags.batches) {
      const double f = figures.forward[{cores, batch}];
      const SearchRate& s = figures.search[{cores, batch}];
      std::printf(
          "| %d | %d | %.0f | %.2f | %.0f | %.1f | %.2f | %.2f | %s | %.2f "
          "|\n",
          cores, batch, f, f / figures.unfolded[{cores, batch}],
          s.playouts_per_s, s.mean_batch, s.playouts_per_s / f,
          s.playouts_per_s / best_forward,
          batch_one > 0
              ? absl::StrFormat("%.2f", s.playouts_per_s / batch_one).c_str()
              : "-",
          s.playouts_per_s / today);
    }
  }
}

int Main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  SetIntraOpThreads(1);
  absl::StatusOr<Precision> precision = PrecisionFromName(flags.precision);
  if (!precision.ok()) Usage(std::string(precision.status().message()));
  std::unique_ptr<Model> model = LoadOrDie(flags.model, *precision, true);
  std::unique_ptr<Model> unfolded_model =
      LoadOrDie(flags.model, Precision::kFloat32, false);
  std::vector<Game> positions = RealPositions();
  const NetworkConfig& net = model->config();
  std::printf(
      "model %s (%d blocks x %d channels), play network in %s, %zu "
      "positions, %lld visits a search, best of %d x %.1f s\n",
      flags.model.c_str(), net.blocks, net.channels,
      model->precision_name().c_str(), positions.size(),
      static_cast<long long>(flags.visits), flags.rounds, flags.seconds);
  PrintDistance(*model, *LoadOrDie(flags.model, Precision::kFloat32, true),
                positions);

  Figures figures = Measure(flags, *model, *unfolded_model, positions);
  PrintTable(flags, figures);
  return 0;
}

}  // namespace
}  // namespace renju

int main(int argc, char** argv) { return renju::Main(argc, argv); }
