#include "bench/load_test.h"

#include <algorithm>

#include "rpc/game_record.h"
#include "rules/game.h"

namespace renju {

pb::Position RandomOpening(Random& rng) {
  const int size = kRenjuBoardSize;
  for (;;) {
    Game game(Variant::kRenju, size);
    pb::Position position;
    position.set_variant(pb::RENJU);
    position.set_board_size(size);
    const int moves = 2 + rng.UniformInt(8);
    for (int i = 0; i < moves && !game.over(); ++i) {
      const Point p(4 + rng.UniformInt(7), 4 + rng.UniformInt(7));
      if (!game.IsLegal(p)) continue;
      if (!game.Play(Move::At(p)).ok()) break;
      position.add_moves(PointIndex(p, size));
    }
    if (!game.over()) return position;
  }
}

double Percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t i =
      std::min(values.size() - 1, static_cast<size_t>(q * values.size()));
  return values[i];
}

}  // namespace renju
