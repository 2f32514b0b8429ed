// Helpers shared by the inference tests: games from move strings and a fake
// inner evaluator for the wrapper tests.
#ifndef RENJU_TESTS_NN_TEST_UTIL_H_
#define RENJU_TESTS_NN_TEST_UTIL_H_

#include <atomic>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/output.h"
#include "rules/game.h"
#include "search/evaluator.h"

namespace renju::testing {

// A game from "h8 h9 ..." (passes as "pass"); fails the test on bad moves.
inline Game MakeGame(const std::string& moves,
                     Variant variant = Variant::kRenju,
                     int size = kRenjuBoardSize) {
  absl::StatusOr<std::vector<Move>> parsed = ParseMoveList(moves, size);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<Game> game = Game::FromMoves(
      variant, size, parsed.ok() ? *parsed : std::vector<Move>{});
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? *std::move(game) : Game(variant, size);
}

inline Point Pt(const std::string& name, int size = kRenjuBoardSize) {
  absl::StatusOr<Point> p = ParsePoint(name, size);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Point(0, 0);
}

inline int IndexOf(Point p, int size = kRenjuBoardSize) {
  return p.y * size + p.x;
}

// Black to move under renju with one forbidden point, i8 (a double-three of
// g8-h8-i8 and i8-i9-i10); the white stones sit out of the way on the a-file.
inline constexpr char kDoubleThreeMoves[] = "g8 a1 h8 a3 i9 a5 i10 a7";

// Puts all the mass on the last move's point (or on point 0 before any
// move) and gives a value that depends on the ply; counts its calls.
class LastMoveEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    ++calls;
    out.policy.assign(game.size() * game.size(), 0.0f);
    const int index = game.moves().empty() || game.moves().back().is_pass()
                          ? 0
                          : IndexOf(game.moves().back().point(), game.size());
    out.policy[index] = 1.0f;
    out.win = 0.5f;
    out.draw = 0.1f * (game.ply() % 5);
    out.loss = 0.5f - out.draw;
    return absl::OkStatus();
  }
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override {
    ++batch_calls;
    return Evaluator::EvaluateBatch(games, outs);
  }
  std::atomic<int> calls{0};  // positions evaluated, alone or in a batch
  std::atomic<int> batch_calls{0};
};

// The evaluation of `game` by a forward on a batch of one.
inline Evaluation Direct(Model& model, Game& game) {
  std::vector<float> planes(model.input_floats());
  EncodePosition(game, model.config().encoding_version, planes.data());
  Evaluation out;
  out.policy.resize(model.policy_size());
  float wdl[3];
  EXPECT_TRUE(model.Forward(planes.data(), 1, out.policy.data(), wdl).ok());
  MaskedSoftmax(planes.data() + kLegalPlane * model.policy_size(),
                model.policy_size(), out.policy.data());
  SetWdl(wdl, out);
  return out;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_NN_TEST_UTIL_H_
