// Trainer throughput (BENCHMARKS.md):
//   BM_TrainStep   full training steps (a batch sampled from a replay window
//                  of self-play-like renju games under random symmetries and
//                  encoded, forward, losses, backward, SGD step) in samples/s,
//                  against the raw forward+backward of the same net at the
//                  same batch size (one pre-encoded batch, a trivial loss, no
//                  optimizer). `ratio` = train / raw (target >= 0.8);
//                  `assembly_share` = the part of a step spent sampling and
//                  encoding the batch.
//   BM_TrainSwitches  training samples/s (sampling included) with each
//                  learning switch against none, in alternating windows:
//                  `aux_ratio` with the auxiliary heads and their targets,
//                  `ema_ratio` with the weight average (ema_decay 0.999).
//   BM_Ingest      games/s through what an upload costs the trainer:
//                  ValidateGameRecord, serialising, GameStore::AddGames
//                  (committed, uploads of 8 games, a SQLite file in /tmp);
//                  and games/s into the replay window (parse, validate,
//                  compact).
// The machine is shared, so each rate is the best of several windows, and
// comes per wall-clock second (`*_per_s`) and per second of this process's
// CPU time (`*_cpu`).
// Run: build/bench/train_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "nn/model.h"
#include "nn/network.h"
#include "rpc/game_record.h"
#include "tests/trainer/synthetic_games.h"
#include "trainer/game_store.h"
#include "trainer/network_trainer.h"
#include "trainer/replay_window.h"

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

struct Rate {
  double wall = 0;
  double cpu = 0;
  void KeepBest(double items, double wall_s, double cpu_s) {
    wall = std::max(wall, items / wall_s);
    cpu = std::max(cpu, items / cpu_s);
  }
};

// Runs `once` (which handles `items` items) for at least `seconds`, in
// each of `windows` windows, alternating with nothing; returns the best.
template <typename Fn>
void Measure(Fn&& once, double items, double seconds, Rate& rate) {
  const double cpu_start = ProcessCpuSeconds();
  const Clock::time_point start = Clock::now();
  int64_t rounds = 0;
  do {
    once();
    ++rounds;
  } while (Since(start) < seconds);
  rate.KeepBest(items * rounds, Since(start), ProcessCpuSeconds() - cpu_start);
}

testing::SyntheticGameOptions RenjuGames() {
  testing::SyntheticGameOptions o;
  o.max_plies = 100;
  o.full_search_probability = 0.25;  // KataGo's playout-cap share
  o.policy_points = 12;
  return o;
}

const ReplayWindow* MakeWindow(bool aux_targets) {
  WindowParams params;
  params.aux_targets = aux_targets;
  auto* w = new ReplayWindow(kRenjuBoardSize, params, 1);
  for (int i = 0; i < 100; ++i) {
    RENJU_CHECK(
        w->AddGame(i + 1, testing::SyntheticGame(i, RenjuGames())).ok());
  }
  return w;
}

// The same games, with or without the auxiliary targets.
const ReplayWindow& Window(bool aux_targets = false) {
  static const ReplayWindow* plain = MakeWindow(false);
  static const ReplayWindow* aux = MakeWindow(true);
  return aux_targets ? *aux : *plain;
}

// As TrainingLoopOptions' default.
constexpr int kSamplingThreads = 2;

NetworkConfig ConfigFor(int64_t size_index) {
  return size_index == 0 ? TinyNetworkConfig() : MediumNetworkConfig();
}

// Args: net (0 tiny 4x32, 1 medium 10x96), batch, LibTorch intra-op
// threads. Alternates raw and training windows, keeping the best of each.
void BM_TrainStep(benchmark::State& state) {
  SetIntraOpThreads(static_cast<int>(state.range(2)));
  const NetworkConfig config = ConfigFor(state.range(0));
  const int batch_size = static_cast<int>(state.range(1));
  const double seconds = state.range(0) == 0 ? 1.0 : 3.0;
  TrainingOptions options;
  options.device = "cpu";
  auto trainer = NetworkTrainer::Create(config, options, 1);
  RENJU_CHECK(trainer.ok()) << trainer.status();
  torch::manual_seed(1);
  PolicyValueNet raw(config);
  raw->train();
  const ReplayWindow& window = Window();
  uint64_t seed = 1;
  TrainingBatch batch;
  window.Sample(batch_size, seed, batch);
  const torch::Tensor x =
      torch::from_blob(batch.planes.data(), {batch_size, kNumInputPlanesV1,
                                             kRenjuBoardSize, kRenjuBoardSize})
          .clone();

  Rate raw_rate, train_rate, sample_rate;
  for (auto _ : state) {
    for (int w = 0; w < 3; ++w) {
      Measure(
          [&] {
            raw->zero_grad();
            auto [policy, wdl] = raw->forward(x);
            (policy.mean() + wdl.mean()).backward();
          },
          batch_size, seconds, raw_rate);
      Measure(
          [&] {
            window.Sample(batch_size, ++seed, batch, kSamplingThreads);
            RENJU_CHECK((*trainer)->Step(batch).ok());
          },
          batch_size, seconds, train_rate);
      Measure(
          [&] { window.Sample(batch_size, ++seed, batch, kSamplingThreads); },
          batch_size, 0.3, sample_rate);
    }
  }
  state.counters["raw_per_s"] = raw_rate.wall;
  state.counters["train_per_s"] = train_rate.wall;
  state.counters["ratio"] = train_rate.wall / raw_rate.wall;
  state.counters["raw_cpu"] = raw_rate.cpu;
  state.counters["train_cpu"] = train_rate.cpu;
  state.counters["cpu_ratio"] = train_rate.cpu / raw_rate.cpu;
  state.counters["sample_per_s"] = sample_rate.wall;
  state.counters["assembly_share"] = train_rate.wall / sample_rate.wall;
  state.SetLabel(state.range(0) == 0 ? "tiny" : "medium");
}
BENCHMARK(BM_TrainStep)
    ->ArgNames({"net", "batch", "intra"})
    ->ArgsProduct({{0}, {64, 256}, {1, 2}})
    ->Args({1, 128, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Args: net (0 tiny, 1 medium), batch, LibTorch intra-op threads.
void BM_TrainSwitches(benchmark::State& state) {
  SetIntraOpThreads(static_cast<int>(state.range(2)));
  const NetworkConfig config = ConfigFor(state.range(0));
  const int batch_size = static_cast<int>(state.range(1));
  const double seconds = state.range(0) == 0 ? 1.0 : 3.0;
  NetworkConfig aux_config = config;
  aux_config.aux_heads = true;
  TrainingOptions options;
  options.device = "cpu";
  TrainingOptions averaging = options;
  averaging.ema_decay = 0.999;
  struct Case {
    std::unique_ptr<NetworkTrainer> trainer;
    const ReplayWindow* window;
    Rate rate;
  };
  Case cases[3];  // plain, aux heads, average
  const std::pair<const NetworkConfig*, const TrainingOptions*> setups[3] = {
      {&config, &options}, {&aux_config, &options}, {&config, &averaging}};
  for (int i = 0; i < 3; ++i) {
    auto trainer =
        NetworkTrainer::Create(*setups[i].first, *setups[i].second, 1);
    RENJU_CHECK(trainer.ok()) << trainer.status();
    cases[i].trainer = *std::move(trainer);
    cases[i].window = &Window(i == 1);
  }
  uint64_t seed = 1;
  TrainingBatch batch;
  for (auto _ : state) {
    for (int w = 0; w < 3; ++w) {
      for (Case& c : cases) {
        Measure(
            [&] {
              c.window->Sample(batch_size, ++seed, batch, kSamplingThreads);
              RENJU_CHECK(c.trainer->Step(batch).ok());
            },
            batch_size, seconds, c.rate);
      }
    }
  }
  state.counters["plain_per_s"] = cases[0].rate.wall;
  state.counters["aux_per_s"] = cases[1].rate.wall;
  state.counters["ema_per_s"] = cases[2].rate.wall;
  state.counters["aux_ratio"] = cases[1].rate.wall / cases[0].rate.wall;
  state.counters["ema_ratio"] = cases[2].rate.wall / cases[0].rate.wall;
  state.counters["aux_cpu_ratio"] = cases[1].rate.cpu / cases[0].rate.cpu;
  state.counters["ema_cpu_ratio"] = cases[2].rate.cpu / cases[0].rate.cpu;
  state.SetLabel(state.range(0) == 0 ? "tiny" : "medium");
}
BENCHMARK(BM_TrainSwitches)
    ->ArgNames({"net", "batch", "intra"})
    ->Args({0, 256, 1})
    ->Args({1, 128, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

void BM_Ingest(benchmark::State& state) {
  constexpr int kGames = 64;
  constexpr int kUpload = 8;
  std::vector<pb::GameRecord> games;
  for (int i = 0; i < kGames; ++i) {
    games.push_back(testing::SyntheticGame(1000 + i, RenjuGames()));
  }
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("renju_train_bench_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto store = GameStore::Open((dir / "store.sqlite").string());
  RENJU_CHECK(store.ok()) << store.status();

  int64_t uid = 0;
  Rate store_rate, window_rate;
  int64_t plies = 0;
  for (const pb::GameRecord& g : games) plies += g.plies_size();
  for (auto _ : state) {
    for (int w = 0; w < 3; ++w) {
      Measure(
          [&] {
            for (int first = 0; first < kGames; first += kUpload) {
              std::vector<IncomingGame> upload;
              for (int i = first; i < first + kUpload; ++i) {
                pb::GameRecord record = games[i];
                record.set_uid(absl::StrCat("bench-", ++uid));
                RENJU_CHECK(ValidateGameRecord(record).ok());
                IncomingGame in;
                in.uid = record.uid();
                in.num_positions = NumTrainingPositions(record);
                in.record = record.SerializeAsString();
                upload.push_back(std::move(in));
              }
              RENJU_CHECK((*store)->AddGames("bench", upload).ok());
            }
          },
          kGames, 2.0, store_rate);
      std::vector<std::string> serialized;
      for (const pb::GameRecord& g : games)
        serialized.push_back(g.SerializeAsString());
      Measure(
          [&] {
            ReplayWindow window(kRenjuBoardSize, WindowParams{}, 1);
            for (int i = 0; i < kGames; ++i) {
              RENJU_CHECK(window.AddGame(i + 1, serialized[i]).ok());
            }
          },
          kGames, 1.0, window_rate);
    }
  }
  store.value().reset();
  std::filesystem::remove_all(dir);
  state.counters["store_games_per_s"] = store_rate.wall;
  state.counters["store_games_cpu"] = store_rate.cpu;
  state.counters["window_games_per_s"] = window_rate.wall;
  state.counters["plies_per_game"] = static_cast<double>(plies) / kGames;
}
BENCHMARK(BM_Ingest)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace renju

BENCHMARK_MAIN();
