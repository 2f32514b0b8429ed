#include "selfplay/selfplay_tally.h"

namespace renju {

void SelfplayTally::Add(const pb::GameRecord& game) {
  ++games;
  black_wins += game.result() == pb::BLACK_WIN;
  white_wins += game.result() == pb::WHITE_WIN;
  draws += game.result() == pb::DRAW;
  plies += game.plies_size();
  for (const pb::GamePly& p : game.plies()) searched_plies += p.has_target();
  resignations += game.end_reason() == pb::RESIGNATION;
  if (game.would_resign_ply() > 0) {
    ++would_resign_games;
    const pb::GameResult loss =
        game.would_resign_color() == pb::BLACK ? pb::WHITE_WIN : pb::BLACK_WIN;
    false_resignations += game.result() != loss;
  }
}

}  // namespace renju
