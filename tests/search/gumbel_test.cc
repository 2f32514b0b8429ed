// The Gumbel AlphaZero root (search/gumbel.h): the improved policy and the
// mixed value on a hand-built root, then whole searches: the winning move
// found with few visits, the sequential-halving visit split, the policy
// target, tactically decided roots, determinism, playout-cap randomisation
// and tree reuse.
#include "search/gumbel.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "search/legal_moves.h"
#include "search/search.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Pt;

constexpr int kArea = 15 * 15;

SearchParams GumbelParams(int64_t visits, int considered) {
  SearchParams p;
  p.max_visits = visits;
  p.gumbel_root = true;
  p.gumbel_considered_moves = considered;
  return p;
}

absl::StatusOr<SearchResult> RunOnce(const SearchParams& params,
                                     Evaluator& evaluator, const Game& game,
                                     uint64_t seed) {
  Search search(params, evaluator, game);
  Random rng(seed);
  return search.Run(rng);
}

float Sum(const std::vector<float>& v) {
  double sum = 0;
  for (float x : v) sum += x;
  return static_cast<float>(sum);
}

// A root child with `n` visits whose summed score from its own view is
// `score_sum` (all wins or losses, no draws).
std::unique_ptr<Node> Child(int64_t n, double score_sum) {
  auto child = std::make_unique<Node>();
  child->n = n;
  child->expanded = true;
  child->sum.win = (n + score_sum) / 2;
  child->sum.loss = (n - score_sum) / 2;
  return child;
}

// Root value 0.2 (v = 0.6 in [0, 1]); h8 (prior 0.5) has 3 visits with the
// child's mean score -0.6, so q = 0.8 for the root; i8 (0.3) has 1 visit at
// +0.5, q = 0.25; j8 (0.2) is unvisited.
Node HandBuiltRoot() {
  Node root;
  root.expanded = true;
  root.first_score = 0.2f;
  root.n = 5;
  root.edges.push_back(Edge{Move::At(Pt("h8")), 0.5f, Child(3, -1.8)});
  root.edges.push_back(Edge{Move::At(Pt("i8")), 0.3f, Child(1, 0.5)});
  root.edges.push_back(Edge{Move::At(Pt("j8")), 0.2f, nullptr});
  return root;
}

TEST(GumbelTest, UnvisitedMovesGetTheMixedValue) {
  const Node root = HandBuiltRoot();
  // N = 4, visited prior 0.8, prior-weighted q (0.5 * 0.8 + 0.3 * 0.25) / 0.8
  // = 0.59375; v_mix = (0.6 + 4 * 0.59375) / 5 = 0.595.
  EXPECT_NEAR(MixedValue(root), 0.595, 1e-6);
  const std::vector<double> q = CompletedQ(root);
  ASSERT_EQ(q.size(), 3u);
  EXPECT_NEAR(q[0], 0.8, 1e-6);
  EXPECT_NEAR(q[1], 0.25, 1e-6);
  EXPECT_NEAR(q[2], 0.595, 1e-6);

  // With no visits at all, v_mix is the network's value.
  Node fresh;
  fresh.expanded = true;
  fresh.first_score = -0.5f;
  fresh.edges.push_back(Edge{Move::At(Pt("h8")), 0.5f, nullptr});
  fresh.edges.push_back(Edge{Move::At(Pt("i8")), 0.5f, nullptr});
  EXPECT_NEAR(MixedValue(fresh), 0.25, 1e-6);
}

TEST(GumbelTest, ImprovedPolicyIsTheSoftmaxOfLogitsPlusSigma) {
  const Node root = HandBuiltRoot();
  SearchParams params;
  params.gumbel_c_visit = 1;
  params.gumbel_c_scale = 0.75f;
  // sigma(q) = (1 + max N = 3) * 0.75 * q = 3q: 2.4, 0.75 and 1.785.
  EXPECT_NEAR(SigmaScale(root, params), 3.0, 1e-6);
  const double w[3] = {0.5 * std::exp(2.4), 0.3 * std::exp(0.75),
                       0.2 * std::exp(1.785)};
  const double sum = w[0] + w[1] + w[2];
  const std::vector<double> policy = ImprovedPolicy(root, params);
  ASSERT_EQ(policy.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(policy[i], w[i] / sum, 1e-6) << i;
  // The paper's defaults: sigma = 53q, nearly all the mass on the best q.
  const std::vector<double> sharp = ImprovedPolicy(root, SearchParams());
  EXPECT_GT(sharp[0], 0.99);
}

TEST(GumbelTest, ProvenChildrenCountAtTheirProvenValue) {
  Node root = HandBuiltRoot();
  root.edges[1].child->proof = Proof::kWin;  // i8 loses for the root
  EXPECT_NEAR(CompletedQ(root)[1], 0.0, 1e-9);
  root.edges[1].child->proof = Proof::kLoss;  // i8 wins for the root
  EXPECT_NEAR(CompletedQ(root)[1], 1.0, 1e-9);
}

// FixedEvaluator's priors, with a value that says the side owning `key`
// is winning: a good move the priors do not know about.
class KeyPointEvaluator : public Evaluator {
 public:
  KeyPointEvaluator(std::vector<float> priors, Point key, Color owner)
      : fixed_(std::move(priors), 0.4f, 0.2f, 0.4f), key_(key), owner_(owner) {}

  absl::Status Evaluate(Game& game, Evaluation& out) override {
    if (absl::Status s = fixed_.Evaluate(game, out); !s.ok()) return s;
    if (game.board().at(key_) == StoneOf(owner_)) {
      const bool owner_to_move = game.side_to_move() == owner_;
      out.win = owner_to_move ? 0.95f : 0.0f;
      out.draw = 0.05f;
      out.loss = owner_to_move ? 0.0f : 0.95f;
    }
    return absl::OkStatus();
  }

 private:
  FixedEvaluator fixed_;
  Point key_;
  Color owner_;
};

// Eight plausible moves around h8/i9 with the winning key move, j10, the
// least likely of them; every other point nearly nothing.
std::vector<float> EightMovePriors() {
  std::vector<float> priors(kArea, 1e-6f);
  for (const char* p : {"g7", "g8", "h7", "i10", "j8", "j9", "h10"}) {
    priors[PolicyIndex(Pt(p), 15)] = 0.14f;
  }
  priors[PolicyIndex(Pt("j10"), 15)] = 0.02f;
  return priors;
}

TEST(GumbelTest, FindsTheWinningMoveWithSixteenVisits) {
  const Game game = MakeGame("h8", "i9");
  const Point key = Pt("j10");
  KeyPointEvaluator evaluator(EightMovePriors(), key, Color::kBlack);
  const SearchParams params = GumbelParams(16, 8);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    absl::StatusOr<SearchResult> r = RunOnce(params, evaluator, game, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->gumbel);
    EXPECT_EQ(r->total_visits, 16);
    EXPECT_EQ(r->best_move, Move::At(key)) << "seed " << seed;
    // The policy target learns what the prior did not know.
    const float target = r->policy_target[PolicyIndex(key, 15)];
    EXPECT_GT(target, 0.5f) << "seed " << seed;
    EXPECT_NEAR(Sum(r->policy_target), 1.0f, 1e-5f);
  }
}

TEST(GumbelTest, VisitsFollowSequentialHalving) {
  const Game game = MakeGame("h8", "i9");
  FixedEvaluator evaluator;  // uniform priors, one value everywhere
  struct Case {
    int64_t visits;
    int considered;
    std::vector<int64_t> split;  // most visited first; the rest get none
  };
  const Case cases[] = {
      // 4 phases of 1, 2, 4, 8 visits over 16, 8, 4, 2 candidates.
      {64, 16, {15, 15, 7, 7, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}},
      // 3 phases of 2, 5, 10 visits over 8, 4, 2; the 8 the floors leave
      // go to the winner.
      {64, 8, {25, 17, 7, 7, 2, 2, 2, 2}},
      // 2 phases of 2 and 4 visits over 4 and 2.
      {16, 4, {6, 6, 2, 2}},
      // Fewer visits than candidates: one each for the best by g + logits.
      {5, 16, {1, 1, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    absl::StatusOr<SearchResult> r =
        RunOnce(GumbelParams(c.visits, c.considered), evaluator, game, 3);
    ASSERT_TRUE(r.ok()) << r.status();
    std::vector<int64_t> split;
    for (const ChildStats& child : r->children) {
      if (child.visits > 0) split.push_back(child.visits);
    }
    EXPECT_EQ(split, c.split) << c.visits << " visits, " << c.considered;
    EXPECT_EQ(r->total_visits, c.visits);
    // The winner is among the most visited.
    EXPECT_EQ(r->children.front().visits, c.split.front());
    int64_t winner_visits = 0;
    for (const ChildStats& child : r->children) {
      if (child.move == r->best_move) winner_visits = child.visits;
    }
    EXPECT_EQ(winner_visits, c.split.front());
  }
}

TEST(GumbelTest, PolicyTargetIsTheImprovedPolicy) {
  const Game game = MakeGame("h8", "i9");
  const Point key = Pt("j10");
  const std::vector<float> priors = EightMovePriors();
  KeyPointEvaluator evaluator(priors, key, Color::kBlack);
  Search search(GumbelParams(32, 8), evaluator, game);
  Random rng(5);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();

  const Node& root = search.root();
  const std::vector<double> expected = ImprovedPolicy(root, search.params());
  const std::vector<double> q = CompletedQ(root);
  const double v_mix = MixedValue(root);
  ASSERT_EQ(expected.size(), root.edges.size());
  double unvisited_ratio = -1;
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Edge& e = root.edges[i];
    const int index = PolicyIndex(e.move.point(), 15);
    ASSERT_NEAR(r->policy_target[index], expected[i], 1e-6);
    if (e.child && e.child->n > 0) continue;
    // Unvisited moves all get v_mix, so they keep the prior's proportions.
    ASSERT_NEAR(q[i], v_mix, 1e-12);
    const double ratio = r->policy_target[index] / e.prior;
    if (unvisited_ratio < 0) unvisited_ratio = ratio;
    ASSERT_NEAR(ratio, unvisited_ratio, 1e-3 * unvisited_ratio);
  }
  EXPECT_NEAR(Sum(r->policy_target), 1.0f, 1e-5f);
  // The best q gets more than its prior; the raw visit shares stay.
  EXPECT_GT(r->policy_target[PolicyIndex(key, 15)], 0.02f);
  EXPECT_NEAR(Sum(r->visit_distribution), 1.0f, 1e-5f);
}

// Runs `game` with and without the Gumbel root and expects one result.
void ExpectSameAsPuct(const Game& game, int64_t visits) {
  FixedEvaluator evaluator;
  SearchParams puct;
  puct.max_visits = visits;
  SearchParams gumbel = GumbelParams(visits, 16);
  absl::StatusOr<SearchResult> a = RunOnce(puct, evaluator, game, 1);
  absl::StatusOr<SearchResult> b = RunOnce(gumbel, evaluator, game, 1);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE(b->gumbel);
  EXPECT_EQ(a->best_move, b->best_move);
  EXPECT_EQ(a->tactic, b->tactic);
  EXPECT_EQ(a->tactic_decided, b->tactic_decided);
  EXPECT_EQ(a->proof, b->proof);
  EXPECT_EQ(a->total_visits, b->total_visits);
  EXPECT_EQ(a->playouts, b->playouts);
  EXPECT_EQ(a->policy_target, b->policy_target);
  EXPECT_EQ(a->pv, b->pv);
}

TEST(GumbelTest, TacticallyDecidedRootsAreAsWithPuct) {
  {
    SCOPED_TRACE("win in one");
    ExpectSameAsPuct(MakeGame("d8 e8 f8 g8", "d9 e9 f9 h9"), 64);
  }
  {
    SCOPED_TRACE("VCF");
    ExpectSameAsPuct(MakeGame("f8 g8 h8 j9 k10", "e8 a1 a3 o15 o13"), 64);
  }
  {
    SCOPED_TRACE("the one block of a four");
    ExpectSameAsPuct(MakeGame("e8 f8 g8 h8", "d8 e9 f10", Color::kWhite), 64);
  }
  {
    SCOPED_TRACE("lost to a straight four");
    ExpectSameAsPuct(MakeGame("e8 f8 g8 h8", "e9 f10 g11", Color::kWhite), 64);
  }
}

TEST(GumbelTest, SameSeedSameTreeAndMove) {
  const Game game = MakeGame("h8 i9 j7", "h9 i8");
  RandomEvaluator evaluator(11);
  const SearchParams params = GumbelParams(64, 16);
  auto visits_of = [](const SearchResult& r) {
    std::vector<std::pair<int, int64_t>> out;
    for (const ChildStats& c : r.children) {
      out.emplace_back(PolicyIndex(c.move.point(), 15), c.visits);
    }
    return out;
  };
  absl::StatusOr<SearchResult> a = RunOnce(params, evaluator, game, 7);
  absl::StatusOr<SearchResult> b = RunOnce(params, evaluator, game, 7);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->best_move, b->best_move);
  EXPECT_EQ(visits_of(*a), visits_of(*b));
  EXPECT_EQ(a->policy_target, b->policy_target);
  // Another seed draws other noise, so other candidates.
  bool differs = false;
  for (uint64_t seed = 8; seed < 12 && !differs; ++seed) {
    absl::StatusOr<SearchResult> c = RunOnce(params, evaluator, game, seed);
    ASSERT_TRUE(c.ok());
    differs = visits_of(*c) != visits_of(*a);
  }
  EXPECT_TRUE(differs);
}

TEST(GumbelTest, ReplacesRootNoiseAndTemperature) {
  const Game game = MakeGame("h8", "i9");
  RandomEvaluator evaluator(2);
  SearchParams params = GumbelParams(32, 8);
  params.root_noise = true;
  params.temperature_early = 5;
  params.temperature_final = 5;
  Search search(params, evaluator, game);
  Random rng(4);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  Game copy = game;
  Evaluation raw;
  ASSERT_TRUE(evaluator.Evaluate(copy, raw).ok());
  for (const Edge& e : search.root().edges) {
    ASSERT_EQ(e.prior, raw.policy[PolicyIndex(e.move.point(), 15)]);
  }
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(ChooseMove(*r, params, 0, rng), r->best_move);
  }
}

TEST(GumbelTest, PlayoutCapRandomisationUsesGumbelForCheapSearches) {
  const Game game = MakeGame("h8 i9", "h9");
  RandomEvaluator evaluator(3);
  SearchParams params = GumbelParams(64, 16);
  params.playout_cap_randomisation = true;
  params.full_search_probability = 0.5f;
  params.cheap_visits = 8;
  Random rng(21);
  int full = 0;
  int cheap = 0;
  for (int i = 0; i < 20; ++i) {
    Search search(params, evaluator, game);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->gumbel);
    EXPECT_EQ(r->total_visits, r->full_search ? 64 : 8);
    EXPECT_NEAR(Sum(r->policy_target), 1.0f, 1e-5f);
    (r->full_search ? full : cheap)++;
  }
  EXPECT_GT(full, 3);
  EXPECT_GT(cheap, 3);
}

TEST(GumbelTest, AReusedRootGetsTheWholeBudgetAnew) {
  const Game game = MakeGame("h8", "i9");
  RandomEvaluator evaluator(6);
  Search search(GumbelParams(64, 4), evaluator, game);
  Random rng(8);
  absl::StatusOr<SearchResult> first = search.Run(rng);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(search.Advance(first->best_move).ok());
  int64_t reused = 0;
  for (const Edge& e : search.root().edges) {
    if (e.child) reused += e.child->n;
  }
  ASSERT_GT(reused, 0);
  absl::StatusOr<SearchResult> second = search.Run(rng);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->total_visits, reused + 64);
  EXPECT_EQ(second->playouts, 64);
}

TEST(GumbelTest, SeveralThreadsSpendTheBudget) {
  const Game game = MakeGame("h8 i9", "h9");
  RandomEvaluator evaluator(3);
  SearchParams params = GumbelParams(200, 16);
  params.num_threads = 4;
  absl::StatusOr<SearchResult> r = RunOnce(params, evaluator, game, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->total_visits, 200);
  int visited = 0;
  for (const ChildStats& c : r->children) visited += c.visits > 0 ? 1 : 0;
  EXPECT_EQ(visited, 16);
}

}  // namespace
}  // namespace renju
