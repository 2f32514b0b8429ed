#include "bench/vct_puzzle_set.h"

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/shared_games.h"

namespace renju {

std::string DefaultVctPuzzlePath() {
  return RENJU_SOURCE_DIR "/bench/vct_puzzles.txt";
}

absl::StatusOr<VctPuzzleSet> LoadVctPuzzles(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  VctPuzzleSet set;
  int max_game = -1;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = absl::StrCat(path, ":", number);
    if (absl::StartsWith(line, "# depth ")) {
      if (!absl::SimpleAtoi(line.substr(8), &set.depth)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": bad depth line '", line, "'"));
      }
    }
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    VctPuzzle p;
    if (fields.size() != 3 || !absl::SimpleAtoi(fields[0], &p.game_index) ||
        !absl::SimpleAtoi(fields[1], &p.ply) ||
        (fields[2] != "win" && fields[2] != "none")) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": expected '<game index> <ply> <win|none>', got '", line,
          "'"));
    }
    p.win = fields[2] == "win";
    max_game = std::max(max_game, p.game_index);
    set.puzzles.push_back(std::move(p));
  }
  if (set.depth <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": no '# depth N' line"));
  }
  absl::StatusOr<std::vector<std::vector<Move>>> games =
      LoadSharedGames(max_game + 1);
  if (!games.ok()) return games.status();
  for (VctPuzzle& p : set.puzzles) {
    if (p.game_index < 0 || p.game_index >= static_cast<int>(games->size())) {
      return absl::OutOfRangeError(absl::StrCat(
          path, ": game index ", p.game_index, " is not in the shared games"));
    }
    absl::StatusOr<Game> game = PositionAfter((*games)[p.game_index], p.ply);
    if (!game.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": game ", p.game_index, " ply ", p.ply, ": ",
                       game.status().message()));
    }
    p.position = std::move(*game);
  }
  return set;
}

}  // namespace renju
