// Root noise, playout-cap randomisation, forced playouts with policy target
// pruning, move choice, stop rules and the multi-threaded mode.
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <thread>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "search/legal_moves.h"
#include "search/search.h"
#include "search/stoppers.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Pt;

using testing::Params;

// The evaluator's priors for `game`, indexed like Evaluation::policy.
std::vector<float> RawPriors(Evaluator& evaluator, const Game& game) {
  Game copy = game;
  Evaluation eval;
  EXPECT_TRUE(evaluator.Evaluate(copy, eval).ok());
  return eval.policy;
}

float PriorSum(const Node& node) {
  float sum = 0;
  for (const Edge& e : node.edges) sum += e.prior;
  return sum;
}

TEST(SearchFeaturesTest, RootNoiseChangesOnlyTheRootPriors) {
  Game game = MakeGame("h8", "");
  RandomEvaluator evaluator(5);
  SearchParams params = Params(200);
  params.root_noise = true;
  Search search(params, evaluator, game);
  Random rng(9);
  ASSERT_TRUE(search.Run(rng).ok());

  const std::vector<float> raw = RawPriors(evaluator, game);
  const Node& root = search.root();
  EXPECT_NEAR(PriorSum(root), 1.0f, 1e-4f);
  double changed = 0;
  for (const Edge& e : root.edges) {
    changed += std::fabs(e.prior - raw[PolicyIndex(e.move.point(), 15)]);
  }
  EXPECT_GT(changed, 0.05);

  // Below the root, priors are the evaluator's.
  int children_checked = 0;
  for (const Edge& e : root.edges) {
    if (!e.child || e.child->edges.empty()) continue;
    Game child_game = game;
    ASSERT_TRUE(child_game.Play(e.move).ok());
    const std::vector<float> child_raw = RawPriors(evaluator, child_game);
    EXPECT_NEAR(PriorSum(*e.child), 1.0f, 1e-4f);
    for (const Edge& ce : e.child->edges) {
      ASSERT_NEAR(ce.prior, child_raw[PolicyIndex(ce.move.point(), 15)], 1e-6f);
    }
    ++children_checked;
  }
  EXPECT_GT(children_checked, 0);
}

TEST(SearchFeaturesTest, NoiseIsDrawnAfreshNotStacked) {
  Game game = MakeGame("h8", "");
  RandomEvaluator evaluator(5);
  SearchParams params = Params(50);
  params.root_noise = true;
  Search search(params, evaluator, game);
  Random rng(9);
  ASSERT_TRUE(search.Run(rng).ok());
  // A second run on the same root restores the raw priors before mixing
  // in new noise, so at least 75% of each prior is the raw one.
  ASSERT_TRUE(search.Run(rng).ok());
  const std::vector<float> raw = RawPriors(evaluator, game);
  for (const Edge& e : search.root().edges) {
    EXPECT_GE(e.prior, 0.75f * raw[PolicyIndex(e.move.point(), 15)] - 1e-6f);
  }
}

TEST(SearchFeaturesTest, PlayoutCapRandomisationMarksFastMoves) {
  Game game = MakeGame("h8 i9", "h9");
  RandomEvaluator evaluator(3);
  SearchParams params = Params(64);
  params.playout_cap_randomisation = true;
  params.full_search_probability = 0.5f;
  params.cheap_visits = 8;
  params.root_noise = true;
  const std::vector<float> raw = RawPriors(evaluator, game);
  Random rng(21);
  int full = 0;
  int cheap = 0;
  for (int i = 0; i < 30; ++i) {
    Search search(params, evaluator, game);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    ASSERT_TRUE(r.ok()) << r.status();
    if (r->full_search) {
      ++full;
      EXPECT_EQ(r->total_visits, 64);
    } else {
      ++cheap;
      EXPECT_EQ(r->total_visits, 8);
      // Fast moves get no noise.
      for (const Edge& e : search.root().edges) {
        ASSERT_EQ(e.prior, raw[PolicyIndex(e.move.point(), 15)]);
      }
    }
  }
  EXPECT_GT(full, 5);
  EXPECT_GT(cheap, 5);
}

TEST(SearchFeaturesTest, ForcedPlayoutsArePrunedFromThePolicyTarget) {
  Game game = MakeGame("h8 i9", "h9");
  RandomEvaluator evaluator(3);
  SearchParams params = Params(400);
  params.forced_playouts_k = 2.0f;
  params.policy_target_pruning = true;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->total_visits, 400);

  // Every visited child got about its forced share sqrt(k P N).
  for (const ChildStats& c : r->children) {
    if (c.visits == 0) continue;
    EXPECT_GE(c.visits + 2, std::sqrt(2.0 * c.prior * 400)) << MoveName(c.move);
  }
  // The most visited child keeps all its visits; others lose some, and
  // the target is the pruned visits, not the raw ones.
  const ChildStats& best = r->children.front();
  EXPECT_EQ(best.target_visits, best.visits);
  int64_t target_total = 0;
  int pruned_to_zero = 0;
  for (const ChildStats& c : r->children) {
    EXPECT_LE(c.target_visits, c.visits);
    target_total += c.target_visits;
    if (c.visits > 0 && c.target_visits == 0) ++pruned_to_zero;
  }
  EXPECT_LT(target_total, r->total_visits);
  EXPECT_GT(pruned_to_zero, 0);
  float sum = 0;
  for (const ChildStats& c : r->children) {
    const float t = r->policy_target[PolicyIndex(c.move.point(), 15)];
    EXPECT_NEAR(t, static_cast<float>(c.target_visits) / target_total, 1e-6f);
    sum += t;
  }
  EXPECT_NEAR(sum, 1.0f, 1e-5f);
  const int best_index = PolicyIndex(best.move.point(), 15);
  EXPECT_GT(r->policy_target[best_index], r->visit_distribution[best_index]);
}

TEST(SearchFeaturesTest, ForcedPlayoutsWidenTheSearch) {
  Game game = MakeGame("h8 i9", "h9");
  auto visited_children = [&](float k) {
    RandomEvaluator evaluator(3);
    SearchParams params = Params(400);
    params.forced_playouts_k = k;
    Search search(params, evaluator, game);
    Random rng(1);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    EXPECT_TRUE(r.ok());
    int at_least_three = 0;
    for (const ChildStats& c : r->children) at_least_three += c.visits >= 3;
    return at_least_three;
  };
  EXPECT_GT(visited_children(2.0f), visited_children(0.0f));
}

TEST(SearchFeaturesTest, TemperatureSamplesInProportionToVisits) {
  SearchResult r;
  ChildStats a;
  a.move = Move::At(Pt("h8"));
  a.visits = a.target_visits = 30;
  ChildStats b;
  b.move = Move::At(Pt("i9"));
  b.visits = b.target_visits = 10;
  r.children = {a, b};
  r.best_move = a.move;
  SearchParams params;
  params.temperature_early = 1.0f;
  params.temperature_final = 1.0f;
  Random rng(5);
  int picked_a = 0;
  for (int i = 0; i < 4000; ++i) {
    picked_a += ChooseMove(r, params, 0, rng) == a.move;
  }
  EXPECT_NEAR(picked_a / 4000.0, 0.75, 0.03);

  params.temperature_early = 0.0f;
  params.temperature_final = 0.0f;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(ChooseMove(r, params, 0, rng), a.move);
}

TEST(SearchFeaturesTest, TemperatureDecaysWithItsHalfLife) {
  SearchParams params;
  params.temperature_early = 1.0f;
  params.temperature_final = 0.2f;
  params.temperature_halflife_plies = 10.0f;
  EXPECT_NEAR(MoveTemperature(params, 0), 1.0, 1e-6);
  EXPECT_NEAR(MoveTemperature(params, 10), 0.6, 1e-6);
  EXPECT_NEAR(MoveTemperature(params, 1000), 0.2, 1e-6);
}

TEST(SearchFeaturesTest, TimeLimitStopsTheSearch) {
  Game game = MakeGame("h8", "");
  FixedEvaluator evaluator;
  SearchParams params = Params(0);
  params.max_time_ms = 30;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->playouts, 0);
  // With no visit limit only the clock stops it. It stops once the time
  // spent plus the last gathered batch's time reaches the limit, and that
  // batch took no longer than the time spent, so at least half the limit
  // has passed however busy the machine (the exact rule is checked on a
  // given clock below).
  EXPECT_GE(r->elapsed_ms, 15);
}

TEST(SearchFeaturesTest, TheTimeLimitIsReadOnTheRunsClock) {
  // A clock that moves 1 ms each time it is read: the limit is checked
  // before every playout, so the search stops at its first reading past
  // the limit, however slow or busy the machine.
  Game game = MakeGame("h8", "");
  FixedEvaluator evaluator;
  SearchParams params = Params(0);
  params.max_time_ms = 30;
  params.num_threads = 1;
  Search search(params, evaluator, game);
  Random rng(1);
  std::atomic<int64_t> ticks{0};
  RunOptions options;
  options.clock = [&ticks] {
    return std::chrono::steady_clock::time_point(
        std::chrono::milliseconds(++ticks));
  };
  absl::StatusOr<SearchResult> r = search.Run(rng, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->playouts, 0);
  EXPECT_GE(r->elapsed_ms, 30);
  EXPECT_LE(r->elapsed_ms, 31);  // and one reading for the result
}

TEST(SearchFeaturesTest, TimeStopperStopsAtItsLimit) {
  // The rule itself, on a given clock reading.
  const TimeStopper stopper(30);
  SearchProgress progress;
  progress.elapsed_ms = 29;
  EXPECT_FALSE(stopper.ShouldStop(progress));
  progress.elapsed_ms = 30;
  EXPECT_TRUE(stopper.ShouldStop(progress));
}

TEST(SearchFeaturesTest, TimeRulesStopOneBatchEarly) {
  // A gathered batch that took 8 ms would end past the limit if started
  // at 23 ms of a 30 ms move: no new batch starts then.
  SearchProgress progress;
  progress.elapsed_ms = 21;
  progress.batch_ms = 8;
  const TimeStopper stopper(30);
  EXPECT_FALSE(stopper.ShouldStop(progress));
  progress.elapsed_ms = 22;
  EXPECT_TRUE(stopper.ShouldStop(progress));
  const TimeBudgetStopper budget(/*optimum_ms=*/0, /*maximum_ms=*/30,
                                 /*max_visits=*/0);
  progress.num_root_moves = 1;
  EXPECT_TRUE(budget.ShouldStop(progress));
  progress.elapsed_ms = 21;
  EXPECT_FALSE(budget.ShouldStop(progress));
}

TEST(SearchFeaturesTest, CallerFlagStopsTheSearch) {
  Game game = MakeGame("h8", "");
  FixedEvaluator evaluator;
  Search search(Params(1000), evaluator, game);
  std::atomic<bool> stop{true};
  FlagStopper stopper(&stop);
  RunOptions options;
  options.stopper = &stopper;
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->playouts, 0);
  EXPECT_EQ(r->total_visits, 0);
  // Unvisited: the highest prior (ties: lowest index) is the move.
  EXPECT_EQ(r->best_move, Move::At(Pt("a1")));
}

TEST(SearchFeaturesTest, ProgressReportsGrow) {
  Game game = MakeGame("h8", "");
  FixedEvaluator evaluator;
  Search search(Params(300), evaluator, game);
  RunOptions options;
  options.progress_interval_ms = 0;
  std::vector<int64_t> seen;
  options.on_progress = [&](const SearchResult& r) {
    seen.push_back(r.total_visits);
  };
  Random rng(1);
  ASSERT_TRUE(search.Run(rng, options).ok());
  ASSERT_GT(seen.size(), 10u);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_LE(seen.back(), 300);
}

// Sleeps a little per call so several threads really overlap.
class SlowEvaluator : public Evaluator {
 public:
  explicit SlowEvaluator(Evaluator& inner) : inner_(inner) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return inner_.Evaluate(game, out);
  }

 private:
  Evaluator& inner_;
};

// Sums n_in_flight over the tree: zero once a search is over.
int64_t InFlight(const Node& node) {
  int64_t sum = node.n_in_flight;
  for (const Edge& e : node.edges) {
    if (e.child) sum += InFlight(*e.child);
  }
  return sum;
}

TEST(SearchFeaturesTest, MultiThreadedSearchKeepsTheBudget) {
  Game game = MakeGame("h8 i9 j7", "h9 i8");
  RandomEvaluator random(4);
  SlowEvaluator evaluator(random);
  SearchParams params = Params(300);
  params.num_threads = 4;
  Search search(params, evaluator, game);
  Random rng(1);
  for (int move = 0; move < 2; ++move) {
    absl::StatusOr<SearchResult> r = search.Run(rng);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->total_visits, 300);
    EXPECT_EQ(InFlight(search.root()), 0);
    Game copy = search.game();
    EXPECT_TRUE(LegalPointSet(copy).Contains(r->best_move.point()));
    ASSERT_TRUE(search.Advance(r->best_move).ok());
  }
}

TEST(SearchFeaturesTest, MultiThreadedSearchPlaysTactics) {
  Game game = MakeGame("d4 e5 g7 i8 j8 a15", "c3 o1 o3 o5 o7");
  FixedEvaluator evaluator;
  SearchParams params = Params(200);
  params.num_threads = 3;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->tactic, Tactic::kVcf);
  EXPECT_EQ(r->best_move, Move::At(Pt("h8")));
}

// Fails calls first..last (1-based), succeeds otherwise.
class FlakyEvaluator : public Evaluator {
 public:
  FlakyEvaluator(int first, int last) : first_(first), last_(last) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    const int call = ++calls_;
    if (call >= first_ && call <= last_) {
      return absl::UnavailableError("server went away");
    }
    return inner_.Evaluate(game, out);
  }

 private:
  int first_, last_;
  std::atomic<int> calls_{0};
  FixedEvaluator inner_;
};

TEST(SearchFeaturesTest, EvaluatorFailureMidSearchLeavesAUsableTree) {
  Game game = MakeGame("h8", "");
  FlakyEvaluator evaluator(40, 60);
  SearchParams params = Params(200);
  params.num_threads = 3;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> failed = search.Run(rng);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(InFlight(search.root()), 0);
  // The calls that fail run out; the same tree then searches on.
  for (int i = 0; i < 30; ++i) {
    absl::StatusOr<SearchResult> r = search.Run(rng);
    if (!r.ok()) continue;
    EXPECT_EQ(r->total_visits, 200);
    return;
  }
  ADD_FAILURE() << "the search never recovered";
}

}  // namespace
}  // namespace renju
