#include "selfplay/selfplay_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "selfplay/game_directory.h"
#include "selfplay/selfplay_runner.h"

namespace renju {
namespace {

struct Stats {
  SelfplayTally tally;
  std::map<std::string, int64_t> openings;
  std::map<int64_t, int64_t> generations;
  int64_t unreadable = 0, full_searches = 0, min_plies = INT64_MAX, max_plies = 0;
};

Stats ReadStats(const GameDirectory& dir, const std::vector<std::string>& uids) {
  Stats s;
  for (const std::string& uid : uids) {
    absl::StatusOr<pb::GameRecord> game = dir.Read(uid);
    if (!game.ok()) {
      ++s.unreadable;
      std::fprintf(stderr, "%s\n", std::string(game.status().message()).c_str());
      continue;
    }
    s.tally.Add(*game);
    const std::string family = game->opening().substr(0, game->opening().find(':'));
    ++s.openings[family];
    ++s.generations[game->model_generation()];
    for (const pb::GamePly& p : game->plies()) {
      s.full_searches += p.has_target() && p.target().full_search();
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
              static_cast<long long>(s.min_plies), static_cast<long long>(s.max_plies));
  std::printf("training positions: %lld (full searches %lld)\n",
              static_cast<long long>(tally.searched_plies),
              static_cast<long long>(s.full_searches));
  std::printf("no-resign games that would have resigned: %lld, of which the "
              "side did not lose: %lld\n",
              static_cast<long long>(tally.would_resign_games),
              static_cast<long long>(tally.false_resignations));
}

void PrintHistograms(const Stats& s) {
  std::printf("openings:");
  for (const auto& [name, n] : s.openings) {
    std::printf(" %s %lld", name.c_str(), static_cast<long long>(n));
  }
  std::printf("\nmodel generations:");
  for (const auto& [gen, n] : s.generations) {
    std::printf(" %lld:%lld", static_cast<long long>(gen), static_cast<long long>(n));
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
