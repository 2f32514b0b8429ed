// Helpers shared by the arena tests (arena_test.cc and
// arena_players_test.cc): the fake engines' paths, fresh temporary folders,
// small match options and a log of the counted games.
#ifndef RENJU_TESTS_ARENA_ARENA_TEST_UTIL_H_
#define RENJU_TESTS_ARENA_ARENA_TEST_UTIL_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "arena/arena.h"
#include "gtest/gtest.h"

namespace renju::testing {

inline std::string EnginePath(const std::string& name) {
  return std::string(RENJU_SOURCE_DIR) + "/tests/data/gomocup/" + name;
}

inline std::filesystem::path TempDir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("arena_test_" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

inline ArenaOptions SmallOptions(int64_t games) {
  ArenaOptions options;
  options.openings = CanonicalArenaOpenings(/*seed=*/7);
  options.openings.resize(3);
  options.max_games = games;
  options.concurrent_games = 3;
  return options;
}

// Every counted game, by index.
struct GameLog {
  std::mutex mutex;
  std::map<int64_t, ArenaGame> games;
  ArenaCallbacks Callbacks() {
    ArenaCallbacks callbacks;
    callbacks.on_game = [this](const ArenaGame& g) {
      std::lock_guard<std::mutex> lock(mutex);
      games[g.index] = g;
    };
    return callbacks;
  }
};

}  // namespace renju::testing

#endif  // RENJU_TESTS_ARENA_ARENA_TEST_UTIL_H_
