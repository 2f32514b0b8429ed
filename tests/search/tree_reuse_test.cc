// Play-time search: tree reuse against fresh searches, the reused-visit
// count, changing settings between runs, and TimeBudgetStopper's rules.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "search/search.h"
#include "search/stoppers.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Pt;

using testing::Params;

// The most visited child of the root's child for `move`: the reply the
// tree expects.
Move ExpectedReply(const Search& search, Move move) {
  for (const Edge& e : search.root().edges) {
    if (e.move != move || !e.child) continue;
    const Node& child = *e.child;
    Move best = Move::Pass();
    int64_t most = -1;
    for (const Edge& r : child.edges) {
      const int64_t n = r.child ? r.child->n : 0;
      if (n > most) {
        most = n;
        best = r.move;
      }
    }
    return best;
  }
  return Move::Pass();
}

// The first `k` moves of a result by visits.
std::vector<Move> TopMoves(const SearchResult& r, size_t k) {
  std::vector<Move> out;
  for (size_t i = 0; i < std::min(k, r.children.size()); ++i) {
    out.push_back(r.children[i].move);
  }
  return out;
}

TEST(TreeReuseTest, ReusedSearchChoosesLikeAFreshOneOfTheSameVisits) {
  constexpr int64_t kVisits = 600;
  const Game openings[] = {MakeGame("h8", ""), MakeGame("h8 j9", "i9"),
                           MakeGame("h8 g9 j8", "i9 h9"),
                           MakeGame("h8 i8", "h9 i10")};
  int same = 0;
  int total = 0;
  for (const Game& opening : openings) {
    for (uint64_t seed : {1, 2, 3}) {
      RandomEvaluator evaluator(seed);
      Search reused(Params(kVisits), evaluator, opening);
      Random rng(seed);
      absl::StatusOr<SearchResult> first = reused.Run(rng);
      ASSERT_TRUE(first.ok()) << first.status();
      const Move mine = first->best_move;
      const Move reply = ExpectedReply(reused, mine);
      ASSERT_FALSE(reply.is_pass());
      ASSERT_TRUE(reused.Advance(mine).ok());
      ASSERT_TRUE(reused.Advance(reply).ok());
      absl::StatusOr<SearchResult> second = reused.Run(rng);
      ASSERT_TRUE(second.ok()) << second.status();
      EXPECT_GT(second->reused_visits, 0);
      EXPECT_EQ(second->reused_visits + second->playouts, kVisits);
      EXPECT_EQ(second->total_visits, kVisits);

      Search fresh(Params(kVisits), evaluator, reused.game());
      Random fresh_rng(seed);
      absl::StatusOr<SearchResult> check = fresh.Run(fresh_rng);
      ASSERT_TRUE(check.ok()) << check.status();
      EXPECT_EQ(check->reused_visits, 0);
      const std::vector<Move> top = TopMoves(*check, 3);
      EXPECT_NE(std::find(top.begin(), top.end(), second->best_move), top.end())
          << MoveName(second->best_move) << " after " << MoveName(mine) << " "
          << MoveName(reply) << ", seed " << seed;
      same += second->best_move == check->best_move;
      ++total;
    }
  }
  // Mostly the very same move.
  EXPECT_GE(same * 4, total * 3) << same << " of " << total;
}

// Counts how many threads are inside Evaluate at once; once armed, the
// next call waits (up to a minute, which only a failing test reaches) until
// a second thread has come in too.
class ConcurrencyEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++inside_;
      max_inside_ = std::max(max_inside_, inside_);
      changed_.notify_all();
      if (armed_) {
        changed_.wait_for(lock, std::chrono::seconds(60),
                          [this] { return max_inside_ >= 2; });
        armed_ = false;
      }
    }
    const absl::Status s = inner_.Evaluate(game, out);
    std::lock_guard<std::mutex> lock(mutex_);
    --inside_;
    return s;
  }
  void Arm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    max_inside_ = 0;
  }
  int max_inside() {
    std::lock_guard<std::mutex> lock(mutex_);
    return max_inside_;
  }

 private:
  FixedEvaluator inner_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int inside_ = 0;
  int max_inside_ = 0;
  bool armed_ = false;
};

TEST(TreeReuseTest, SetParamsChangesTheThreadsAndKeepsTheTree) {
  ConcurrencyEvaluator evaluator;
  Game game = MakeGame("h8", "");
  Search search(Params(50), evaluator, game);
  Random rng(1);
  ASSERT_TRUE(search.Run(rng).ok());
  EXPECT_EQ(evaluator.max_inside(), 1);
  const int64_t before = search.root().n;

  SearchParams two = Params(400);
  two.num_threads = 2;
  search.SetParams(two);
  evaluator.Arm();
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(evaluator.max_inside(), 2) << "two threads evaluated at once";
  EXPECT_EQ(r->reused_visits, before - 1);
  EXPECT_EQ(r->total_visits, 400);
  EXPECT_EQ(search.params().num_threads, 2);

  search.SetParams(Params(500));
  r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->reused_visits, 400);
  EXPECT_EQ(r->total_visits, 500);
}

TEST(TreeReuseTest, ContinuesGameNeedsTheEarlierMovesFirst) {
  const Game earlier = MakeGame("h8", "i9");
  Game later = earlier;
  ASSERT_TRUE(later.Play(Move::At(Pt("j10"))).ok());
  EXPECT_TRUE(ContinuesGame(later, earlier));
  EXPECT_TRUE(ContinuesGame(earlier, earlier));
  EXPECT_FALSE(ContinuesGame(earlier, later));
  EXPECT_FALSE(ContinuesGame(MakeGame("h8", "i10"), earlier));
  EXPECT_FALSE(ContinuesGame(
      MakeGame("h8", "i9", Color::kBlack, Variant::kFreestyle), earlier));
}

TEST(TreeReuseTest, AdvanceToKeepsTheSubtreeTwoMovesOn) {
  RandomEvaluator evaluator(7);
  Search search(Params(400), evaluator, MakeGame("h8", ""));
  Random rng(1);
  absl::StatusOr<SearchResult> first = search.Run(rng);
  ASSERT_TRUE(first.ok()) << first.status();
  // The expected line: white's best reply, then black's best answer to it.
  const Move reply = first->best_move;
  const Move answer = ExpectedReply(search, reply);
  ASSERT_FALSE(answer.is_pass());
  const Node* grandchild = nullptr;
  for (const Edge& e : search.root().edges) {
    if (e.move != reply || !e.child) continue;
    for (const Edge& r : e.child->edges) {
      if (r.move == answer) grandchild = r.child.get();
    }
  }
  ASSERT_NE(grandchild, nullptr);
  Game later = search.game();
  ASSERT_TRUE(later.Play(reply).ok());
  ASSERT_TRUE(later.Play(answer).ok());

  ASSERT_TRUE(search.AdvanceTo(later).ok());
  EXPECT_EQ(&search.root(), grandchild) << "the same node becomes the root";
  EXPECT_EQ(search.game().hash(), later.hash());
  // Already there: nothing to do.
  EXPECT_TRUE(search.AdvanceTo(later).ok());
  EXPECT_EQ(&search.root(), grandchild);
  // Not a continuation: refused, and the search is where it was.
  const absl::Status refused = search.AdvanceTo(MakeGame("h8", "i9"));
  EXPECT_TRUE(absl::IsInvalidArgument(refused)) << refused;
  EXPECT_EQ(search.game().hash(), later.hash());
}

// --- TimeBudgetStopper -------------------------------------------------------

SearchProgress Progress(int64_t visits, int64_t reused, int64_t best,
                        int64_t second, int64_t elapsed_ms) {
  SearchProgress p;
  p.root_child_visits = visits;
  p.reused_visits = reused;
  p.best_visits = best;
  p.second_visits = second;
  p.elapsed_ms = elapsed_ms;
  p.num_root_moves = 20;
  return p;
}

TEST(TimeBudgetStopperTest, StopsAtTheMaximum) {
  const TimeBudgetStopper stopper(100, 400, 0);
  EXPECT_FALSE(stopper.ShouldStop(Progress(100, 0, 40, 40, 399)));
  EXPECT_TRUE(stopper.ShouldStop(Progress(100, 0, 40, 40, 400)));
}

TEST(TimeBudgetStopperTest, StopsWhenTheRunnerUpCannotCatchUp) {
  const TimeBudgetStopper stopper(1000, 1000, 0);
  // 1,000 visits in 100 ms: 9,000 more to come; a lead of 9,001 is safe.
  EXPECT_FALSE(stopper.ShouldStop(Progress(1000, 0, 9000, 0, 100)));
  EXPECT_TRUE(stopper.ShouldStop(Progress(1000, 0, 9002, 0, 100)));
  // Reused visits are not this run's rate: 100 new visits in 100 ms.
  EXPECT_TRUE(stopper.ShouldStop(Progress(1100, 1000, 1000, 50, 100)));
  // Too early to trust the rate.
  EXPECT_FALSE(stopper.ShouldStop(Progress(10, 0, 10, 0, 5)));
  // A visit budget ends sooner than the time.
  const TimeBudgetStopper visits(1000, 1000, 1200);
  EXPECT_TRUE(visits.ShouldStop(Progress(1000, 0, 700, 300, 100)));
  EXPECT_FALSE(visits.ShouldStop(Progress(1000, 0, 500, 300, 100)));
  // A single move: nothing to choose, the other rules decide.
  SearchProgress single = Progress(1000, 0, 1000, 0, 100);
  single.num_root_moves = 1;
  EXPECT_FALSE(stopper.ShouldStop(single));
}

TEST(TimeBudgetStopperTest, PastTheOptimumOnlyAnOpenChoiceGoesOn) {
  const TimeBudgetStopper stopper(100, 10000, 0);
  EXPECT_FALSE(stopper.ShouldStop(Progress(300, 0, 200, 90, 99)));
  EXPECT_TRUE(stopper.ShouldStop(Progress(300, 0, 200, 90, 100)));
  EXPECT_FALSE(stopper.ShouldStop(Progress(300, 0, 150, 140, 100)));
}

}  // namespace
}  // namespace renju
