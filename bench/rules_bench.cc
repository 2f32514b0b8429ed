// Rules-core benchmarks (issue 2 targets on the 2-core dev machine):
//   BM_ForbiddenPointsPublic  all forbidden points of a position, averaged
//                             over the 1,203 public positions  (<= 10 us)
//   BM_LabelPublicFromMoves   replay + label all 1,203 positions (<= 60 ms)
//   BM_RandomGames            random games, every black move checked for
//                             forbidden                  (>= 500,000 moves/s)
//   BM_IsForbidden*           one point: a plain point, a deep double-three
//   BM_PlaceRemove            one stone placed and removed (make/unmake)
//   BM_PlayUndo               one white move played and taken back by Game
//                             (board, no-five windows, history)
//
//   build/bench/rules_bench --benchmark_min_time=1
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmark/benchmark.h"
#include "rules/forbidden.h"
#include "rules/game.h"

namespace renju {
namespace {

struct PublicPosition {
  std::vector<Point> black;
  std::vector<Point> white;
  std::vector<Point> moves;  // play order when the line gives "moves"
};

const std::vector<PublicPosition>& PublicPositions() {
  static const std::vector<PublicPosition> positions = [] {
    std::vector<PublicPosition> out;
    std::ifstream in(std::string(RENJU_SHARED_DIR) +
                     "/data/renju-forbidden-public.jsonl");
    auto points = [](const nlohmann::json& list) {
      std::vector<Point> ps;
      for (const auto& m : list)
        ps.push_back(*ParsePoint(m.get<std::string>(), 15));
      return ps;
    };
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line);
      PublicPosition p;
      if (j.contains("moves")) {
        p.moves = points(j["moves"]);
        for (size_t i = 0; i < p.moves.size(); ++i) {
          (i % 2 ? p.white : p.black).push_back(p.moves[i]);
        }
      } else {
        p.black = points(j["black"]);
        p.white = points(j["white"]);
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return positions;
}

Board BuildBoard(const PublicPosition& p) {
  Board board;
  if (!p.moves.empty()) {
    for (size_t i = 0; i < p.moves.size(); ++i) {
      board.Place(p.moves[i], i % 2 ? Color::kWhite : Color::kBlack);
    }
  } else {
    for (Point q : p.black) board.Place(q, Color::kBlack);
    for (Point q : p.white) board.Place(q, Color::kWhite);
  }
  return board;
}

void BM_ForbiddenPointsPublic(benchmark::State& state) {
  std::vector<Board> boards;
  for (const PublicPosition& p : PublicPositions())
    boards.push_back(BuildBoard(p));
  if (boards.empty()) {
    state.SkipWithError("public positions not found");
    return;
  }
  size_t i = 0;
  size_t found = 0;
  for (auto _ : state) {
    found += ForbiddenPoints(boards[i]).size();
    if (++i == boards.size()) i = 0;
  }
  benchmark::DoNotOptimize(found);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("per position");
}
BENCHMARK(BM_ForbiddenPointsPublic);

void BM_LabelPublicFromMoves(benchmark::State& state) {
  const std::vector<PublicPosition>& positions = PublicPositions();
  size_t found = 0;
  for (auto _ : state) {
    for (const PublicPosition& p : positions) {
      Board board = BuildBoard(p);
      found += ForbiddenPoints(board).size();
    }
  }
  benchmark::DoNotOptimize(found);
  state.SetItemsProcessed(state.iterations() * positions.size());
  state.SetLabel("time per pass over all 1,203");
}
BENCHMARK(BM_LabelPublicFromMoves)->Unit(benchmark::kMillisecond);

void BM_RandomGames(benchmark::State& state) {
  std::mt19937_64 rng(1);
  int64_t moves = 0;
  std::vector<Point> empty;
  for (auto _ : state) {
    Game game;
    empty.clear();
    for (int y = 0; y < 15; ++y) {
      for (int x = 0; x < 15; ++x) empty.emplace_back(x, y);
    }
    while (!game.over() && !empty.empty()) {
      // A random empty point; black re-draws while it is forbidden.
      size_t k = rng() % empty.size();
      if (game.side_to_move() == Color::kBlack) {
        int tries = 0;
        while (IsForbidden(game.mutable_board(), empty[k]) && ++tries < 16) {
          k = rng() % empty.size();
        }
      }
      const Point p = empty[k];
      empty[k] = empty.back();
      empty.pop_back();
      game.Play(Move::At(p)).IgnoreError();
      ++moves;
    }
  }
  state.SetItemsProcessed(moves);
  state.SetLabel("items = moves");
}
BENCHMARK(BM_RandomGames);

// A white move, so no forbidden test: what a game move costs beyond the
// board's own make/unmake (issue 19 added the no-five window counts).
void BM_PlayUndo(benchmark::State& state) {
  absl::StatusOr<Game> game = Game::FromMoves(
      Variant::kRenju, 15, *ParseMoveList("h8 h9 i8 i9 g7 j9 g9", 15));
  const Move m = Move::At(*ParsePoint("g8", 15));
  for (auto _ : state) {
    game->Play(m).IgnoreError();
    game->Undo();
  }
}
BENCHMARK(BM_PlayUndo);

void BM_IsForbiddenPlainPoint(benchmark::State& state) {
  Board board = BuildBoard(PublicPositions()[1]);
  const Point p(0, 14);  // a1-side corner, far from any shape
  for (auto _ : state) benchmark::DoNotOptimize(ForbiddenAt(board, p));
}
BENCHMARK(BM_IsForbiddenPlainPoint);

void BM_IsForbiddenDeepDoubleThree(benchmark::State& state) {
  // Public line 1142: h8 needs the live-three recursion three levels deep.
  Board board;
  for (const char* s :
       {"h9", "h12", "i8", "i9", "i10", "j9", "j12", "k8", "k11", "l10"}) {
    board.Place(*ParsePoint(s, 15), Color::kBlack);
  }
  board.Place(*ParsePoint("g10", 15), Color::kWhite);
  const Point h8 = *ParsePoint("h8", 15);
  for (auto _ : state) benchmark::DoNotOptimize(ForbiddenAt(board, h8));
}
BENCHMARK(BM_IsForbiddenDeepDoubleThree);

void BM_PlaceRemove(benchmark::State& state) {
  // A mid-game public position and an empty point in the thick of it.
  Board board = BuildBoard(PublicPositions()[1]);
  const Point p = *ParsePoint("g9", 15);
  if (!board.IsEmpty(p)) {
    state.SkipWithError("g9 occupied");
    return;
  }
  for (auto _ : state) {
    board.Place(p, Color::kBlack);
    board.Remove(p);
  }
}
BENCHMARK(BM_PlaceRemove);

}  // namespace
}  // namespace renju

BENCHMARK_MAIN();
