#include "selfplay/selfplay_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "selfplay/game_directory.h"
#include "selfplay/selfplay_tally.h"

namespace renju {
namespace {

struct Stats {
  SelfplayTally tally;
  std::map<std::string, int64_t> openings;
  std::map<int64_t, int64_t> generations;
  int64_t unreadable = 0, full_searches = 0, min_plies = INT64_MAX,
          max_plies = 0;
  // By pb::EndReason name in lower case ("five", "no_five_possible", ...).
  std::map<std::string, int64_t> end_reasons;
  // Games drawn because neither side could make a five (RULES.md §5): their
  // plies, and the empty points left then. Without the rule such a game
  // plays on to a full board (no five can come), unless the move cap or a
  // resignation stops it first, so the empty points bound the plies saved.
  int64_t no_five_plies = 0, no_five_empty_points = 0;
};

Stats ReadStats(const GameDirectory& dir,
                const std::vector<std::string>& uids) {
  Stats s;
  for (const std::string& uid : uids) {
    absl::StatusOr<pb::GameRecord> game = dir.Read(uid);
    if (!game.ok()) {
      ++s.unreadable;
      std::fprintf(stderr, "%s\n",
                   std::string(game.status().message()).c_str());
      continue;
    }
    s.tally.Add(*game);
    const std::string family =
        game->opening().substr(0, game->opening().find(':'));
    ++s.openings[family];
    ++s.generations[game->model_generation()];
    for (const pb::GamePly& p : game->plies()) {
      s.full_searches += p.has_target() && p.target().full_search();
    }
    ++s.end_reasons[absl::AsciiStrToLower(
        pb::EndReason_Name(game->end_reason()))];
    if (game->end_reason() == pb::NO_FIVE_POSSIBLE) {
      int64_t stones = 0;
      for (const pb::GamePly& p : game->plies()) stones += p.move() >= 0;
      const int64_t size = game->board_size() == 0 ? 15 : game->board_size();
      s.no_five_plies += game->plies_size();
      s.no_five_empty_points += size * size - stones;
    }
    s.min_plies = std::min<int64_t>(s.min_plies, game->plies_size());
    s.max_plies = std::max<int64_t>(s.max_plies, game->plies_size());
  }
  return s;
}

void PrintTotals(const Stats& s) {
  const SelfplayTally& tally = s.tally;
  std::printf("results: black %lld, white %lld, draw %lld (resigned %lld)\n",
              static_cast<long long>(tally.black_wins),
              static_cast<long long>(tally.white_wins),
              static_cast<long long>(tally.draws),
              static_cast<long long>(tally.resignations));
  std::printf("plies: %lld, mean %.1f, min %lld, max %lld\n",
              static_cast<long long>(tally.plies),
              static_cast<double>(tally.plies) / tally.games,
              static_cast<long long>(s.min_plies),
              static_cast<long long>(s.max_plies));
  std::printf("training positions: %lld (full searches %lld)\n",
              static_cast<long long>(tally.searched_plies),
              static_cast<long long>(s.full_searches));
  std::printf(
      "no-resign games that would have resigned: %lld, of which the "
      "side did not lose: %lld\n",
      static_cast<long long>(tally.would_resign_games),
      static_cast<long long>(tally.false_resignations));
}

void PrintHistograms(const Stats& s) {
  std::printf("end reasons:");
  for (const auto& [reason, n] : s.end_reasons) {
    std::printf(" %s %lld", reason.c_str(), static_cast<long long>(n));
  }
  const auto no_five = s.end_reasons.find("no_five_possible");
  if (no_five != s.end_reasons.end()) {
    const double games = static_cast<double>(no_five->second);
    std::printf(
        "\nno five possible: %lld games, mean ply %.1f, empty points "
        "left %lld (mean %.1f): plies saved against playing on to a "
        "full board",
        static_cast<long long>(no_five->second),
        static_cast<double>(s.no_five_plies) / games,
        static_cast<long long>(s.no_five_empty_points),
        static_cast<double>(s.no_five_empty_points) / games);
  }
  std::printf("\nopenings:");
  for (const auto& [name, n] : s.openings) {
    std::printf(" %s %lld", name.c_str(), static_cast<long long>(n));
  }
  std::printf("\nmodel generations:");
  for (const auto& [gen, n] : s.generations) {
    std::printf(" %lld:%lld", static_cast<long long>(gen),
                static_cast<long long>(n));
  }
  std::printf("\n");
}

}  // namespace

absl::StatusOr<int64_t> PrintSelfplayStats(const std::string& path) {
  absl::StatusOr<GameDirectory> dir = GameDirectory::Open(path);
  if (!dir.ok()) return dir.status();
  absl::StatusOr<std::vector<std::string>> uids = dir->ListUids();
  if (!uids.ok()) return uids.status();
  const Stats stats = ReadStats(*dir, *uids);
  std::printf("games: %lld (unreadable %lld)\n",
              static_cast<long long>(stats.tally.games),
              static_cast<long long>(stats.unreadable));
  if (stats.tally.games == 0) return stats.unreadable;
  PrintTotals(stats);
  PrintHistograms(stats);
  return stats.unreadable;
}

}  // namespace renju
