// One self-play game: an opening, then search for every move, recording the
// training targets (for full searches the policy target: the visit
// distribution, or with SearchParams::gumbel_root the improved policy; the
// root value; the final result) as a pb::GameRecord. With the Gumbel root
// the move played is the Gumbel winner: no Dirichlet noise, no temperature.
// Resignation follows the config, with a fraction of games that never resign so
// false resignations can be counted. Under an opening rule (pb::OpeningMix
// rules) the opening player (search/opening_player.h) takes every opening
// action for both sides first; the record keeps them, and the stones they
// placed are plies without a search target, like a placed opening's.
#ifndef RENJU_SELFPLAY_SELFPLAY_GAME_H_
#define RENJU_SELFPLAY_SELFPLAY_GAME_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "base/random.h"
#include "proto/config.pb.h"
#include "proto/game.pb.h"
#include "search/evaluator.h"
#include "search/opening_player.h"
#include "search/search_params.h"

namespace renju {

struct SelfplaySettings {
  Variant variant = Variant::kRenju;
  int board_size = kRenjuBoardSize;
  SearchParams search;
  pb::OpeningMix openings;
  // The opening player's budgets, for games under an opening rule
  // (openings.rules): from selfplay.search.
  OpeningParams opening_player;
  int max_plies = 225;
  float resign_threshold = 0.02f;
  int resign_consecutive_moves = 3;
  float no_resign_fraction = 0.1f;
  std::string worker_id;
  int64_t model_generation = 0;
};

// Builds settings from a validated config.
SelfplaySettings SelfplaySettingsFrom(const pb::RunConfig& config);

// Plays one game. `stop` (may be null) ends it early with a Cancelled
// error. Errors: the evaluator failed, the game was stopped.
absl::StatusOr<pb::GameRecord> PlaySelfplayGame(
    const SelfplaySettings& settings, Evaluator& evaluator, Random& rng,
    const std::string& uid, const std::atomic<bool>* stop);

}  // namespace renju

#endif  // RENJU_SELFPLAY_SELFPLAY_GAME_H_
