// Self-play-like game records for the trainer's tests and bench: seeded
// random legal games near the stones already placed, each searched ply
// carrying a target (a full search's sparse policy over a few legal points,
// or a fast search's value only), ending in a five, a full board or the move
// cap, and valid by ValidateGameRecord. Header-only and free of GoogleTest
// so bench/train_bench.cc can use it too.
#ifndef RENJU_TESTS_TRAINER_SYNTHETIC_GAMES_H_
#define RENJU_TESTS_TRAINER_SYNTHETIC_GAMES_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/random.h"
#include "proto/game.pb.h"
#include "rpc/game_record.h"
#include "rules/game.h"

namespace renju::testing {

struct SyntheticGameOptions {
  Variant variant = Variant::kRenju;
  int board_size = 15;
  int max_plies = 80;
  // Leading plies without a target (an opening).
  int opening_plies = 2;
  // Chance that a searched ply is a full search with a policy target.
  double full_search_probability = 0.5;
  // Points in a full search's policy target (fewer if fewer are legal).
  int policy_points = 6;
};

// Legal points within distance 2 of a stone (all legal points on an empty
// board's centre region), in a fixed order.
inline std::vector<Point> NearbyLegalPoints(Game& game) {
  std::vector<Point> out;
  const int size = game.size();
  const Board& board = game.board();
  for (const Point p : game.LegalPoints()) {
    bool near = game.ply() == 0 && std::abs(p.x - size / 2) <= 1 &&
                std::abs(p.y - size / 2) <= 1;
    for (int dy = -2; dy <= 2 && !near; ++dy) {
      for (int dx = -2; dx <= 2 && !near; ++dx) {
        const Point q(p.x + dx, p.y + dy);
        near = q.OnBoard(size) && !board.IsEmpty(q);
      }
    }
    if (near) out.push_back(p);
  }
  if (out.empty()) out = game.LegalPoints();
  return out;
}

inline pb::GameRecord SyntheticGame(uint64_t seed,
                                    const SyntheticGameOptions& options = {}) {
  Random rng(seed, 77);
  Game game(options.variant, options.board_size);
  pb::GameRecord record;
  record.set_uid(absl::StrCat("synthetic-", seed));
  record.set_variant(ToProto(options.variant));
  record.set_board_size(options.board_size);
  record.set_opening_plies(options.opening_plies);
  record.set_worker_id("synthetic");
  while (!game.over() && game.ply() < options.max_plies) {
    std::vector<Point> candidates = NearbyLegalPoints(game);
    if (candidates.empty()) break;
    pb::GamePly* ply = record.add_plies();
    Point move =
        candidates[rng.UniformInt(static_cast<int>(candidates.size()))];
    if (game.ply() >= options.opening_plies) {
      pb::SearchTarget* target = ply->mutable_target();
      target->set_root_win(0.4f);
      target->set_root_draw(0.2f);
      target->set_root_loss(0.4f);
      target->set_visits(100);
      if (rng.Uniform() < options.full_search_probability) {
        target->set_full_search(true);
        // A few distinct points with random weights; the move is one.
        for (int i = 0; i < static_cast<int>(candidates.size()) - 1; ++i) {
          std::swap(
              candidates[i],
              candidates[i + rng.UniformInt(
                                 static_cast<int>(candidates.size()) - i)]);
        }
        const int k = std::min<int>(options.policy_points, candidates.size());
        std::vector<float> weights(k);
        float sum = 0;
        for (float& w : weights)
          sum += (w = 0.05f + static_cast<float>(rng.Uniform()));
        for (int i = 0; i < k; ++i) {
          target->add_policy_points(PointIndex(candidates[i], game.size()));
          target->add_policy_probs(weights[i] / sum);
        }
        move = candidates[0];
      }
    }
    ply->set_move(PointIndex(move, game.size()));
    const absl::Status played = game.Play(Move::At(move));
    if (!played.ok()) std::abort();  // candidates are legal points
  }
  if (game.over()) {
    record.set_result(ToProto(game.result()));
    record.set_end_reason(ToProto(game.end_reason()));
  } else {
    record.set_result(pb::DRAW);
    record.set_end_reason(pb::MOVE_CAP);
  }
  return record;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_TRAINER_SYNTHETIC_GAMES_H_
