// Minibatch gathering (SearchParams::minibatch_size): one search thread
// collects several new leaves under virtual loss and evaluates them in one
// Evaluator::EvaluateBatch call. What a user relies on: the budget is kept
// exactly, the batches really are batches of distinct positions, tactics
// still decide, a seeded search is still reproducible, and an evaluator
// failure leaves a tree that searches again.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "search/evaluation_queue.h"
#include "search/fake_evaluators.h"
#include "search/legal_moves.h"
#include "search/search.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Params;
using testing::Pt;

// Visits of each root move, by policy index (the pass last).
std::vector<int64_t> RootVisits(const SearchResult& r) {
  std::vector<int64_t> out(15 * 15 + 1, 0);
  for (const ChildStats& c : r.children) {
    out[c.move.is_pass() ? 15 * 15 : PolicyIndex(c.move.point(), 15)] =
        c.visits;
  }
  return out;
}

// Playouts in flight anywhere in the tree; 0 between runs.
int64_t TreeInFlight(const Node& node) {
  int64_t sum = node.n_in_flight;
  for (const Edge& e : node.edges) {
    if (e.child) sum += TreeInFlight(*e.child);
  }
  return sum;
}

SearchParams Gathering(int64_t visits, int minibatch) {
  SearchParams p = Params(visits);
  p.minibatch_size = minibatch;
  return p;
}

// Answers as RandomEvaluator does and records every EvaluateBatch call:
// its size and whether its positions were distinct.
class BatchRecordingEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    return inner_.Evaluate(game, out);
  }
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override {
    std::set<uint64_t> hashes;
    for (Game* g : games) hashes.insert(g->hash());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes_.push_back(games.size());
      if (hashes.size() != games.size()) ++batches_with_repeats_;
    }
    return Evaluator::EvaluateBatch(games, outs);
  }

  std::vector<size_t> sizes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return sizes_;
  }
  int batches_with_repeats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return batches_with_repeats_;
  }

 private:
  RandomEvaluator inner_{5};
  mutable std::mutex mutex_;
  std::vector<size_t> sizes_;
  int batches_with_repeats_ = 0;
};

TEST(MinibatchTest, GatheringKeepsTheVisitBudgetExactly) {
  Game game = MakeGame("h8 i9", "h9 i8");
  for (int64_t visits : {1, 2, 17, 300}) {
    SCOPED_TRACE(visits);
    RandomEvaluator evaluator(3);
    Search search(Gathering(visits, 8), evaluator, game);
    Random rng(1);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->total_visits, visits);
    int64_t sum = 0;
    for (const ChildStats& c : r->children) sum += c.visits;
    EXPECT_EQ(sum, visits);
    EXPECT_EQ(search.root().n, visits + 1);
    EXPECT_EQ(TreeInFlight(search.root()), 0);
  }
}

TEST(MinibatchTest, LeavesGoToTheEvaluatorTogetherAndDistinct) {
  // Without tactics every new leaf needs the evaluator.
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Gathering(400, 8);
  params.tactics = false;
  BatchRecordingEvaluator evaluator;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<size_t> sizes = evaluator.sizes();
  ASSERT_FALSE(sizes.empty());
  size_t total = 0;
  for (size_t s : sizes) total += s;
  // Every visit is a new leaf here, evaluated once: no collision is
  // evaluated twice, and no batch holds a position twice.
  EXPECT_EQ(total, 400u);
  EXPECT_EQ(evaluator.batches_with_repeats(), 0);
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), 8u);
  // Virtual loss spreads the descents, so batches are mostly full.
  EXPECT_LE(sizes.size(), 400u / 4) << "batches of under 4 on average";
}

TEST(MinibatchTest, MinibatchOfOneAsksOneLeafAtATime) {
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Gathering(50, 1);
  params.tactics = false;
  BatchRecordingEvaluator evaluator;
  Search search(params, evaluator, game);
  Random rng(1);
  ASSERT_TRUE(search.Run(rng).ok());
  for (size_t s : evaluator.sizes()) EXPECT_EQ(s, 1u);
}

TEST(MinibatchTest, ASmallBudgetGathersAFixedShareOfIt) {
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Gathering(160, 16);
  params.tactics = false;
  BatchRecordingEvaluator evaluator;
  Search search(params, evaluator, game);
  Random rng(1);
  ASSERT_TRUE(search.Run(rng).ok());
  const std::vector<size_t> sizes = evaluator.sizes();
  ASSERT_FALSE(sizes.empty());
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()),
            160u / kMinVisitsPerGatheredLeaf);
}

TEST(MinibatchTest, GatheredSearchWithASeedIsDeterministic) {
  Game game = MakeGame("h8 i9 j7", "h9 i8");
  SearchParams params = Gathering(500, 16);
  params.root_noise = true;
  auto run = [&](uint64_t seed) {
    RandomEvaluator evaluator(11);
    Search search(params, evaluator, game);
    Random rng(seed);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? RootVisits(*r) : std::vector<int64_t>{};
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

TEST(MinibatchTest, GatheredSearchPlaysTactics) {
  Game game = MakeGame("d4 e5 g7 i8 j8 a15", "c3 o1 o3 o5 o7");
  FixedEvaluator evaluator;
  Search search(Gathering(200, 16), evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->tactic, Tactic::kVcf);
  EXPECT_EQ(r->best_move, Move::At(Pt("h8")));
}

TEST(MinibatchTest, LeavesSolvedByTacticsAreBackedUpWithoutTheEvaluator) {
  // As SearchTest.EveryMoveLosingProvesTheRootLost: every white move
  // leaves black a VCF, each child is solved on its first visit, and the
  // root is proven lost after exactly one visit per move. Gathering must
  // not evaluate or double-count those leaves.
  Game game = MakeGame("g8 h8 i8 i9 i10", "a1 o15 a15 o1", Color::kWhite,
                       Variant::kFreestyle);
  BatchRecordingEvaluator evaluator;
  Search search(Gathering(1000, 16), evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->proof, Proof::kLoss);
  EXPECT_EQ(r->total_visits, 225 - 9);
  for (const ChildStats& c : r->children) EXPECT_EQ(c.visits, 1);
  EXPECT_TRUE(evaluator.sizes().empty()) << "only the root was evaluated";
}

TEST(MinibatchTest, TwoThreadsGatheringKeepTheBudget) {
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Gathering(600, 8);
  params.num_threads = 2;
  RandomEvaluator evaluator(4);
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->total_visits, 600);
  EXPECT_EQ(search.root().n, 601);
  EXPECT_EQ(search.root().n_in_flight, 0);
}

// Fails every batch call after the first `good` ones, until Heal().
class FailingBatchEvaluator : public Evaluator {
 public:
  explicit FailingBatchEvaluator(int good) : good_(good) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    return inner_.Evaluate(game, out);
  }
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override {
    if (!healed_ && good_-- <= 0) {
      return absl::UnavailableError("server went away");
    }
    return Evaluator::EvaluateBatch(games, outs);
  }
  void Heal() { healed_ = true; }

 private:
  RandomEvaluator inner_{6};
  int good_;
  bool healed_ = false;
};

TEST(MinibatchTest, AFailedBatchLeavesATreeThatSearchesOn) {
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Gathering(300, 8);
  params.tactics = false;
  FailingBatchEvaluator evaluator(5);
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> failed = search.Run(rng);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable)
      << failed.status();
  EXPECT_EQ(TreeInFlight(search.root()), 0);
  // What the five good batches backed up stays in the tree.
  EXPECT_GT(search.root().n, 1);
  EXPECT_LE(search.root().n, 1 + 5 * 8);
  evaluator.Heal();
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->total_visits, 300);
  EXPECT_EQ(TreeInFlight(search.root()), 0);
}

TEST(EvaluationQueueTest, APushedBatchIsTakenWithoutWaitingForMore) {
  // A deadline of an hour: TakeBatch returns at once only because the
  // batch was pushed as due.
  EvaluationQueue queue(/*max_batch_size=*/32, /*max_wait_us=*/3600000000LL,
                        "closed");
  PendingEvaluation requests[3];
  std::vector<PendingEvaluation*> batch_in = {&requests[0], &requests[1],
                                              &requests[2]};
  ASSERT_TRUE(queue.PushBatch(batch_in).ok());
  std::vector<PendingEvaluation*> taken;
  ASSERT_TRUE(queue.TakeBatch(taken));
  EXPECT_EQ(taken, batch_in);
  queue.Close();
  EXPECT_EQ(queue.PushBatch(batch_in).code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace renju
