// Counts over finished self-play games: results, plies, resignations and
// the no-resign games' check on them. The runner keeps one as games end;
// `renju selfplay-stats` one over a folder of games. Protobuf only, so the
// light `renju` binary reads game folders without LibTorch.
#ifndef RENJU_SELFPLAY_SELFPLAY_TALLY_H_
#define RENJU_SELFPLAY_SELFPLAY_TALLY_H_

#include <cstdint>

#include "proto/game.pb.h"

namespace renju {

struct SelfplayTally {
  int64_t games = 0;
  int64_t black_wins = 0;
  int64_t white_wins = 0;
  int64_t draws = 0;
  int64_t plies = 0;
  int64_t searched_plies = 0;  // positions with a search target
  int64_t resignations = 0;
  // No-resign games where the side that would have resigned did not lose.
  int64_t false_resignations = 0;
  int64_t would_resign_games = 0;

  void Add(const pb::GameRecord& game);
};

}  // namespace renju

#endif  // RENJU_SELFPLAY_SELFPLAY_TALLY_H_
