// The opening player (search/opening_player.h) against evaluators whose
// answers are known: the chooser takes black in a position that favours
// black and keeps white in a hopeless one; offers are the best for black
// and the kept fifth the worst; every rule's opening can be played to its
// end by the player and by the default actions; decisions repeat for a seed.
#include "search/opening_player.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "search/fake_evaluators.h"
#include "tests/search/test_util.h"

namespace renju {
namespace {

using testing::Pt;

// Black's score is `base` plus bonus[p] for each black stone on a marked
// point, clamped to [-0.9, 0.9]; no draws; uniform priors.
class MarkedPointEvaluator : public Evaluator {
 public:
  MarkedPointEvaluator(float base, std::map<std::string, float> bonus)
      : base_(base) {
    for (const auto& [name, value] : bonus)
      bonus_.emplace_back(Pt(name), value);
  }

  absl::Status Evaluate(Game& game, Evaluation& out) override {
    float black = base_;
    for (const auto& [p, value] : bonus_) {
      if (game.board().at(p) == Cell::kBlack) black += value;
    }
    black = std::clamp(black, -0.9f, 0.9f);
    const float score = game.side_to_move() == Color::kBlack ? black : -black;
    out.win = (1 + score) / 2;
    out.draw = 0;
    out.loss = (1 - score) / 2;
    const int n = game.size() * game.size();
    out.policy.assign(n, 0.0f);
    const std::vector<Point> legal = game.LegalPoints();
    for (Point p : legal)
      out.policy[p.y * game.size() + p.x] = 1.0f / legal.size();
    return absl::OkStatus();
  }

 private:
  float base_;
  std::vector<std::pair<Point, float>> bonus_;
};

SearchParams SmallSearch() {
  SearchParams params;
  params.max_visits = 16;
  return params;
}

OpeningParams OneVisit() {
  OpeningParams params;
  params.candidate_visits = 1;  // the evaluator's value exactly
  params.max_candidates = 6;
  return params;
}

OpeningState Start(const std::string& rule) {
  absl::StatusOr<OpeningRule> parsed = ParseOpeningRule(rule);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<OpeningState> state = OpeningState::Create(*parsed);
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

void Apply(OpeningState& state, const std::vector<OpeningAction>& actions) {
  for (const OpeningAction& a : actions) {
    const absl::Status s = state.Apply(a);
    ASSERT_TRUE(s.ok()) << a.ToString() << ": " << s;
  }
}

// RIF after moves 1-3: tentative white (the second player) may swap.
OpeningState RifSwapOption() {
  OpeningState state = Start("rif");
  Apply(state, {OpeningAction::Place(Pt("h8")), OpeningAction::Place(Pt("h9")),
                OpeningAction::Place(Pt("j10"))});
  EXPECT_TRUE(state.Allows(OpeningActionKind::kSwap));
  return state;
}

TEST(OpeningPlayerTest, TakesBlackWhenBlackIsWinning) {
  MarkedPointEvaluator evaluator(0.8f, {});
  OpeningPlayer player(SmallSearch(), OneVisit(), evaluator);
  Random rng(1);
  absl::StatusOr<OpeningDecision> d = player.Decide(RifSwapOption(), rng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->action.kind, OpeningActionKind::kSwap);
  EXPECT_GT(d->black_score, 0.5f);
  EXPECT_GT(d->value, 0.5f);
}

TEST(OpeningPlayerTest, KeepsWhiteWhenBlackIsHopeless) {
  MarkedPointEvaluator evaluator(-0.8f, {});
  OpeningPlayer player(SmallSearch(), OneVisit(), evaluator);
  Random rng(1);
  absl::StatusOr<OpeningDecision> d = player.Decide(RifSwapOption(), rng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->action.kind, OpeningActionKind::kKeepColours);
  EXPECT_LT(d->black_score, -0.5f);
}

// RIF up to black's offer: h8 h9 j10, keep, white i10.
OpeningState RifOffer() {
  OpeningState state = RifSwapOption();
  Apply(state, {OpeningAction::KeepColours(), OpeningAction::Place(Pt("i10"))});
  EXPECT_EQ(state.RequiredOfferCount(), 2);
  return state;
}

TEST(OpeningPlayerTest, OffersTheBestFifthsAndWhiteKeepsTheWorst) {
  // g7 is best for black, j7 second; every other point neutral (k11,
  // the mirror image of g7 here, would be refused beside it).
  MarkedPointEvaluator evaluator(0.0f, {{"g7", 0.7f}, {"j7", 0.4f}});
  OpeningParams params = OneVisit();
  params.max_candidates = 225;  // value every point, so both are seen
  OpeningPlayer player(SmallSearch(), params, evaluator);
  Random rng(3);
  OpeningState state = RifOffer();
  absl::StatusOr<OpeningDecision> offer = player.Decide(state, rng);
  ASSERT_TRUE(offer.ok()) << offer.status();
  ASSERT_EQ(offer->action.kind, OpeningActionKind::kOfferFifth);
  EXPECT_EQ(offer->action.points, (std::vector<Point>{Pt("g7"), Pt("j7")}));
  EXPECT_NEAR(offer->value, 0.4f, 1e-4);  // white keeps the worse one

  ASSERT_TRUE(state.Apply(offer->action).ok());
  absl::StatusOr<OpeningDecision> choice = player.Decide(state, rng);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->action, OpeningAction::ChooseFifth(Pt("j7")));
  EXPECT_NEAR(choice->value, -0.4f, 1e-4);
}

TEST(OpeningPlayerTest, TaraguchiSwapsAHopelessFifth) {
  OpeningState state = Start("taraguchi10");
  Apply(state, {OpeningAction::Place(Pt("h8")), OpeningAction::KeepColours(),
                OpeningAction::Place(Pt("h9")), OpeningAction::KeepColours(),
                OpeningAction::Place(Pt("j10")), OpeningAction::KeepColours(),
                OpeningAction::Place(Pt("g10"))});
  ASSERT_TRUE(state.Allows(OpeningActionKind::kOfferFifth));
  Random rng(5);
  {
    MarkedPointEvaluator bad(-0.6f, {});
    OpeningPlayer player(SmallSearch(), OneVisit(), bad);
    absl::StatusOr<OpeningDecision> d = player.Decide(state, rng);
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ(d->action.kind, OpeningActionKind::kSwap);
  }
  {
    MarkedPointEvaluator good(0.6f, {});
    OpeningPlayer player(SmallSearch(), OneVisit(), good);
    absl::StatusOr<OpeningDecision> d = player.Decide(state, rng);
    ASSERT_TRUE(d.ok()) << d.status();
    ASSERT_EQ(d->action.kind, OpeningActionKind::kOfferFifth);
    EXPECT_EQ(d->action.points.size(), 10u);
    EXPECT_TRUE(state.Apply(d->action).ok());
  }
}

TEST(OpeningPlayerTest, PlacesABalancedStoneBeforeASwapOption) {
  // Under swap1 the opponent may swap after move 1: h8 makes black winning,
  // a1 hopeless, h3 balanced.
  MarkedPointEvaluator evaluator(-0.5f, {{"h8", 1.2f}, {"h3", 0.5f}});
  OpeningParams params = OneVisit();
  params.max_candidates = 225;
  OpeningPlayer player(SmallSearch(), params, evaluator);
  Random rng(7);
  absl::StatusOr<OpeningDecision> d = player.Decide(Start("swap1"), rng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->action, OpeningAction::Place(Pt("h3")));
  EXPECT_NEAR(d->value, 0.0f, 1e-4);
}

// Swap2 after three stones: the second player's colour choice, which also
// allows placing moves 4 and 5.
OpeningState Swap2ColourChoice() {
  OpeningState state = Start("swap2");
  Apply(state, {OpeningAction::Place(Pt("h8")), OpeningAction::Place(Pt("i9")),
                OpeningAction::Place(Pt("j10"))});
  EXPECT_TRUE(state.Allows(OpeningActionKind::kPlace));
  return state;
}

TEST(OpeningPlayerTest, Swap2PlacesTwoStonesOnlyAsOftenAsConfigured) {
  MarkedPointEvaluator evaluator(0.8f, {});
  OpeningParams params = OneVisit();
  // Never by the values alone: black is winning, so it takes black.
  OpeningPlayer chooser(SmallSearch(), params, evaluator);
  Random rng(1);
  absl::StatusOr<OpeningDecision> d = chooser.Decide(Swap2ColourChoice(), rng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->action.kind, OpeningActionKind::kSwap);

  // Always: moves 4 and 5, then the first player chooses a colour.
  params.swap2_place_two_share = 1;
  OpeningPlayer placer(SmallSearch(), params, evaluator);
  OpeningState state = Swap2ColourChoice();
  for (int move = 4; move <= 5; ++move) {
    d = placer.Decide(state, rng);
    ASSERT_TRUE(d.ok()) << d.status();
    ASSERT_EQ(d->action.kind, OpeningActionKind::kPlace) << "move " << move;
    ASSERT_TRUE(state.Apply(d->action).ok());
  }
  EXPECT_EQ(state.to_act(), Player::kFirst);
  d = placer.Decide(state, rng);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_NE(d->action.kind, OpeningActionKind::kPlace);

  // Half the time: both choices over a fixed list of seeds.
  params.swap2_place_two_share = 0.5;
  OpeningPlayer sometimes(SmallSearch(), params, evaluator);
  int placed = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Random draw(seed);
    d = sometimes.Decide(Swap2ColourChoice(), draw);
    ASSERT_TRUE(d.ok()) << d.status();
    placed += d->action.kind == OpeningActionKind::kPlace;
  }
  EXPECT_GT(placed, 0);
  EXPECT_LT(placed, 20);

  params.swap2_place_two_share = 1.5;
  EXPECT_FALSE(params.Validate().ok());
}

TEST(OpeningPlayerTest, NonSymmetricPointsSkipMirrorImages) {
  // h8 alone: every point at the same distance in one of 8 directions is
  // symmetric; i9 and g7 are mirror images, i8 is not one of them.
  Game game = testing::MakeGame("h8", "", Color::kWhite);
  const std::vector<Point> points =
      NonSymmetricPoints(game, {Pt("i9"), Pt("g7"), Pt("i8"), Pt("h9")}, 5);
  EXPECT_EQ(points, (std::vector<Point>{Pt("i9"), Pt("i8")}));
}

const char* const kRules[] = {"rif",   "yamaguchi", "tarannikov", "taraguchi10",
                              "swap1", "swap3",     "swap2"};

TEST(OpeningPlayerTest, PlaysEveryRuleToTheEndOfItsOpening) {
  RandomEvaluator evaluator(11);
  OpeningParams params;
  params.candidate_visits = 4;
  params.max_candidates = 4;
  SearchParams search;
  search.max_visits = 8;
  OpeningPlayer player(search, params, evaluator);
  for (const char* rule : kRules) {
    SCOPED_TRACE(rule);
    OpeningState state = Start(rule);
    Random rng(13);
    for (int i = 0; i < 20 && !state.done(); ++i) {
      absl::StatusOr<OpeningDecision> d = player.Decide(state, rng);
      ASSERT_TRUE(d.ok()) << d.status();
      ASSERT_TRUE(state.Apply(d->action).ok())
          << d->action.ToString() << " refused: " << state.Expectation();
    }
    EXPECT_TRUE(state.done());
  }
}

TEST(OpeningPlayerTest, DefaultActionsFinishEveryRule) {
  for (const char* rule : kRules) {
    SCOPED_TRACE(rule);
    OpeningState state = Start(rule);
    Random rng(17);
    for (int i = 0; i < 20 && !state.done(); ++i) {
      const OpeningAction a = DefaultOpeningAction(state, rng);
      ASSERT_TRUE(state.Apply(a).ok())
          << a.ToString() << " refused: " << state.Expectation();
    }
    EXPECT_TRUE(state.done());
  }
}

TEST(OpeningPlayerTest, SameSeedSameDecisions) {
  RandomEvaluator evaluator(19);
  OpeningParams params;
  params.candidate_visits = 4;
  params.max_candidates = 3;
  SearchParams search;
  search.max_visits = 8;
  OpeningPlayer player(search, params, evaluator);
  auto play = [&](uint64_t seed) {
    OpeningState state = Start("yamaguchi");
    Random rng(seed);
    while (!state.done()) {
      absl::StatusOr<OpeningDecision> d = player.Decide(state, rng);
      EXPECT_TRUE(d.ok()) << d.status();
      if (!d.ok() || !state.Apply(d->action).ok()) break;
    }
    return state.actions();
  };
  EXPECT_EQ(play(23), play(23));
}

}  // namespace
}  // namespace renju
