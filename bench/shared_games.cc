#include "bench/shared_games.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace renju {
namespace {

// The "moves" array of one line; empty when it does not parse.
std::vector<Move> MovesOfLine(absl::string_view line) {
  std::vector<Move> moves;
  const size_t start = line.find("\"moves\":[");
  if (start == absl::string_view::npos) return moves;
  absl::string_view rest = line.substr(start + 9);
  rest = rest.substr(0, rest.find(']'));
  for (absl::string_view token : absl::StrSplit(rest, ',')) {
    token = absl::StripPrefix(absl::StripSuffix(token, "\""), "\"");
    absl::StatusOr<Move> m = ParseMove(token, kRenjuBoardSize);
    if (!m.ok()) return {};
    moves.push_back(*m);
  }
  return moves;
}

}  // namespace

std::string SharedGamesPath() {
  return RENJU_SHARED_DIR "/data/renju-games.jsonl";
}

absl::StatusOr<std::vector<std::vector<Move>>> LoadSharedGames(int num_games) {
  std::ifstream in(SharedGamesPath());
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read the shared games at ", SharedGamesPath()));
  }
  std::vector<std::vector<Move>> games;
  std::string line;
  while ((num_games < 0 || static_cast<int>(games.size()) < num_games) &&
         std::getline(in, line)) {
    games.push_back(MovesOfLine(line));
  }
  return games;
}

absl::StatusOr<Game> PositionAfter(const std::vector<Move>& moves, int ply) {
  if (ply < 0 || ply > static_cast<int>(moves.size())) {
    return absl::OutOfRangeError(absl::StrCat(
        "ply ", ply, " is beyond the game's ", moves.size(), " moves"));
  }
  Game game;
  for (int i = 0; i < ply; ++i) {
    if (absl::Status s = game.Play(moves[i]); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", i + 1, " (", MoveName(moves[i]), "): ", s.message()));
    }
  }
  return game;
}

}  // namespace renju
