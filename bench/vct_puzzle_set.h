// The VCT puzzle set: positions of the shared games (shared_games.h) where
// the side to move has no VCF, labelled by two independent solvers that
// agree: VctSolver (search/vct.h) and the brute-force reference
// (search/vct_reference.h). The repository holds only references, one
// puzzle a line:
//   <game index> <ply> <win|none>
// "win": both prove a VCT for the side to move within the set's depth;
// "none": both prove there is none within that depth. Lines starting with
// '#' are comments; the generator writes its command line and depth there.
#ifndef RENJU_BENCH_VCT_PUZZLE_SET_H_
#define RENJU_BENCH_VCT_PUZZLE_SET_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rules/game.h"

namespace renju {

struct VctPuzzle {
  int game_index = 0;
  int ply = 0;
  bool win = false;
  Game position;  // filled by LoadVctPuzzles
};

struct VctPuzzleSet {
  // The depth both solvers were limited to (attacker threat moves).
  int depth = 0;
  std::vector<VctPuzzle> puzzles;
};

// The committed set, bench/vct_puzzles.txt.
std::string DefaultVctPuzzlePath();

// Reads the references in `path` and rebuilds each position from the
// shared games. Errors name the file and line.
absl::StatusOr<VctPuzzleSet> LoadVctPuzzles(const std::string& path);

}  // namespace renju

#endif  // RENJU_BENCH_VCT_PUZZLE_SET_H_
