// Network and evaluator throughput (BENCHMARKS.md):
//   BM_Forward          raw Model::Forward positions/s by net size, batch
//                       size, forward threads and LibTorch intra-op threads
//   BM_Evaluator        BatchedEvaluator positions/s with 64 submitting
//                       threads, by server threads, intra-op threads, batch
//                       limit and wait. `ratio` is that over raw forwards at
//                       its mean batch size with the same threads (one
//                       forward thread per server); `ratio_best` over the
//                       best raw forward this machine gives at that batch
//                       size with any thread setting.
// The development machine is shared, so each rate is the best of several
// windows (other processes only ever slow a window down), and each comes
// twice: per wall-clock second (`*_per_s`, ratios `ratio*`) and per second
// of this process's CPU time (`*_cpu`, ratios `cpu_ratio*`), which other
// processes barely disturb and which counts every overhead the evaluator
// adds: encoding, queueing, waking, masking.
//   BM_Encode           EncodePosition on a renju middle game, by encoding
//                       version and position (0: 40 random moves, 1: 40
//                       moves clustered as in real games, with threats)
//   BM_SymmetryReplay   the symmetry wrapper's cost without the network
// Run: build/bench/nn_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "base/logging.h"
#include "nn/batched_evaluator.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/symmetry_evaluator.h"

namespace renju {
namespace {

using Clock = std::chrono::steady_clock;

double ProcessCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Positions per wall-clock second and per process CPU second.
struct Rate {
  double wall = 0;
  double cpu = 0;

  void KeepBest(int64_t positions, double wall_s, double cpu_s) {
    wall = std::max(wall, positions / wall_s);
    cpu = std::max(cpu, positions / cpu_s);
  }
};

NetworkConfig ConfigFor(int64_t size_index) {
  return size_index == 0 ? TinyNetworkConfig() : MediumNetworkConfig();
}

std::unique_ptr<Model> MakeModel(int64_t size_index) {
  ModelOptions options;
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(ConfigFor(size_index), options, 1);
  RENJU_CHECK(model.ok()) << model.status();
  return *std::move(model);
}

// A renju middle game after `plies` seeded random legal moves.
Game RandomGame(uint32_t seed, int plies) {
  std::mt19937 rng(seed);
  Game game(Variant::kRenju, kRenjuBoardSize);
  while (game.ply() < plies && !game.over()) {
    std::vector<Point> legal = game.LegalPoints();
    RENJU_CHECK(game.Play(Move::At(legal[rng() % legal.size()])).ok());
  }
  if (game.over()) game.Undo();
  return game;
}

std::vector<float> EncodedBatch(const Model& model, int batch) {
  std::vector<float> planes(static_cast<size_t>(batch) * model.input_floats());
  for (int i = 0; i < batch; ++i) {
    Game game = RandomGame(i, 10 + i % 30);
    EncodePosition(
        game, model.config().encoding_version,
        planes.data() + static_cast<size_t>(i) * model.input_floats());
  }
  return planes;
}

// `models.size()` threads each running raw forwards at `batch` on its own
// model with `intra` intra-op threads: the best of `windows` windows.
Rate RawForwardRate(const std::vector<Model*>& models, int batch, int intra,
                    double seconds, int windows) {
  SetIntraOpThreads(intra);
  std::vector<float> planes = EncodedBatch(*models[0], batch);
  Rate rate;
  for (int w = 0; w < windows; ++w) {
    std::atomic<int64_t> positions{0};
    std::vector<std::thread> threads;
    const double cpu_start = ProcessCpuSeconds();
    const Clock::time_point start = Clock::now();
    for (Model* model : models) {
      threads.emplace_back([&, model] {
        std::vector<float> policy(static_cast<size_t>(batch) *
                                  model->policy_size());
        std::vector<float> wdl(static_cast<size_t>(batch) * 3);
        while (Since(start) < seconds) {
          RENJU_CHECK(
              model->Forward(planes.data(), batch, policy.data(), wdl.data())
                  .ok());
          positions += batch;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    rate.KeepBest(positions, Since(start), ProcessCpuSeconds() - cpu_start);
  }
  return rate;
}

// Args: net size (0 tiny, 1 medium), batch, forward threads (each with its
// own model), intra-op threads. The best of five 0.3 s windows.
void BM_Forward(benchmark::State& state) {
  std::unique_ptr<Model> model = MakeModel(state.range(0));
  std::vector<std::unique_ptr<Model>> models;
  std::vector<Model*> ptrs;
  for (int i = 0; i < state.range(2); ++i) {
    models.push_back(*model->Clone());
    ptrs.push_back(models.back().get());
  }
  Rate rate;
  for (auto _ : state) {
    rate = RawForwardRate(ptrs, state.range(1), state.range(3), 0.3, 5);
  }
  state.counters["pos_per_s"] = rate.wall;
  state.counters["pos_cpu"] = rate.cpu;
  state.SetLabel(state.range(0) == 0 ? "tiny" : "medium");
}
BENCHMARK(BM_Forward)
    ->ArgNames({"net", "batch", "threads", "intra"})
    ->ArgsProduct({{0, 1}, {1, 8, 32, 128}, {1}, {1, 2}})
    ->ArgsProduct({{0, 1}, {1, 8, 32, 128}, {2}, {1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

constexpr int kSubmitters = 64;

// Each of `submitters` threads evaluates its own two positions in turn,
// `evals_per_thread` times; timed from release to the last result.
void RunSubmitters(BatchedEvaluator& evaluator, int evals_per_thread,
                   Rate& rate, int submitters = kSubmitters) {
  absl::Notification start;
  std::vector<std::thread> threads;
  for (int t = 0; t < submitters; ++t) {
    threads.emplace_back([&, t] {
      Game games[2] = {RandomGame(1000 + 2 * t, 12 + t % 20),
                       RandomGame(1001 + 2 * t, 20 + t % 20)};
      Evaluation out;
      start.WaitForNotification();
      for (int i = 0; i < evals_per_thread; ++i) {
        RENJU_CHECK(evaluator.Evaluate(games[i % 2], out).ok());
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // all ready
  const double cpu_start = ProcessCpuSeconds();
  const Clock::time_point begin = Clock::now();
  start.Notify();
  for (std::thread& t : threads) t.join();
  rate.KeepBest(int64_t{submitters} * evals_per_thread, Since(begin),
                ProcessCpuSeconds() - cpu_start);
}

std::unique_ptr<BatchedEvaluator> MakeEvaluator(const Model& model, int servers,
                                                int max_batch,
                                                int max_wait_us) {
  std::vector<std::unique_ptr<Model>> models;
  for (int i = 0; i < servers; ++i) models.push_back(*model.Clone());
  BatchedEvaluatorOptions options;
  options.max_batch_size = max_batch;
  options.max_wait_us = max_wait_us;
  auto evaluator = BatchedEvaluator::Create(std::move(models), options);
  RENJU_CHECK(evaluator.ok()) << evaluator.status();
  return *std::move(evaluator);
}

// Raw forwards at `batch` with `servers` threads of `intra` threads each,
// and the best of that and every setting this 2-core machine suggests: one
// thread with one or two intra-op threads, two threads with one each.
void RawBaselines(const Model& model, int batch, int servers, int intra,
                  Rate& same, Rate& best) {
  std::vector<std::unique_ptr<Model>> models;
  std::vector<Model*> ptrs;
  for (int i = 0; i < std::max(servers, 2); ++i) {
    models.push_back(*model.Clone());
    ptrs.push_back(models.back().get());
  }
  const std::vector<Model*> one = {ptrs[0]};
  const std::vector<Model*> two = {ptrs[0], ptrs[1]};
  same =
      RawForwardRate(std::vector<Model*>(ptrs.begin(), ptrs.begin() + servers),
                     batch, intra, 0.3, 5);
  best = same;
  for (const Rate& r : {RawForwardRate(one, batch, 1, 0.3, 5),
                        RawForwardRate(one, batch, 2, 0.3, 5),
                        RawForwardRate(two, batch, 1, 0.3, 5)}) {
    best.wall = std::max(best.wall, r.wall);
    best.cpu = std::max(best.cpu, r.cpu);
  }
}

// Args: net size, server threads, intra-op threads, max batch, max wait us.
void BM_Evaluator(benchmark::State& state) {
  const int servers = state.range(1);
  const int intra = state.range(2);
  SetIntraOpThreads(intra);
  std::unique_ptr<Model> model = MakeModel(state.range(0));
  std::unique_ptr<BatchedEvaluator> evaluator =
      MakeEvaluator(*model, servers, state.range(3), state.range(4));
  Rate warm_up;
  RunSubmitters(*evaluator, 2, warm_up);

  const BatchedEvaluatorStats before = evaluator->stats();
  Rate rate;
  const int evals_per_thread = state.range(0) == 0 ? 24 : 4;
  for (auto _ : state) RunSubmitters(*evaluator, evals_per_thread, rate);
  const BatchedEvaluatorStats after = evaluator->stats();
  evaluator->Shutdown();
  const double mean_batch =
      static_cast<double>(after.positions - before.positions) /
      (after.batches - before.batches);

  Rate same;
  Rate best;
  RawBaselines(*model, std::max(1, static_cast<int>(std::lround(mean_batch))),
               servers, intra, same, best);
  state.counters["mean_batch"] = mean_batch;
  state.counters["eval_per_s"] = rate.wall;
  state.counters["eval_cpu"] = rate.cpu;
  state.counters["raw_per_s"] = same.wall;
  state.counters["raw_cpu"] = same.cpu;
  state.counters["ratio"] = rate.wall / same.wall;
  state.counters["ratio_best"] = rate.wall / best.wall;
  state.counters["cpu_ratio"] = rate.cpu / same.cpu;
  state.counters["cpu_ratio_best"] = rate.cpu / best.cpu;
  state.counters["wait_us"] = after.mean_queue_wait_us;  // warm-up included
}
BENCHMARK(BM_Evaluator)
    ->ArgNames({"net", "servers", "intra", "max_batch", "wait_us"})
    ->Args({0, 1, 1, 32, 2000})
    ->Args({0, 1, 1, 64, 2000})
    ->Args({0, 1, 2, 64, 2000})
    ->Args({0, 2, 1, 32, 2000})
    ->Args({0, 2, 1, 64, 2000})
    ->Args({0, 2, 2, 32, 2000})
    ->Args({0, 2, 1, 16, 2000})
    ->Args({0, 3, 1, 16, 2000})
    ->Args({1, 1, 1, 32, 5000})
    ->Args({1, 2, 1, 32, 5000})
    ->Iterations(5)
    ->Unit(benchmark::kSecond);

// ---- GPU (each benchmark reports an error and skips without CUDA) ----
// The figures for a GPU host (BENCHMARKS.md, "GPU"): tools/gpu_check.sh runs
// them with --benchmark_filter=Cuda.

// A KataGo b20c256-sized tower: what a GPU trains and serves.
NetworkConfig LargeNetworkConfig() {
  NetworkConfig c;
  c.blocks = 20;
  c.channels = 256;
  c.global_pool_every = 3;
  c.global_pool_channels = 64;
  c.policy_channels = 48;
  c.value_channels = 48;
  c.value_hidden = 256;
  return c;
}

const char* NetName(int64_t net) {
  return net == 0 ? "tiny" : net == 1 ? "medium" : "large";
}

const char* PrecisionName(int64_t precision) {
  return precision == 0 ? "fp32" : precision == 1 ? "fp16" : "bf16";
}

// Net 0 tiny, 1 medium (10x96), 2 large (20x256); precision as Precision.
std::unique_ptr<Model> MakeCudaModel(int64_t net, int64_t precision) {
  ModelOptions options;
  options.device = "cuda";
  options.precision = static_cast<Precision>(precision);
  const NetworkConfig config = net == 0   ? TinyNetworkConfig()
                               : net == 1 ? MediumNetworkConfig()
                                          : LargeNetworkConfig();
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(config, options, 1);
  RENJU_CHECK(model.ok()) << model.status();
  return *std::move(model);
}

// Args: net, precision, batch. Positions/s of Model::Forward on the GPU,
// host-to-device copy of the planes and device-to-host copy of the logits
// included (that is what the evaluator pays): the best of three 0.5 s
// windows after a warm-up (cuDNN picks its algorithms on the first calls).
void BM_ForwardCuda(benchmark::State& state) {
  if (!CudaAvailable()) {
    state.SkipWithError("no CUDA in this LibTorch or no GPU visible");
    return;
  }
  std::unique_ptr<Model> model = MakeCudaModel(state.range(0), state.range(1));
  const int batch = state.range(2);
  std::vector<float> planes = EncodedBatch(*model, batch);
  std::vector<float> policy(static_cast<size_t>(batch) * model->policy_size());
  std::vector<float> wdl(static_cast<size_t>(batch) * 3);
  for (int i = 0; i < 5; ++i) {
    RENJU_CHECK(
        model->Forward(planes.data(), batch, policy.data(), wdl.data()).ok());
  }
  double best = 0;
  double best_ms = 0;
  for (auto _ : state) {
    for (int w = 0; w < 3; ++w) {
      int64_t positions = 0;
      int64_t forwards = 0;
      const Clock::time_point start = Clock::now();
      while (Since(start) < 0.5) {
        RENJU_CHECK(
            model->Forward(planes.data(), batch, policy.data(), wdl.data())
                .ok());
        positions += batch;
        ++forwards;
      }
      const double seconds = Since(start);
      if (positions / seconds > best) {
        best = positions / seconds;
        best_ms = 1e3 * seconds / forwards;
      }
    }
  }
  state.counters["pos_per_s"] = best;
  state.counters["ms_per_forward"] = best_ms;
  state.SetLabel(absl::StrCat(NetName(state.range(0)), " ",
                              PrecisionName(state.range(1))));
}
BENCHMARK(BM_ForwardCuda)
    ->ArgNames({"net", "precision", "batch"})
    ->ArgsProduct({{0, 1, 2}, {0, 2, 1}, {32, 128, 256, 512, 1024}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Args: net, precision, server threads (each with its own copy of the model
// on the one GPU), submitting threads, max batch. The evaluator fed by many
// threads, as a GPU self-play worker or server feeds it, against raw
// forwards at its mean batch size on one thread.
void BM_EvaluatorCuda(benchmark::State& state) {
  if (!CudaAvailable()) {
    state.SkipWithError("no CUDA in this LibTorch or no GPU visible");
    return;
  }
  std::unique_ptr<Model> model = MakeCudaModel(state.range(0), state.range(1));
  const int submitters = state.range(3);
  std::unique_ptr<BatchedEvaluator> evaluator =
      MakeEvaluator(*model, state.range(2), state.range(4), 1000);
  Rate warm_up;
  RunSubmitters(*evaluator, 4, warm_up, submitters);
  const BatchedEvaluatorStats before = evaluator->stats();
  Rate rate;
  for (auto _ : state) RunSubmitters(*evaluator, 40, rate, submitters);
  const BatchedEvaluatorStats after = evaluator->stats();
  evaluator->Shutdown();
  const double mean_batch =
      static_cast<double>(after.positions - before.positions) /
      (after.batches - before.batches);
  std::vector<Model*> one = {model.get()};
  const Rate raw = RawForwardRate(
      one, std::max(1, static_cast<int>(std::lround(mean_batch))), 1, 0.5, 3);
  state.counters["mean_batch"] = mean_batch;
  state.counters["eval_per_s"] = rate.wall;
  state.counters["raw_per_s"] = raw.wall;
  state.counters["ratio"] = rate.wall / raw.wall;
  state.counters["wait_us"] = after.mean_queue_wait_us;
  state.SetLabel(absl::StrCat(NetName(state.range(0)), " ",
                              PrecisionName(state.range(1))));
}
BENCHMARK(BM_EvaluatorCuda)
    ->ArgNames({"net", "precision", "servers", "submitters", "max_batch"})
    ->ArgsProduct({{1, 2}, {0, 2}, {1, 2}, {512}, {256}})
    ->Args({2, 2, 2, 1024, 512})
    ->Iterations(3)
    ->Unit(benchmark::kSecond);

// A renju game after `plies` seeded random legal moves, each within two
// points of an earlier stone (the first on h8): stones cluster as in real
// games, so there are threes and fours for version 2 to find.
Game ClusteredGame(uint32_t seed, int plies) {
  std::mt19937 rng(seed);
  Game game(Variant::kRenju, kRenjuBoardSize);
  RENJU_CHECK(game.Play(Move::At(Point(7, 7))).ok());
  while (game.ply() < plies && !game.over()) {
    std::vector<Point> near;
    for (Point p : game.LegalPoints()) {
      bool close = false;
      for (int dy = -2; dy <= 2 && !close; ++dy) {
        for (int dx = -2; dx <= 2 && !close; ++dx) {
          const Point q(p.x + dx, p.y + dy);
          close = q.OnBoard(game.size()) && !game.board().IsEmpty(q);
        }
      }
      if (close) near.push_back(p);
    }
    RENJU_CHECK(game.Play(Move::At(near[rng() % near.size()])).ok());
  }
  if (game.over()) game.Undo();
  return game;
}

// Args: encoding version, position (0 random, 1 clustered).
void BM_Encode(benchmark::State& state) {
  const int version = static_cast<int>(state.range(0));
  Game game = state.range(1) == 0 ? RandomGame(7, 40) : ClusteredGame(7, 40);
  std::vector<float> planes(EncodedSize(game.size(), version));
  for (auto _ : state) {
    EncodePosition(game, version, planes.data());
    benchmark::DoNotOptimize(planes.data());
  }
  state.SetItemsProcessed(state.iterations());
  if (version == 2) {
    const int area = game.size() * game.size();
    int threats = 0;
    for (int i = kOwnFivePlane * area; i < kNumInputPlanesV2 * area; ++i) {
      threats += planes[i] == 1.0f;
    }
    state.counters["threat_points"] = threats;
  }
}
BENCHMARK(BM_Encode)
    ->ArgNames({"version", "position"})
    ->ArgsProduct({{1, 2}, {0, 1}});

// The symmetry wrapper around an evaluator that does nothing: the cost of
// replaying the game under a symmetry and mapping the policy back.
class NullEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    out.policy.assign(game.size() * game.size(), 0.0f);
    return absl::OkStatus();
  }
};

void BM_SymmetryReplay(benchmark::State& state) {
  Game game = RandomGame(7, state.range(0));
  NullEvaluator inner;
  SymmetryOptions options;
  options.random = false;
  options.fixed = 5;
  SymmetryEvaluator evaluator(inner, options);
  Evaluation out;
  for (auto _ : state) {
    RENJU_CHECK(evaluator.Evaluate(game, out).ok());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SymmetryReplay)->Arg(20)->Arg(60);

}  // namespace
}  // namespace renju

BENCHMARK_MAIN();
