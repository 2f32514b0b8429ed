// The replay window: KataGo's size formula, eviction of whole games that
// fell out of it, sampling only the newest positions, and training targets
// that follow the board under each of the 8 symmetries.
#include "trainer/replay_window.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nn/encoding.h"
#include "rpc/game_record.h"
#include "tests/trainer/synthetic_games.h"

namespace renju {
namespace {

using ::renju::testing::SyntheticGame;
using ::renju::testing::SyntheticGameOptions;

int Index(const std::string& name) {
  absl::StatusOr<Point> p = ParsePoint(name, 15);
  EXPECT_TRUE(p.ok()) << p.status();
  return PointIndex(*p, 15);
}

TEST(WindowSizeTest, FollowsKataGosFormula) {
  const WindowParams params{250000, 0.75, 0.4};
  EXPECT_EQ(WindowSize(0, params), 0);
  EXPECT_EQ(WindowSize(1000, params), 1000);
  EXPECT_EQ(WindowSize(250000, params), 250000);
  // The worked example in formats.md §5.6: N = 2.5M gives about 866k.
  const double expected =
      250000 * (1 + 0.4 * (std::pow(10.0, 0.75) - 1) / 0.75);
  EXPECT_NEAR(WindowSize(2500000, params), expected, 1.0);
  EXPECT_NEAR(WindowSize(2500000, params), 866455, 1.0);
  // Grows, but slower than N, past c.
  EXPECT_GT(WindowSize(500000, params), 250000);
  EXPECT_LT(WindowSize(500000, params), 500000);
  // Never more than N, even with a steep slope.
  EXPECT_EQ(WindowSize(300, WindowParams{100, 1.0, 5.0}), 300);
}

TEST(ReplayWindowTest, EvictsWholeGamesOlderThanTheWindow) {
  const WindowParams params{200, 0.75, 0.4};
  ReplayWindow window(15, params, 1);
  std::vector<int> sizes;  // positions per game held, oldest first
  int64_t total = 0;
  for (int i = 0; i < 60; ++i) {
    const pb::GameRecord record = SyntheticGame(100 + i);
    absl::StatusOr<int> added = window.AddGame(i + 1, record);
    ASSERT_TRUE(added.ok()) << added.status();
    EXPECT_EQ(*added, NumTrainingPositions(record));
    total += *added;
    EXPECT_EQ(window.total_positions(), total);
    const int64_t w = WindowSize(total, params);
    // The oldest game held still has a position inside the window, and
    // dropping it would leave fewer than W positions.
    EXPECT_GE(window.held_positions(), w);
    EXPECT_EQ(window.window_positions(), std::min(w, window.held_positions()));
    EXPECT_EQ(window.last_game_id(), i + 1);
    if (window.num_games() > 1) {
      const int64_t first_game_positions =
          NumTrainingPositions(SyntheticGame(100 + window.first_game_id() - 1));
      EXPECT_LT(window.held_positions() - first_game_positions, w);
    }
  }
  EXPECT_GT(window.first_game_id(), 1);  // something was evicted
  // Ids must increase.
  EXPECT_FALSE(window.AddGame(5, SyntheticGame(1)).ok());
}

TEST(ReplayWindowTest, RefusesOtherBoardSizesAndInvalidGames) {
  ReplayWindow window(15, WindowParams{}, 1);
  SyntheticGameOptions small;
  small.variant = Variant::kFreestyle;
  small.board_size = 9;
  absl::StatusOr<int> added = window.AddGame(1, SyntheticGame(1, small));
  EXPECT_EQ(added.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(added.status().message().find("9x9"), std::string::npos)
      << added.status();

  pb::GameRecord bad = SyntheticGame(2);
  bad.mutable_plies(3)->set_move(bad.plies(2).move());  // an occupied point
  added = window.AddGame(2, bad);
  EXPECT_EQ(added.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(added.status().message().find("ply 4"), std::string::npos)
      << added.status();
  EXPECT_FALSE(window.AddGame(3, std::string("not a record")).ok());
  EXPECT_TRUE(window.empty());
}

// Old games are freestyle and new ones renju, so the variant plane tells
// which part of the store a sample came from.
TEST(ReplayWindowTest, SamplesOnlyTheNewestPositions) {
  ReplayWindow window(15, WindowParams{300, 0.75, 0.4}, 1);
  SyntheticGameOptions freestyle;
  freestyle.variant = Variant::kFreestyle;
  int id = 0;
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(window.AddGame(++id, SyntheticGame(1000 + i, freestyle)).ok());
  }
  auto renju_fraction = [&] {
    TrainingBatch batch;
    window.Sample(400, 7, batch);
    const int floats = EncodedSize(15, 1);
    const int area = 15 * 15;
    int renju = 0;
    for (int i = 0; i < batch.size; ++i) {
      renju += batch.planes[i * floats + (kVariantPlane + 2) * area] == 1.0f;
    }
    return static_cast<double>(renju) / batch.size;
  };
  EXPECT_EQ(renju_fraction(), 0.0);
  int64_t renju_positions = 0;
  while (renju_positions < 150) {
    ++id;
    absl::StatusOr<int> added = window.AddGame(id, SyntheticGame(id));
    ASSERT_TRUE(added.ok());
    renju_positions += *added;
  }
  // Uniform over positions: the renju share matches its share of the
  // window (within sampling noise of 400 draws).
  const double share = std::min(
      1.0, static_cast<double>(renju_positions) / window.window_positions());
  EXPECT_NEAR(renju_fraction(), share, 0.08);
  while (renju_positions <
         WindowSize(window.total_positions(), window.params())) {
    ++id;
    absl::StatusOr<int> added = window.AddGame(id, SyntheticGame(id));
    ASSERT_TRUE(added.ok());
    renju_positions += *added;
  }
  EXPECT_EQ(renju_fraction(), 1.0);
}

// Black to move under renju with i8 forbidden (a double-three), then white
// to move; white won by resignation.
pb::GameRecord ForbiddenPointGame() {
  pb::GameRecord record;
  record.set_uid("forbidden");
  record.set_variant(pb::RENJU);
  record.set_board_size(15);
  for (const char* move : {"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"}) {
    record.add_plies()->set_move(Index(move));
  }
  record.set_opening_plies(8);
  pb::GamePly* black = record.add_plies();
  black->set_move(Index("c13"));
  pb::SearchTarget* target = black->mutable_target();
  target->set_full_search(true);
  target->set_root_win(1);
  for (const auto& [point, prob] :
       {std::pair{"c13", 0.5f}, std::pair{"f7", 0.3f},
        std::pair{"j11", 0.2f}}) {
    target->add_policy_points(Index(point));
    target->add_policy_probs(prob);
  }
  pb::GamePly* white = record.add_plies();
  white->set_move(Index("o15"));
  white->mutable_target()->set_root_draw(1);  // a fast search: value only
  record.set_result(pb::WHITE_WIN);
  record.set_end_reason(pb::RESIGNATION);
  return record;
}

// Both encodings: version 2's threat planes must turn with the board too.
class ReplayWindowSymmetryTest : public ::testing::TestWithParam<int> {};

TEST_P(ReplayWindowSymmetryTest, TargetsFollowTheBoardUnderEverySymmetry) {
  const int version = GetParam();
  const int size = 15, area = size * size;
  const int floats = EncodedSize(size, version);
  ReplayWindow window(size, WindowParams{}, version);
  ASSERT_TRUE(window.AddGame(1, ForbiddenPointGame()).ok());
  ASSERT_EQ(window.window_positions(), 2);

  TrainingBatch identity;
  identity.Reset(2, size, version, false);
  window.WritePosition(0, kIdentity, 0, identity);
  window.WritePosition(1, kIdentity, 1, identity);
  // The black position: the forbidden point is marked and not legal.
  EXPECT_EQ(identity.planes[kForbiddenPlane * area + Index("i8")], 1.0f);
  EXPECT_EQ(identity.planes[kLegalPlane * area + Index("i8")], 0.0f);
  EXPECT_FLOAT_EQ(identity.policy_target[Index("f7")], 0.3f);
  EXPECT_EQ(identity.policy_weight[0], 1.0f);
  EXPECT_EQ(identity.policy_weight[1], 0.0f);
  // White won by resignation: a loss for black to move, a win for white.
  EXPECT_EQ(std::vector<float>(identity.wdl_target.begin(),
                               identity.wdl_target.begin() + 3),
            (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(std::vector<float>(identity.wdl_target.begin() + 3,
                               identity.wdl_target.end()),
            (std::vector<float>{1, 0, 0}));
  for (int j = 0; j < area; ++j) {
    EXPECT_EQ(identity.policy_target[area + j], 0.0f);  // fast search
  }

  std::set<std::vector<float>> distinct;
  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    TrainingBatch batch;
    batch.Reset(2, size, version, false);
    window.WritePosition(0, s, 0, batch);
    window.WritePosition(1, s, 1, batch);
    distinct.insert(batch.planes);
    for (int row = 0; row < 2; ++row) {
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          const int from = PointIndex(Point(x, y), size);
          const int to = PointIndex(ApplySymmetry(s, Point(x, y), size), size);
          for (int k = 0; k < NumInputPlanes(version); ++k) {
            ASSERT_EQ(batch.planes[row * floats + k * area + to],
                      identity.planes[row * floats + k * area + from])
                << "symmetry " << int{s} << " plane " << k << " point " << from;
          }
          ASSERT_EQ(batch.policy_target[row * area + to],
                    identity.policy_target[row * area + from])
              << "symmetry " << int{s} << " point " << from;
        }
      }
    }
    EXPECT_EQ(batch.wdl_target, identity.wdl_target);
    EXPECT_EQ(batch.policy_weight, identity.policy_weight);
  }
  EXPECT_EQ(distinct.size(), 8u);
}

// Renju: four opening plies without search, then black h10, white a5,
// black j10 and white a7 with the root values below; ply 6 (j10) is a fast
// search, the others full. Black won by resignation.
struct SearchedPly {
  const char* move;
  float win, draw, loss;
  std::vector<std::pair<const char*, float>> policy;  // empty: fast search
};
const std::vector<SearchedPly>& AuxPlies() {
  static const auto* plies = new std::vector<SearchedPly>{
      {"h10", 0.6f, 0.3f, 0.1f, {{"h10", 0.6f}, {"g10", 0.4f}}},
      {"a5", 0.2f, 0.3f, 0.5f, {{"a5", 0.7f}, {"b5", 0.3f}}},
      {"j10", 0.7f, 0.2f, 0.1f, {}},
      {"a7", 0.1f, 0.1f, 0.8f, {{"a7", 0.5f}, {"o1", 0.5f}}},
  };
  return *plies;
}

pb::GameRecord AuxTargetGame() {
  pb::GameRecord record;
  record.set_uid("aux");
  record.set_variant(pb::RENJU);
  record.set_board_size(15);
  for (const char* move : {"h8", "a1", "h9", "a3"}) {
    record.add_plies()->set_move(Index(move));
  }
  record.set_opening_plies(4);
  for (const SearchedPly& p : AuxPlies()) {
    pb::GamePly* ply = record.add_plies();
    ply->set_move(Index(p.move));
    pb::SearchTarget* target = ply->mutable_target();
    target->set_root_win(p.win);
    target->set_root_draw(p.draw);
    target->set_root_loss(p.loss);
    target->set_full_search(!p.policy.empty());
    for (const auto& [point, prob] : p.policy) {
      target->add_policy_points(Index(point));
      target->add_policy_probs(prob);
    }
  }
  record.set_result(pb::BLACK_WIN);
  record.set_end_reason(pb::RESIGNATION);
  return record;
}

WindowParams AuxParams() {
  WindowParams params;
  params.aux_targets = true;
  params.short_value_horizon = 3;
  return params;
}

// Each position's opponent-policy target is the next ply's policy target
// under the same symmetry; a next ply without one (a fast search, or no
// next ply) gives weight 0 and an all-zero target.
TEST(ReplayWindowTest, OpponentPolicyIsTheNextPlysTarget) {
  const int size = 15, area = size * size;
  ReplayWindow window(size, AuxParams(), 1);
  ASSERT_TRUE(window.AddGame(1, AuxTargetGame()).ok());
  ASSERT_EQ(window.window_positions(), 4);
  TrainingBatch identity;
  identity.Reset(4, size, 1, true);
  for (int row = 0; row < 4; ++row) {
    window.WritePosition(row, kIdentity, row, identity);
  }
  EXPECT_EQ(identity.opponent_policy_weight, (std::vector<float>{1, 0, 1, 0}));
  for (int row = 0; row < 4; ++row) {
    // The reply's own policy target is the next row's policy target.
    const std::vector<float> expected =
        row == 0 || row == 2
            ? std::vector<float>(
                  identity.policy_target.begin() + (row + 1) * area,
                  identity.policy_target.begin() + (row + 2) * area)
            : std::vector<float>(area, 0.0f);
    EXPECT_EQ(std::vector<float>(
                  identity.opponent_policy_target.begin() + row * area,
                  identity.opponent_policy_target.begin() + (row + 1) * area),
              expected)
        << "row " << row;
  }
  EXPECT_FLOAT_EQ(identity.opponent_policy_target[Index("a5")], 0.7f);
  EXPECT_FLOAT_EQ(identity.opponent_policy_target[2 * area + Index("o1")],
                  0.5f);

  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    TrainingBatch batch;
    batch.Reset(4, size, 1, true);
    for (int row = 0; row < 4; ++row) window.WritePosition(row, s, row, batch);
    for (int row = 0; row < 4; ++row) {
      for (int from = 0; from < area; ++from) {
        const int to =
            PointIndex(ApplySymmetry(s, PointAt(from, size), size), size);
        ASSERT_EQ(batch.opponent_policy_target[row * area + to],
                  identity.opponent_policy_target[row * area + from])
            << "symmetry " << int{s} << " row " << row << " point " << from;
      }
    }
    EXPECT_EQ(batch.opponent_policy_weight, identity.opponent_policy_weight);
    EXPECT_EQ(batch.short_value_target, identity.short_value_target);
  }

  // A window without auxiliary targets samples batches without them.
  ReplayWindow plain(size, WindowParams{}, 1);
  ASSERT_TRUE(plain.AddGame(1, AuxTargetGame()).ok());
  TrainingBatch batch;
  plain.Sample(8, 1, batch);
  EXPECT_FALSE(batch.has_aux_targets());
  EXPECT_TRUE(batch.opponent_policy_target.empty());
}

// The two switches together: a version-2 window with auxiliary targets
// writes the version-2 planes and the same targets, auxiliary ones
// included, as a version-1 window does.
TEST(ReplayWindowTest, AuxTargetsAndVersionTwoPlanesTogether) {
  const int size = 15;
  ReplayWindow v1(size, AuxParams(), 1);
  ReplayWindow v2(size, AuxParams(), 2);
  ASSERT_TRUE(v1.AddGame(1, AuxTargetGame()).ok());
  ASSERT_TRUE(v2.AddGame(1, AuxTargetGame()).ok());
  TrainingBatch a, b;
  a.Reset(4, size, 1, true);
  b.Reset(4, size, 2, true);
  for (Symmetry s : {Symmetry{0}, Symmetry{5}}) {
    for (int row = 0; row < 4; ++row) {
      v1.WritePosition(row, s, row, a);
      v2.WritePosition(row, s, row, b);
    }
    EXPECT_EQ(a.policy_target, b.policy_target);
    EXPECT_EQ(a.wdl_target, b.wdl_target);
    EXPECT_EQ(a.opponent_policy_target, b.opponent_policy_target);
    EXPECT_EQ(a.opponent_policy_weight, b.opponent_policy_weight);
    EXPECT_EQ(a.short_value_target, b.short_value_target);
    // Version 2 begins with version 1's planes, row by row.
    const size_t f1 = EncodedSize(size, 1), f2 = EncodedSize(size, 2);
    for (size_t row = 0; row < 4; ++row) {
      EXPECT_TRUE(std::equal(a.planes.begin() + row * f1,
                             a.planes.begin() + (row + 1) * f1,
                             b.planes.begin() + row * f2))
          << "row " << row;
    }
  }
}

// T_t = sum_k (1 - lambda) lambda^k F^k(r_{t+k}) + lambda^(L-t) z_t, summed
// forwards here (the window computes it backwards), lambda = 1 - 1/3.
TEST(ReplayWindowTest, ShortTermValueFollowsTheFormula) {
  ReplayWindow window(15, AuxParams(), 1);
  ASSERT_TRUE(window.AddGame(1, AuxTargetGame()).ok());
  TrainingBatch batch;
  batch.Reset(4, 15, 1, true);
  for (int row = 0; row < 4; ++row) {
    window.WritePosition(row, kIdentity, row, batch);
  }
  const double lambda = 2.0 / 3;
  const int first_ply = 4, plies = 8;
  for (int t = first_ply; t < plies; ++t) {
    double expected[3] = {0, 0, 0};
    for (int k = 0; t + k < plies; ++k) {
      const SearchedPly& r = AuxPlies()[t + k - first_ply];
      const bool flip = k % 2 == 1;  // the other side's view
      const double weight = (1 - lambda) * std::pow(lambda, k);
      expected[0] += weight * (flip ? r.loss : r.win);
      expected[1] += weight * r.draw;
      expected[2] += weight * (flip ? r.win : r.loss);
    }
    // Black (to move at even plies) won.
    expected[t % 2 == 0 ? 0 : 2] += std::pow(lambda, plies - t);
    const int row = t - first_ply;
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(batch.short_value_target[row * 3 + j], expected[j], 1e-6)
          << "ply " << t << " component " << j;
    }
  }
  // By hand: the last ply, white to move, white lost:
  //   T_7 = 1/3 (0.1, 0.1, 0.8) + 2/3 (0, 0, 1);
  // the one before, a fast search (still a root value), black to move:
  //   T_6 = 1/3 (0.7, 0.2, 0.1) + 2/3 F(T_7).
  const std::vector<float> last(batch.short_value_target.begin() + 9,
                                batch.short_value_target.end());
  EXPECT_NEAR(last[0], 0.1 / 3, 1e-6);
  EXPECT_NEAR(last[1], 0.1 / 3, 1e-6);
  EXPECT_NEAR(last[2], 0.8 / 3 + 2.0 / 3, 1e-6);
  EXPECT_NEAR(batch.short_value_target[6], 0.7 / 3 + 2.0 / 3 * last[2], 1e-6);
  EXPECT_NEAR(batch.short_value_target[7], 0.2 / 3 + 2.0 / 3 * last[1], 1e-6);
  EXPECT_NEAR(batch.short_value_target[8], 0.1 / 3 + 2.0 / 3 * last[0], 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Versions, ReplayWindowSymmetryTest,
                         ::testing::Values(1, 2));

// The trainer sees exactly what inference sees: a sampled row equals
// EncodePosition of the same position, threat planes included.
TEST(ReplayWindowTest, VersionTwoRowsMatchEncodePosition) {
  const int size = 15, floats = EncodedSize(size, 2);
  ReplayWindow window(size, WindowParams{}, 2);
  ASSERT_TRUE(window.AddGame(1, ForbiddenPointGame()).ok());
  TrainingBatch batch;
  batch.Reset(2, size, 2, false);
  window.WritePosition(0, kIdentity, 0, batch);
  window.WritePosition(1, kIdentity, 1, batch);

  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList("g8 a1 h8 a3 i9 a5 i10 a7 c13", size);
  ASSERT_TRUE(moves.ok()) << moves.status();
  for (int row = 0; row < 2; ++row) {
    absl::StatusOr<Game> game = Game::FromMoves(
        Variant::kRenju, size,
        std::vector<Move>(moves->begin(), moves->begin() + 8 + row));
    ASSERT_TRUE(game.ok()) << game.status();
    std::vector<float> expected(floats);
    EncodePosition(*game, 2, expected.data());
    EXPECT_EQ(std::vector<float>(batch.planes.begin() + row * floats,
                                 batch.planes.begin() + (row + 1) * floats),
              expected)
        << "row " << row;
  }
  // Black to move: i8 is forbidden, so not black's (own) three point,
  // although g8-h8 and i9-i10 both become threes there.
  const int area = size * size;
  EXPECT_EQ(batch.planes[kOwnThreePlane * area + Index("i8")], 0.0f);
  EXPECT_EQ(batch.planes[kOwnThreePlane * area + Index("f8")], 1.0f);
  // White to move: the same holds on the opponent's planes.
  EXPECT_EQ(batch.planes[floats + kOpponentThreePlane * area + Index("i8")],
            0.0f);
  EXPECT_EQ(batch.planes[floats + kOpponentThreePlane * area + Index("f8")],
            1.0f);
}

TEST(ReplayWindowTest, RestoreRebuildsTheSameWindow) {
  const WindowParams params{150, 0.75, 0.4};
  ReplayWindow original(15, params, 1);
  std::vector<std::pair<int64_t, std::string>> stored;
  for (int i = 1; i <= 30; ++i) {
    stored.emplace_back(i, SyntheticGame(i).SerializeAsString());
    ASSERT_TRUE(original.AddGame(i, stored.back().second).ok());
  }
  std::vector<std::pair<int64_t, std::string>> held(
      stored.begin() + (original.first_game_id() - 1), stored.end());
  ReplayWindow restored(15, params, 1);
  ASSERT_TRUE(restored.Restore(original.total_positions(), held).ok());
  EXPECT_EQ(restored.total_positions(), original.total_positions());
  EXPECT_EQ(restored.window_positions(), original.window_positions());
  EXPECT_EQ(restored.first_game_id(), original.first_game_id());
  TrainingBatch from_original, from_restored;
  original.Sample(64, 3, from_original);
  restored.Sample(64, 3, from_restored);
  EXPECT_EQ(from_original.planes, from_restored.planes);
  EXPECT_EQ(from_original.policy_target, from_restored.policy_target);

  // Threads share the work without changing the batch.
  TrainingBatch threaded;
  restored.Sample(64, 3, threaded, 3);
  EXPECT_EQ(threaded.planes, from_original.planes);
  EXPECT_EQ(threaded.policy_target, from_original.policy_target);
  EXPECT_EQ(threaded.wdl_target, from_original.wdl_target);

  // A saved count smaller than the games' positions means a damaged store.
  ReplayWindow bad(15, params, 1);
  EXPECT_EQ(bad.Restore(3, held).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace renju
