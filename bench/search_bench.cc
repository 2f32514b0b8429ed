// Search overhead and VCF solver speed.
//
//   BM_EvaluatorAlone/<evaluator>/threads:N   evaluator calls/s from N threads
//   BM_SearchPlayouts/<evaluator>/threads:N   playouts/s, N games searched at
//                                             once (one Search per thread)
//   BM_SearchPlayoutsGumbel/<evaluator>/...   the same with the Gumbel root
//                                             (16 considered moves)
//   BM_SearchThreads/<evaluator>/<N>          playouts/s of one search on one
//                                             tree with N threads (virtual
//                                             loss), as the engine plays
//   BM_VcfSolver                              solver nodes/s on the puzzle set
//
// The search overhead is BM_SearchPlayouts items_per_second divided by
// BM_EvaluatorAlone items_per_second at the same N (so at the same batch
// size for a batching evaluator); 1.0 means search costs nothing.
// Evaluators come from Evaluators() below: the seeded-random fake and the
// tiny network behind the batched evaluator (one evaluator is shared by all
// threads, so the batching evaluator sees batches of up to N).
//
// Positions: every 6th position of the first games of
// ../shared/data/renju-games.jsonl (real play, so real tactics). The VCF
// puzzle set is every position of the first 200 games, solved for both
// colours.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bench/shared_games.h"
#include "nn/batched_evaluator.h"
#include "nn/model.h"
#include "rules/game.h"
#include "search/fake_evaluators.h"
#include "search/search.h"
#include "search/vcf.h"

namespace renju {
namespace {

constexpr int kSearchVisits = 200;

struct EvaluatorFactory {
  const char* name;
  std::function<std::unique_ptr<Evaluator>()> make;
};

// The tiny network (fresh weights: the cost is the same) behind the batched
// evaluator in the setting nn_bench found best on two cores: two server
// threads with one intra-op thread each.
std::unique_ptr<Evaluator> TinyNetworkEvaluator() {
  SetIntraOpThreads(1);
  std::vector<std::unique_ptr<Model>> models;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<std::unique_ptr<Model>> model =
        Model::Create(TinyNetworkConfig(), ModelOptions{"cpu"}, 1);
    if (!model.ok()) std::exit(1);
    models.push_back(std::move(*model));
  }
  BatchedEvaluatorOptions options;
  options.max_batch_size = 32;
  options.max_wait_us = 1000;
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(std::move(models), options);
  if (!evaluator.ok()) std::exit(1);
  return std::move(*evaluator);
}

const std::vector<EvaluatorFactory>& Evaluators() {
  static const auto* factories = new std::vector<EvaluatorFactory>{
      {"random", [] { return std::make_unique<RandomEvaluator>(1); }},
      {"tiny-net", TinyNetworkEvaluator},
  };
  return *factories;
}

// Unfinished positions from the first `num_games` games, every `step`th.
std::vector<Game> LoadPositions(int num_games, int step) {
  std::vector<Game> out;
  absl::StatusOr<std::vector<std::vector<Move>>> games =
      LoadSharedGames(num_games);
  if (games.ok()) {
    for (const std::vector<Move>& moves : *games) {
      Game game;
      int ply = 0;
      for (Move m : moves) {
        if (!game.Play(m).ok() || game.over()) break;
        if (++ply % step == 0) out.push_back(game);
      }
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "no positions in %s\n", SharedGamesPath().c_str());
    std::exit(1);
  }
  return out;
}

const std::vector<Game>& SearchPositions() {
  static const auto* positions = new std::vector<Game>(LoadPositions(40, 6));
  return *positions;
}

const std::vector<Game>& VcfPuzzles() {
  static const auto* positions = new std::vector<Game>(LoadPositions(200, 1));
  return *positions;
}

// One evaluator per factory, shared by all threads as in self-play.
Evaluator& SharedEvaluator(int index) {
  static auto* evaluators = new std::vector<std::unique_ptr<Evaluator>>();
  static std::once_flag once;
  std::call_once(once, [] {
    for (const EvaluatorFactory& f : Evaluators()) {
      evaluators->push_back(f.make());
    }
  });
  return *(*evaluators)[index];
}

void BM_EvaluatorAlone(benchmark::State& state, int evaluator_index) {
  Evaluator& evaluator = SharedEvaluator(evaluator_index);
  std::vector<Game> positions = SearchPositions();  // per-thread copies
  Evaluation eval;
  size_t i = state.thread_index();
  for (auto _ : state) {
    Game& game = positions[i++ % positions.size()];
    if (!evaluator.Evaluate(game, eval).ok()) state.SkipWithError("evaluate");
  }
  state.SetItemsProcessed(state.iterations());
}

// Searches the positions in turn, one Search each, and reports playouts/s.
void SearchPositionsInTurn(benchmark::State& state, Evaluator& evaluator,
                           const SearchParams& params, Random& rng,
                           size_t first) {
  const std::vector<Game>& positions = SearchPositions();
  size_t i = first;
  int64_t playouts = 0;
  for (auto _ : state) {
    Search search(params, evaluator, positions[i++ % positions.size()]);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    if (!r.ok()) {
      state.SkipWithError("search failed");
      break;
    }
    playouts += r->playouts;
  }
  state.SetItemsProcessed(playouts);
}

void BM_SearchPlayouts(benchmark::State& state, int evaluator_index,
                       bool gumbel) {
  SearchParams params;
  params.max_visits = kSearchVisits;
  params.gumbel_root = gumbel;
  Random rng(1, state.thread_index());
  SearchPositionsInTurn(state, SharedEvaluator(evaluator_index), params, rng,
                        state.thread_index());
}

// One game at a time, searched by state.range(0) threads on one tree: the
// Gomocup engine's INFO thread_num and the server's search.threads.
void BM_SearchThreads(benchmark::State& state, int evaluator_index) {
  SearchParams params;
  params.max_visits = 4 * kSearchVisits;
  params.num_threads = static_cast<int>(state.range(0));
  Random rng(1);
  SearchPositionsInTurn(state, SharedEvaluator(evaluator_index), params, rng,
                        0);
}

void BM_VcfSolver(benchmark::State& state) {
  std::vector<Game> puzzles = VcfPuzzles();
  VcfSolver solver;
  const VcfLimits limits{static_cast<int64_t>(state.range(0)), 30};
  int64_t nodes = 0;
  int64_t wins = 0;
  for (auto _ : state) {
    wins = 0;
    for (Game& game : puzzles) {
      for (Color attacker : {Color::kBlack, Color::kWhite}) {
        const VcfResult r =
            solver.Solve(game.mutable_board(), attacker, limits);
        nodes += r.nodes;
        wins += r.outcome == VcfOutcome::kWin;
      }
    }
  }
  state.SetItemsProcessed(nodes);
  state.counters["puzzles"] = 2.0 * puzzles.size();
  state.counters["wins"] = static_cast<double>(wins);
}
BENCHMARK(BM_VcfSolver)->Arg(500)->Arg(20000)->Unit(benchmark::kMillisecond);

void RegisterEvaluatorBenchmarks() {
  for (int i = 0; i < static_cast<int>(Evaluators().size()); ++i) {
    const std::string name = Evaluators()[i].name;
    for (int threads : {1, 4, 16, 64}) {
      benchmark::RegisterBenchmark(("BM_EvaluatorAlone/" + name).c_str(),
                                   BM_EvaluatorAlone, i)
          ->Threads(threads)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("BM_SearchPlayouts/" + name).c_str(),
                                   BM_SearchPlayouts, i, false)
          ->Threads(threads)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("BM_SearchThreads/" + name).c_str(),
                                 BM_SearchThreads, i)
        ->Arg(1)
        ->Arg(2)
        ->Arg(4)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    // One game and many: the root's own cost, and batching.
    for (int threads : {1, 16}) {
      benchmark::RegisterBenchmark(("BM_SearchPlayoutsGumbel/" + name).c_str(),
                                   BM_SearchPlayouts, i, true)
          ->Threads(threads)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace renju

int main(int argc, char** argv) {
  renju::RegisterEvaluatorBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
