// The shared games (../shared/data/renju-games.jsonl), read in place for the
// benchmarks: real play, so real tactics. The file is test data that may not
// be copied or published (data/README.md); the benchmarks refer to its
// positions by (game index, ply) only.
#ifndef RENJU_BENCH_SHARED_GAMES_H_
#define RENJU_BENCH_SHARED_GAMES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rules/game.h"

namespace renju {

// RENJU_SHARED_DIR "/data/renju-games.jsonl".
std::string SharedGamesPath();

// The moves of the first `num_games` games (every game when negative), in
// file order: index 0 is the file's first line. A game whose moves do not
// parse is kept empty, so indices stay line numbers minus one. Errors: the
// file cannot be read.
absl::StatusOr<std::vector<std::vector<Move>>> LoadSharedGames(int num_games);

// The position after the first `ply` moves of `moves`, under renju. Errors
// name the move that cannot be played, or a ply beyond the game.
absl::StatusOr<Game> PositionAfter(const std::vector<Move>& moves, int ply);

}  // namespace renju

#endif  // RENJU_BENCH_SHARED_GAMES_H_
