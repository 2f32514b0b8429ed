// The VCT solver on the VCT puzzle set (vct_puzzle_set.h):
//
//   BM_VctPuzzles/<ms>   every puzzle solved once with <ms> of wall time,
//                        at the set's depth and no node limit
//
// Counters: solved (the label's verdict reached: a win found on a "win"
// puzzle, no VCT proven on a "none" puzzle), wins_found, nones_proven,
// wrong (the opposite verdict; always 0 unless the solver is broken) and
// total. Wall time, so a loaded machine solves fewer.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "bench/vct_puzzle_set.h"
#include "search/vct.h"

namespace renju {
namespace {

VctPuzzleSet& Puzzles() {
  static VctPuzzleSet* set = [] {
    absl::StatusOr<VctPuzzleSet> loaded =
        LoadVctPuzzles(DefaultVctPuzzlePath());
    if (!loaded.ok()) {
      std::fprintf(stderr, "vct_bench: %s\n",
                   loaded.status().ToString().c_str());
      std::exit(1);
    }
    return new VctPuzzleSet(std::move(*loaded));
  }();
  return *set;
}

void BM_VctPuzzles(benchmark::State& state) {
  VctPuzzleSet& set = Puzzles();
  VctSolver solver;
  const VctLimits limits{int64_t{1} << 40, set.depth, state.range(0)};
  int64_t wins_found = 0, nones_proven = 0, wrong = 0, nodes = 0;
  for (auto _ : state) {
    wins_found = nones_proven = wrong = 0;
    for (VctPuzzle& p : set.puzzles) {
      Game& game = p.position;
      const VctResult r =
          solver.Solve(game.mutable_board(), game.side_to_move(), limits);
      nodes += r.nodes;
      if (r.outcome == VctOutcome::kWin) ++(p.win ? wins_found : wrong);
      if (r.outcome == VctOutcome::kNoWin) ++(p.win ? wrong : nones_proven);
    }
  }
  state.SetItemsProcessed(nodes);
  state.counters["solved"] = static_cast<double>(wins_found + nones_proven);
  state.counters["wins_found"] = static_cast<double>(wins_found);
  state.counters["nones_proven"] = static_cast<double>(nones_proven);
  state.counters["wrong"] = static_cast<double>(wrong);
  state.counters["total"] = static_cast<double>(set.puzzles.size());
}
BENCHMARK(BM_VctPuzzles)
    ->Arg(100)
    ->Arg(1000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace renju

BENCHMARK_MAIN();
