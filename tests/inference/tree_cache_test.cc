// The server's tree reuse: TreeCache's bounds (trees, visits, age, model)
// with a fake evaluator, and Suggest reporting the visits it reused.
#include "inference/tree_cache.h"

#include <memory>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using testing::MovesPosition;

// A finished search of `visits` at the game of `moves`.
std::unique_ptr<Search> Searched(Evaluator& evaluator,
                                 const std::vector<Move>& moves,
                                 int64_t visits) {
  absl::StatusOr<Game> game = Game::FromMoves(Variant::kRenju, 15, moves);
  EXPECT_TRUE(game.ok()) << game.status();
  SearchParams params;
  params.max_visits = visits;
  auto search = std::make_unique<Search>(params, evaluator, *game);
  Random rng(1);
  EXPECT_TRUE(search->Run(rng).ok());
  return search;
}

std::vector<Move> Moves(const std::string& text) {
  absl::StatusOr<std::vector<Move>> moves = ParseMoveList(text, 15);
  EXPECT_TRUE(moves.ok()) << moves.status();
  return *moves;
}

Game GameOf(const std::string& text) {
  return *Game::FromMoves(Variant::kRenju, 15, Moves(text));
}

class TreeCacheTest : public ::testing::Test {
 protected:
  FixedEvaluator evaluator_;
  std::shared_ptr<const int> model_ = std::make_shared<const int>(1);
  const absl::Time t0_ = absl::FromUnixSeconds(1000000);
};

TEST_F(TreeCacheTest, AContinuedPositionTakesTheAdvancedTree) {
  TreeCache cache(TreeCacheLimits{});
  cache.Put(Searched(evaluator_, Moves("h8"), 200), model_, t0_);
  EXPECT_EQ(cache.size(), 1);
  // Another model's request does not get it, and drops it.
  const auto other = std::make_shared<const int>(2);
  EXPECT_EQ(cache.Take(GameOf("h8 h9"), other.get(), t0_), nullptr);
  EXPECT_EQ(cache.size(), 0);

  cache.Put(Searched(evaluator_, Moves("h8"), 200), model_, t0_);
  EXPECT_EQ(cache.Take(GameOf("i8 h9"), model_.get(), t0_), nullptr);
  std::unique_ptr<Search> search =
      cache.Take(GameOf("h8 h9"), model_.get(), t0_);
  ASSERT_NE(search, nullptr);
  EXPECT_EQ(search->game().hash(), GameOf("h8 h9").hash());
  EXPECT_EQ(cache.size(), 0) << "a taken tree is the request's alone";
}

TEST_F(TreeCacheTest, PrefersTheLongestContinuedGame) {
  TreeCache cache(TreeCacheLimits{});
  cache.Put(Searched(evaluator_, Moves("h8"), 50), model_, t0_);
  cache.Put(Searched(evaluator_, Moves("h8 h9 i9"), 50), model_, t0_);
  std::unique_ptr<Search> search =
      cache.Take(GameOf("h8 h9 i9 i10"), model_.get(), t0_);
  ASSERT_NE(search, nullptr);
  EXPECT_EQ(cache.size(), 1);
  std::unique_ptr<Search> left = cache.Take(GameOf("h8"), model_.get(), t0_);
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->game().ply(), 1);
}

TEST_F(TreeCacheTest, EvictsByCountVisitsAndAge) {
  TreeCacheLimits limits;
  limits.max_trees = 2;
  limits.max_visits = 1000;
  limits.max_age = absl::Seconds(60);
  TreeCache cache(limits);
  cache.Put(Searched(evaluator_, Moves("h8"), 100), model_, t0_);
  cache.Put(Searched(evaluator_, Moves("a1"), 100), model_,
            t0_ + absl::Seconds(1));
  cache.Put(Searched(evaluator_, Moves("o15"), 100), model_,
            t0_ + absl::Seconds(2));
  EXPECT_EQ(cache.size(), 2) << "the oldest of three went";
  EXPECT_EQ(cache.Take(GameOf("h8"), model_.get(), t0_ + absl::Seconds(2)),
            nullptr);
  EXPECT_LE(cache.visits(), 1000);

  // A tree bigger than the visit bound does not stay, nor push out others
  // beyond what it needs.
  cache.Put(Searched(evaluator_, Moves("h7"), 1200), model_,
            t0_ + absl::Seconds(3));
  EXPECT_LE(cache.visits(), 1000);

  // Age: a minute after their last use, trees are dropped.
  TreeCache aged(limits);
  aged.Put(Searched(evaluator_, Moves("h8"), 50), model_, t0_);
  EXPECT_EQ(aged.Take(GameOf("h8 h9"), model_.get(), t0_ + absl::Seconds(61)),
            nullptr);
  EXPECT_EQ(aged.size(), 0);
}

// --- Through the service -----------------------------------------------------

class TreeReuseServiceTest : public testing::InferenceServiceTest {};

TEST_F(TreeReuseServiceTest, ASuggestContinuingAnEarlierOneReusesItsTree) {
  config_.mutable_server()->set_tree_cache_trees(4);
  StartWithModel1();
  pb::SuggestRequest request;
  *request.mutable_position() = MovesPosition({"h8", "h9"});
  request.set_visits(200);
  pb::SuggestResponse first;
  ASSERT_TRUE(Suggest(request, &first).ok());
  EXPECT_EQ(first.reused_visits(), 0);
  EXPECT_EQ(first.visits(), 200);

  // Continue with the move it suggested and a reply it searched.
  std::vector<std::string> names = {"h8", "h9"};
  const int size = 15;
  for (int index : {first.best_move(), first.principal_variation_size() > 1
                                           ? first.principal_variation(1)
                                           : -1}) {
    if (index < 0) break;
    names.push_back(PointName(Point(index % size, index / size)));
  }
  ASSERT_EQ(names.size(), 4u) << "no reply searched";
  std::vector<const char*> moves;
  for (const std::string& n : names) moves.push_back(n.c_str());
  *request.mutable_position() = MovesPosition(moves);
  pb::SuggestResponse second;
  ASSERT_TRUE(Suggest(request, &second).ok());
  EXPECT_GT(second.reused_visits(), 0);
  EXPECT_EQ(second.visits(), 200);

  // Off by default: nothing reused.
  config_.mutable_server()->set_tree_cache_trees(0);
  server_->Shutdown();
  StartWithModel1();
  ASSERT_TRUE(Suggest(request, &second).ok());
  ASSERT_TRUE(Suggest(request, &second).ok());
  EXPECT_EQ(second.reused_visits(), 0);
}

}  // namespace
}  // namespace renju
