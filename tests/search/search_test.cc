// The search's acceptance tests on hand-made positions: tactics at the
// root, forbidden points, visit budgets, tree reuse and determinism.
#include "search/search.h"

#include <cmath>
#include <functional>

#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "search/fake_evaluators.h"
#include "search/legal_moves.h"
#include "search/vcf.h"
#include "search/vct.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::MakeGame;
using testing::Pt;

using testing::Params;

SearchResult RunSearch(const SearchParams& params, Evaluator& evaluator,
                       const Game& game, uint64_t seed = 1) {
  Search search(params, evaluator, game);
  Random rng(seed);
  absl::StatusOr<SearchResult> result = search.Run(rng);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : SearchResult{};
}

// Puts all its prior on one point, occupied or forbidden or not: the
// search, not the evaluator, must keep forbidden points out of the tree.
class OnePointEvaluator : public Evaluator {
 public:
  explicit OnePointEvaluator(Point p) : p_(p) {}
  absl::Status Evaluate(Game& game, Evaluation& out) override {
    out.policy.assign(game.size() * game.size(), 0.0f);
    out.policy[PolicyIndex(p_, game.size())] = 1.0f;
    out.win = out.loss = 0.5f;
    out.draw = 0;
    return absl::OkStatus();
  }

 private:
  Point p_;
};

TEST(SearchTest, PlaysWinInOne) {
  Game game = MakeGame("d8 e8 f8 g8", "d9 e9 f9 h9");
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(100), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kWinInOne);
  EXPECT_TRUE(r.tactic_decided);
  EXPECT_EQ(r.proof, Proof::kWin);
  EXPECT_EQ(r.best_move, Move::At(Pt("c8")));
  EXPECT_EQ(evaluator.num_evaluations(), 0);
}

TEST(SearchTest, FindsWinInOneWithoutTactics) {
  // The rules core scores the five; search alone must find it.
  Game game = MakeGame("d8 e8 f8 g8", "d9 e9 f9 h9");
  SearchParams params = Params(600);
  params.tactics = false;
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(params, evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kNone);
  EXPECT_TRUE(r.best_move == Move::At(Pt("c8")) ||
              r.best_move == Move::At(Pt("h8")))
      << MoveName(r.best_move);
  EXPECT_EQ(r.proof, Proof::kWin);
}

TEST(SearchTest, BlocksTheFivePointOfAFour) {
  // Black's four e8-h8 (d8 white) threatens five on i8; white must block.
  Game game = MakeGame("e8 f8 g8 h8", "d8 e9 f10", kWhite);
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(50), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kBlockFive);
  EXPECT_EQ(r.best_move, Move::At(Pt("i8")));
  ASSERT_EQ(r.children.size(), 1u);
}

TEST(SearchTest, TheFirstStoneGoesOnTheCentre) {
  // The network prefers a point two off the centre (where the shipped
  // model used to open); the empty board's only move is h8 all the same,
  // on every board size, unless the search is told to leave it free.
  for (const int size : {15, 19}) {
    const Game game(size == 15 ? Variant::kRenju : Variant::kFreestyle, size);
    const Point centre(size / 2, size / 2);
    const Point off_centre(size / 2 - 2, size / 2);
    OnePointEvaluator evaluator(off_centre);
    SearchResult r = RunSearch(Params(50), evaluator, game);
    EXPECT_EQ(r.tactic, Tactic::kCentreOpening);
    EXPECT_EQ(r.best_move, Move::At(centre)) << MoveName(r.best_move);
    ASSERT_EQ(r.children.size(), 1u);

    SearchParams free_first = Params(50);
    free_first.centre_first_stone = false;
    r = RunSearch(free_first, evaluator, game);
    EXPECT_EQ(r.tactic, Tactic::kNone);
    EXPECT_EQ(r.best_move, Move::At(off_centre)) << MoveName(r.best_move);
  }
  // One stone on the board: the network chooses again.
  Game one = MakeGame("h8", "", kWhite);
  OnePointEvaluator evaluator(Pt("j8"));
  const SearchResult r = RunSearch(Params(50), evaluator, one);
  EXPECT_EQ(r.tactic, Tactic::kNone);
  EXPECT_EQ(r.best_move, Move::At(Pt("j8")));
}

TEST(SearchTest, StraightFourCannotBeBlocked) {
  // Black's e8-h8 is open at both ends: white loses whatever it plays.
  Game game = MakeGame("e8 f8 g8 h8", "e9 f10 g11", kWhite);
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(400), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kLostToFive);
  EXPECT_EQ(r.proof, Proof::kLoss);
  EXPECT_EQ(r.loss, 1.0f);
  EXPECT_EQ(r.playouts, 0) << "a proven root needs no search";
  EXPECT_GT(r.children.size(), 100u) << "any legal move may be played";
  EXPECT_TRUE(game.board().IsEmpty(r.best_move.point()));
}

TEST(SearchTest, EveryMoveLosingProvesTheRootLost) {
  // Freestyle: black's two open threes (g8 h8 i8, i8 i9 i10) cannot both
  // be stopped, so every white move leaves black a VCF. The root is proven
  // lost once each move has been tried once, and the search stops there.
  Game game =
      MakeGame("g8 h8 i8 i9 i10", "a1 o15 a15 o1", kWhite, Variant::kFreestyle);
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(1000), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kNone) << "no single defence stops both";
  EXPECT_EQ(r.proof, Proof::kLoss);
  EXPECT_EQ(r.total_visits, 225 - 9);
  for (const ChildStats& c : r.children) {
    EXPECT_EQ(c.visits, 1) << MoveName(c.move);
    EXPECT_EQ(c.proof, Proof::kLoss) << MoveName(c.move);
  }
}

TEST(SearchTest, FindsVcfAndPlaysItsFirstMove) {
  // Black i8: four f8-i8 (e8 white) and three i8 j9 k10.
  Game game = MakeGame("f8 g8 h8 j9 k10", "e8 a1 a3 o15 o13");
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(100), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kVcf);
  EXPECT_EQ(r.best_move, Move::At(Pt("i8")));
  EXPECT_EQ(r.win, 1.0f);
  ASSERT_GE(r.pv.size(), 3u);
  EXPECT_EQ(r.pv[1], Move::At(Pt("j8")));
}

TEST(SearchTest, FindsWhiteVcfThroughAForbiddenBlock) {
  // White g9 makes d9-g9; black's only block h9 is a double-three.
  Game game = MakeGame("g10 h10 i8 h7 c9", "d9 e9 f9 a1", kWhite);
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(100), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kVcf);
  EXPECT_EQ(r.best_move, Move::At(Pt("g9")));

  // Black to move instead sees the threat and stops it.
  Game black_to_move = MakeGame("g10 h10 i8 h7 c9 a15", "d9 e9 f9 a1");
  SearchResult defence = RunSearch(Params(100), evaluator, black_to_move);
  EXPECT_EQ(defence.tactic, Tactic::kDefendVcf);
  ASSERT_TRUE(black_to_move.mutable_board().IsEmpty(defence.best_move.point()));
  black_to_move.mutable_board().Place(defence.best_move.point(), kBlack);
  VcfSolver solver;
  EXPECT_NE(
      solver.Solve(black_to_move.mutable_board(), kWhite, VcfLimits{}).outcome,
      VcfOutcome::kWin)
      << MoveName(defence.best_move);
}

// White wins by three threes in a row (k6, j7, then the double three i8);
// there is no VCF for either side. vct_test.cc has the line.
constexpr char kVctBlack[] = "g9 f8 j6 k10";
constexpr char kVctWhite[] = "g6 k7 h7 k5";

TEST(SearchTest, RootVctDecidesTheMoveWhenAsked) {
  Game game = MakeGame(kVctBlack, kVctWhite, kWhite);
  FixedEvaluator evaluator;
  SearchResult off = RunSearch(Params(50), evaluator, game);
  EXPECT_NE(off.tactic, Tactic::kVct) << "the VCT is off by default";

  SearchParams params = Params(50);
  params.vct_max_nodes_root = 200000;
  SearchResult r = RunSearch(params, evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kVct);
  EXPECT_TRUE(r.tactic_decided);
  EXPECT_EQ(r.proof, Proof::kWin);
  ASSERT_FALSE(r.vct_line.empty());
  EXPECT_EQ(r.best_move, Move::At(r.vct_line.front()));
  EXPECT_EQ(r.pv.size(), r.vct_line.size());

  // Too small a budget proves nothing; the search goes on as before.
  params.vct_max_nodes_root = 5;
  EXPECT_NE(RunSearch(params, evaluator, game).tactic, Tactic::kVct);
}

TEST(SearchTest, RootSearchesOnlyMovesThatRefuteTheOpponentsVct) {
  Game game = MakeGame(kVctBlack, kVctWhite);  // black to move
  FixedEvaluator evaluator;
  SearchParams params = Params(100);
  params.vct_max_nodes_root = 200000;
  SearchResult r = RunSearch(params, evaluator, game);
  ASSERT_EQ(r.tactic, Tactic::kDefendVct);
  EXPECT_FALSE(r.vct_line.empty());
  ASSERT_FALSE(r.children.empty());
  // The moves searched are candidates: near the opponent's line, or black
  // threats of its own; a far quiet move is not among them.
  for (const ChildStats& child : r.children) {
    const Point p = child.move.point();
    bool near_line = false;
    for (Point q : r.vct_line) {
      near_line |= std::abs(p.x - q.x) <= 2 && std::abs(p.y - q.y) <= 2;
    }
    bool threat = game.board().FourPoints(kBlack).Contains(p);
    for (int d = 0; d < kNumDirections; ++d) {
      threat |= game.board().ShapeAt(p, kBlack, static_cast<Direction>(d)) ==
                LineShape::kThree;
    }
    EXPECT_TRUE(near_line || threat) << MoveName(child.move);
    EXPECT_NE(p, Pt("a15"));
  }
  EXPECT_LT(r.children.size(), LegalPointSet(game).ToVector().size());

  params.defend_vct = false;
  EXPECT_NE(RunSearch(params, evaluator, game).tactic, Tactic::kDefendVct);
}

TEST(SearchTest, BlackCannotBlockOnAForbiddenPoint) {
  // White's four d9-g9 (c9 black) threatens h9, a double-three for black.
  Game game = MakeGame("g10 h10 i8 h7 c9", "d9 e9 f9 g9");
  ASSERT_TRUE(IsForbidden(game.mutable_board(), Pt("h9")));
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(400), evaluator, game);
  EXPECT_EQ(r.tactic, Tactic::kLostToFive);
  EXPECT_EQ(r.proof, Proof::kLoss);
  EXPECT_NE(r.best_move, Move::At(Pt("h9")));
}

TEST(SearchTest, DoesNotTrustAFourOnAForbiddenPoint) {
  // i8 would be a double-four (f8-i8 and i8-i11): no VCF for black.
  Game game = MakeGame("f8 g8 h8 i9 i10 i11", "e8 i12 a1 a3 o15 o13");
  OnePointEvaluator evaluator(Pt("i8"));
  SearchResult r = RunSearch(Params(200), evaluator, game);
  EXPECT_NE(r.tactic, Tactic::kVcf);
  EXPECT_NE(r.proof, Proof::kWin);
  EXPECT_NE(r.best_move, Move::At(Pt("i8")));
  for (const ChildStats& c : r.children) {
    EXPECT_NE(c.move, Move::At(Pt("i8")));
  }
}

TEST(SearchTest, DoesNotTrustAFourWhoseFivePointIsAnOverline) {
  // h8 would give e8-h8, whose five point i8 makes the overline e8-j8.
  Game game = MakeGame("e8 f8 g8 j8 h9 h10", "d8 a1 a3 o15 o13 o11");
  FixedEvaluator evaluator;
  SearchResult r = RunSearch(Params(200), evaluator, game);
  EXPECT_NE(r.tactic, Tactic::kVcf);
  EXPECT_NE(r.proof, Proof::kWin);
}

// Walks the tree and checks that no black node has an edge to a
// forbidden point; returns the number of black nodes checked.
int CheckNoForbiddenEdges(const Node& node, Game& game) {
  int checked = 0;
  if (game.side_to_move() == kBlack && !node.edges.empty()) {
    ++checked;
    const PointSet forbidden = ForbiddenSet(game.mutable_board());
    for (const Edge& e : node.edges) {
      EXPECT_FALSE(!e.move.is_pass() && forbidden.Contains(e.move.point()))
          << "forbidden " << MoveName(e.move) << " after "
          << MoveListString(game.moves());
    }
  }
  for (const Edge& e : node.edges) {
    if (!e.child || !e.child->expanded) continue;
    EXPECT_TRUE(game.Play(e.move).ok());
    checked += CheckNoForbiddenEdges(*e.child, game);
    game.Undo();
  }
  return checked;
}

TEST(SearchTest, NeverProposesAForbiddenPointForBlack) {
  // h9 is a double-three for black; the evaluator wants nothing else.
  Game game = MakeGame("g10 h10 i8 h7", "a1 a3 o15 o13");
  ASSERT_TRUE(IsForbidden(game.mutable_board(), Pt("h9")));
  OnePointEvaluator evaluator(Pt("h9"));
  Search search(Params(300), evaluator, game);
  Random rng(3);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NE(r->best_move, Move::At(Pt("h9")));
  for (const ChildStats& c : r->children) {
    EXPECT_NE(c.move, Move::At(Pt("h9")));
  }
  EXPECT_EQ(r->visit_distribution[PolicyIndex(Pt("h9"), 15)], 0.0f);
  Game copy = game;
  EXPECT_GT(CheckNoForbiddenEdges(search.root(), copy), 1);
}

TEST(SearchTest, VisitCountsSumToTheBudget) {
  Game game = MakeGame("h8 i9", "h9 i8");
  for (int64_t visits : {1, 2, 17, 300}) {
    SCOPED_TRACE(visits);
    FixedEvaluator evaluator;
    Search search(Params(visits), evaluator, game);
    Random rng(1);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->total_visits, visits);
    EXPECT_EQ(r->playouts, visits);
    int64_t sum = 0;
    for (const ChildStats& c : r->children) sum += c.visits;
    EXPECT_EQ(sum, visits);
    EXPECT_EQ(search.root().n, visits + 1);  // plus the root's own value
    float share = 0;
    for (float v : r->visit_distribution) share += v;
    EXPECT_NEAR(share, 1.0f, 1e-5f);
  }
}

TEST(SearchTest, WithoutTacticsEveryVisitIsOneEvaluation) {
  // With tactics, open threes and fours solve nodes without the network.
  Game game = MakeGame("h8 i9", "h9 i8");
  SearchParams params = Params(300);
  params.tactics = false;
  FixedEvaluator evaluator;
  Search search(params, evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->total_visits, 300);
  EXPECT_EQ(evaluator.num_evaluations(), 301);
}

TEST(SearchTest, TreeReuseKeepsTheChosenSubtree) {
  Game game = MakeGame("h8", "");
  RandomEvaluator evaluator(7);
  Search search(Params(400), evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> first = search.Run(rng);
  ASSERT_TRUE(first.ok()) << first.status();
  const Move chosen = first->best_move;
  const Node* child = nullptr;
  for (const Edge& e : search.root().edges) {
    if (e.move == chosen) child = e.child.get();
  }
  ASSERT_NE(child, nullptr);
  const int64_t n = child->n;
  const double win_sum = child->sum.win;
  ASSERT_GT(n, 10);

  ASSERT_TRUE(search.Advance(chosen).ok());
  EXPECT_EQ(&search.root(), child) << "the same node becomes the root";
  EXPECT_EQ(search.root().n, n);
  EXPECT_EQ(search.root().sum.win, win_sum);
  EXPECT_EQ(search.game().ply(), game.ply() + 1);

  absl::StatusOr<SearchResult> second = search.Run(rng);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->total_visits, 400);
  EXPECT_EQ(second->playouts, 400 - (n - 1));
}

TEST(SearchTest, AdvanceToAnUnsearchedMoveStartsAfresh) {
  Game game = MakeGame("h8", "");
  FixedEvaluator evaluator;
  Search search(Params(20), evaluator, game);
  Random rng(1);
  ASSERT_TRUE(search.Run(rng).ok());
  ASSERT_TRUE(search.Advance(Move::At(Pt("o15"))).ok());  // never visited
  EXPECT_EQ(search.root().n, 0);
  EXPECT_FALSE(search.Advance(Move::At(Pt("h8"))).ok()) << "occupied";
}

TEST(SearchTest, ReusedRootStillDefendsAgainstAVcf) {
  // White f9 makes d9 e9 f9; then g9 would win through the forbidden h9,
  // so black's only defence is g9. The reused root was expanded below the
  // root, where the opponent's VCF is not looked for.
  Game game = MakeGame("g10 h10 i8 h7 c9 a15", "d9 e9 a1", Color::kWhite);
  std::vector<float> priors(225, 1.0f);
  priors[PolicyIndex(Pt("f9"), 15)] = 1000.0f;
  FixedEvaluator evaluator(priors, 0.4f, 0.2f, 0.4f);
  SearchParams params = Params(100);
  ASSERT_FALSE(params.defend_vcf_in_tree);
  Search search(params, evaluator, game);
  Random rng(1);
  ASSERT_TRUE(search.Run(rng).ok());
  ASSERT_TRUE(search.Advance(Move::At(Pt("f9"))).ok());
  ASSERT_TRUE(search.root().expanded);
  ASSERT_EQ(search.root().tactic, Tactic::kNone);

  absl::StatusOr<SearchResult> r = search.Run(rng);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->tactic, Tactic::kDefendVcf);
  EXPECT_EQ(r->best_move, Move::At(Pt("g9")));
  EXPECT_EQ(search.root().tactic, Tactic::kDefendVcf);
  EXPECT_EQ(search.root().edges.size(), 1u);
}

std::vector<int64_t> VisitsByMove(const SearchResult& r) {
  std::vector<int64_t> out(15 * 15 + 1, 0);
  for (const ChildStats& c : r.children) {
    out[c.move.is_pass() ? 225 : PolicyIndex(c.move.point(), 15)] = c.visits;
  }
  return out;
}

TEST(SearchTest, SingleThreadedSearchWithASeedIsDeterministic) {
  Game game = MakeGame("h8 i9 j7", "h9 i8");
  SearchParams params = Params(500);
  params.root_noise = true;
  params.temperature_early = 1.0f;
  params.temperature_final = 1.0f;
  auto run = [&](uint64_t seed) {
    RandomEvaluator evaluator(11);
    Search search(params, evaluator, game);
    Random rng(seed);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    EXPECT_TRUE(r.ok()) << r.status();
    r->elapsed_ms = 0;
    const Move move = ChooseMove(*r, params, game.ply(), rng);
    return std::make_pair(*r, move);
  };
  const auto [a, move_a] = run(42);
  const auto [b, move_b] = run(42);
  EXPECT_EQ(VisitsByMove(a), VisitsByMove(b));
  EXPECT_EQ(a.pv, b.pv);
  EXPECT_EQ(a.win, b.win);
  EXPECT_EQ(a.best_move, b.best_move);
  EXPECT_EQ(move_a, move_b);
  EXPECT_EQ(a.policy_target, b.policy_target);
  // Another seed draws other noise, so another tree.
  const auto [c, move_c] = run(43);
  EXPECT_NE(VisitsByMove(a), VisitsByMove(c));
}

TEST(SearchTest, RunOnAFinishedGameIsAnError) {
  absl::StatusOr<Game> game = Game::FromMoves(
      Variant::kRenju, 15, *ParseMoveList("h8 a1 i8 a2 j8 a3 k8 a4 l8", 15));
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_TRUE(game->over());
  FixedEvaluator evaluator;
  Search search(Params(10), evaluator, *game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
}

class FailingEvaluator : public Evaluator {
 public:
  absl::Status Evaluate(Game&, Evaluation&) override {
    return absl::UnavailableError("evaluator shut down");
  }
};

TEST(SearchTest, EvaluatorErrorsComeBackAsStatus) {
  Game game = MakeGame("h8", "");
  FailingEvaluator evaluator;
  Search search(Params(10), evaluator, game);
  Random rng(1);
  absl::StatusOr<SearchResult> r = search.Run(rng);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnavailable);
}

// Returns whatever it was given, to test the checks on evaluator output.
class CannedEvaluator : public Evaluator {
 public:
  explicit CannedEvaluator(Evaluation canned) : canned_(std::move(canned)) {}
  absl::Status Evaluate(Game&, Evaluation& out) override {
    out = canned_;
    return absl::OkStatus();
  }

 private:
  Evaluation canned_;
};

TEST(SearchTest, MalformedEvaluatorOutputIsAnError) {
  Game game = MakeGame("h8", "");
  Evaluation nan_prior;
  nan_prior.policy.assign(225, 1.0f / 224);
  nan_prior.policy[3] = std::nanf("");
  nan_prior.win = 1;
  Evaluation bad_value;
  bad_value.policy.assign(225, 1.0f / 224);
  bad_value.win = bad_value.draw = bad_value.loss = 0.5f;
  Evaluation short_policy;
  short_policy.policy.assign(100, 0.01f);
  short_policy.win = 1;
  for (const Evaluation& canned : {nan_prior, bad_value, short_policy}) {
    CannedEvaluator evaluator(canned);
    Search search(Params(10), evaluator, game);
    Random rng(1);
    absl::StatusOr<SearchResult> r = search.Run(rng);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal) << r.status();
  }
}

}  // namespace
}  // namespace renju
