// Opening rules (RULES.md §6): the rule names, a full legal sequence for
// each rule, and every kind of illegal action with a clear error and an
// unchanged state. The symmetry test for 5th-move candidates, recorded
// openings and PlayOpening: opening_record_test.cc.
#include "rules/opening.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/canonical_openings.h"
#include "tests/rules/opening_test_util.h"

namespace renju {
namespace {

using testing::Choose;
using testing::kFirst;
using testing::kKeep;
using testing::kSecond;
using testing::kSwap;
using testing::Offer;
using testing::Place;
using testing::Pts;

const OpeningAction kPass = OpeningAction::Pass();

OpeningState Make(const std::string& rule_name) {
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(rule_name);
  EXPECT_TRUE(rule.ok()) << rule.status();
  absl::StatusOr<OpeningState> state = OpeningState::Create(*rule);
  EXPECT_TRUE(state.ok()) << state.status();
  return *std::move(state);
}

// Each action by the named player; all must be accepted.
void Play(OpeningState& state,
          const std::vector<std::pair<Player, OpeningAction>>& actions) {
  for (const auto& [player, action] : actions) {
    const absl::Status s = state.Apply(player, action);
    ASSERT_TRUE(s.ok()) << action.ToString() << " by " << PlayerName(player)
                        << ": " << s;
  }
}

// Everything observable about a state, to check that a rejection changed
// nothing.
std::string Snapshot(const OpeningState& s) {
  std::string out = MoveListString(s.game().moves());
  absl::StrAppend(&out, "|", PlayerName(s.black_player()), "|",
                  PlayerName(s.to_act()), "|", s.done(), "|",
                  s.actions().size(), "|", s.declared_count().value_or(-1), "|",
                  OpeningAction::OfferFifth(s.offered()).ToString(), "|",
                  s.Expectation(), "|", s.game().hash());
  return out;
}

void ExpectRejected(OpeningState& state, Player player,
                    const OpeningAction& action, const std::string& expected) {
  const std::string before = Snapshot(state);
  const absl::Status s = state.Apply(player, action);
  ASSERT_FALSE(s.ok()) << action.ToString() << " was accepted";
  EXPECT_NE(std::string(s.message()).find(expected), std::string::npos)
      << "error: " << s.message() << "\nexpected to contain: " << expected;
  EXPECT_EQ(Snapshot(state), before) << action.ToString();
}

// The same, by whoever is expected to act.
void ExpectRejected(OpeningState& state, const OpeningAction& action,
                    const std::string& expected) {
  ExpectRejected(state, state.to_act(), action, expected);
}

void ExpectDone(const OpeningState& s, const std::string& moves, Player black) {
  EXPECT_TRUE(s.done());
  EXPECT_EQ(MoveListString(s.game().moves()), moves);
  EXPECT_EQ(s.black_player(), black);
  EXPECT_EQ(s.to_act(), s.PlayerOf(s.game().side_to_move()));
  EXPECT_FALSE(s.game().over());
  for (int k = 0; k < kNumOpeningActionKinds; ++k) {
    EXPECT_FALSE(s.Allows(static_cast<OpeningActionKind>(k)));
  }
}

// --- Rule names ----------------------------------------------------------

TEST(OpeningRuleTest, NamesRoundTrip) {
  for (const char* name :
       {"free", "centre", "swap1", "swap3", "rif", "yamaguchi", "tarannikov",
        "taraguchi10", "taraguchi5", "swap2"}) {
    absl::StatusOr<OpeningRule> rule = ParseOpeningRule(name);
    ASSERT_TRUE(rule.ok()) << rule.status();
    EXPECT_EQ(OpeningRuleName(*rule), name);
  }
  ASSERT_TRUE(ParseOpeningRule("RIF").ok());
  EXPECT_EQ(ParseOpeningRule("RIF")->kind, OpeningRuleKind::kRif);
  EXPECT_EQ(ParseOpeningRule("Taraguchi10")->taraguchi_count, 10);
}

TEST(OpeningRuleTest, BadNamesAreClearErrors) {
  for (const char* name : {"", "rif2", "swap", "renju", "taraguchi-10"}) {
    absl::StatusOr<OpeningRule> rule = ParseOpeningRule(name);
    ASSERT_FALSE(rule.ok()) << name;
    EXPECT_NE(std::string(rule.status().message())
                  .find("'" + std::string(name) + "'"),
              std::string::npos)
        << rule.status();
  }
  EXPECT_NE(std::string(ParseOpeningRule("bogus").status().message())
                .find("expected free, centre"),
            std::string::npos);
  for (const char* name : {"taraguchi", "taraguchi0", "taraguchi11"}) {
    absl::StatusOr<OpeningRule> rule = ParseOpeningRule(name);
    ASSERT_FALSE(rule.ok()) << name;
    EXPECT_NE(std::string(rule.status().message()).find("1..10"),
              std::string::npos)
        << rule.status();
  }
}

TEST(OpeningRuleTest, CreateChecksTheRuleAndBoard) {
  EXPECT_FALSE(OpeningState::Create({OpeningRuleKind::kTaraguchi, 0}).ok());
  EXPECT_FALSE(OpeningState::Create({OpeningRuleKind::kTaraguchi, 11}).ok());
  EXPECT_FALSE(OpeningState::Create({OpeningRuleKind::kRif, 3}).ok());
  absl::StatusOr<OpeningState> rif20 =
      OpeningState::Create({OpeningRuleKind::kRif, 0}, Variant::kFreestyle, 20);
  ASSERT_FALSE(rif20.ok());
  EXPECT_NE(std::string(rif20.status().message()).find("15 x 15"),
            std::string::npos)
      << rif20.status();
  EXPECT_FALSE(
      OpeningState::Create({OpeningRuleKind::kSwap2, 0}, Variant::kRenju, 20)
          .ok());

  // Swap2 is the Gomocup rule: freestyle on 20 x 20 is fine.
  absl::StatusOr<OpeningState> swap2 = OpeningState::Create(
      {OpeningRuleKind::kSwap2, 0}, Variant::kFreestyle, 20);
  ASSERT_TRUE(swap2.ok()) << swap2.status();
  EXPECT_EQ(swap2->PlacementPoints().size(), 400u);
  EXPECT_TRUE(swap2->Apply(OpeningAction::Place(Point(19, 19))).ok());
}

// --- Full legal sequences ------------------------------------------------

TEST(OpeningStateTest, FreeHasNoOpeningPhase) {
  OpeningState s = Make("free");
  ExpectDone(s, "", kFirst);
  EXPECT_EQ(s.to_act(), kFirst);
  EXPECT_EQ(s.game().side_to_move(), Color::kBlack);
  ExpectRejected(s, Place("h8"), "opening is over");
}

TEST(OpeningStateTest, Centre) {
  OpeningState s = Make("centre");
  EXPECT_EQ(s.PlacementPoints(), Pts("h8"));
  ExpectRejected(s, Place("g7"), "move 1 must be on h8, got g7");
  Play(s, {{kFirst, Place("h8")}});
  ExpectDone(s, "h8", kFirst);
  EXPECT_EQ(s.to_act(), kSecond);
}

TEST(OpeningStateTest, Swap1WithAndWithoutSwap) {
  OpeningState s = Make("swap1");
  Play(s, {{kFirst, Place("a1")}, {kSecond, kSwap}});
  ExpectDone(s, "a1", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);  // now white, to play move 2

  OpeningState t = Make("swap1");
  Play(t, {{kFirst, Place("o15")}, {kSecond, kKeep}});
  ExpectDone(t, "o15", kFirst);
  EXPECT_EQ(t.to_act(), kSecond);
}

TEST(OpeningStateTest, Swap3) {
  OpeningState s = Make("swap3");
  Play(s, {{kFirst, Place("a1")},
           {kFirst, Place("b2")},
           {kFirst, Place("c3")},
           {kSecond, kSwap}});
  ExpectDone(s, "a1 b2 c3", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);
}

TEST(OpeningStateTest, RifFullSequence) {
  OpeningState s = Make("rif");
  EXPECT_EQ(s.to_act(), kFirst);
  Play(s,
       {{kFirst, Place("h8")}, {kFirst, Place("h9")}, {kFirst, Place("j10")}});
  const std::optional<RecognizedOpening> opening =
      RecognizeOpening(s.game().moves());
  ASSERT_TRUE(opening.has_value());
  EXPECT_EQ(std::string(CanonicalOpenings()[opening->index].name), "Sosei");
  EXPECT_EQ(s.to_act(), kSecond);
  Play(s, {{kSecond, kSwap}});
  EXPECT_EQ(s.black_player(), kSecond);
  EXPECT_EQ(s.PlacementPoints().size(), 222u);  // move 4 anywhere
  Play(s, {{kFirst, Place("i10")}});
  EXPECT_EQ(s.RequiredOfferCount(), 2);
  Play(s, {{kSecond, Offer("g9 k12")}});
  EXPECT_EQ(s.offered(), Pts("g9 k12"));
  EXPECT_EQ(s.to_act(), kFirst);
  Play(s, {{kFirst, Choose("k12")}});
  ExpectDone(s, "h8 h9 j10 i10 k12", kSecond);
  EXPECT_EQ(s.game().side_to_move(), Color::kWhite);
  EXPECT_EQ(s.to_act(), kFirst);
  EXPECT_EQ(s.actions().size(), 7u);
}

TEST(OpeningStateTest, YamaguchiFullSequence) {
  OpeningState s = Make("yamaguchi");
  Play(s, {{kFirst, Place("h8")},
           {kFirst, Place("i9")},
           {kFirst, Place("f6")},
           {kFirst, OpeningAction::DeclareCount(3)},
           {kSecond, kKeep},
           {kSecond, Place("j12")}});
  EXPECT_EQ(s.declared_count(), 3);
  EXPECT_EQ(s.RequiredOfferCount(), 3);
  Play(s, {{kFirst, Offer("a1 k10 g8")}, {kSecond, Choose("g8")}});
  ExpectDone(s, "h8 i9 f6 j12 g8", kFirst);
  EXPECT_EQ(s.to_act(), kSecond);
}

TEST(OpeningStateTest, TarannikovFullSequence) {
  OpeningState s = Make("tarannikov");
  // Each stone is placed by whoever holds its colour at the time; after it
  // the other player may swap.
  Play(s, {{kFirst, Place("h8")},
           {kSecond, kSwap},  // second is black
           {kFirst, Place("i9")},
           {kSecond, kKeep},
           {kSecond, Place("j10")},
           {kFirst, kSwap},  // first is black
           {kSecond, Place("k11")},
           {kFirst, kKeep},
           {kFirst, Place("l12")},
           {kSecond, kSwap}});  // second is black
  ExpectDone(s, "h8 i9 j10 k11 l12", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);
  EXPECT_EQ(s.game().side_to_move(), Color::kWhite);
}

TEST(OpeningStateTest, TaraguchiBranchAOffersN) {
  OpeningState s = Make("taraguchi10");
  Play(s, {{kFirst, Place("h8")},
           {kSecond, kKeep},
           {kSecond, Place("g9")},
           {kFirst, kKeep},
           {kFirst, Place("j9")},
           {kSecond, kSwap},  // second is black
           {kFirst, Place("e5")}});
  EXPECT_EQ(s.to_act(), kSecond);
  EXPECT_TRUE(s.Allows(OpeningActionKind::kOfferFifth));
  EXPECT_TRUE(s.Allows(OpeningActionKind::kSwap));
  EXPECT_FALSE(s.Allows(OpeningActionKind::kKeepColours));
  EXPECT_EQ(s.RequiredOfferCount(), 10);
  EXPECT_EQ(s.PlacementPoints().size(), 77u);  // the 9x9 less four stones
  Play(s, {{kSecond, Offer("d4 d5 d6 d7 d8 d9 d10 d11 d12 l12")},
           {kFirst, Choose("d12")}});
  ExpectDone(s, "h8 g9 j9 e5 d12", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);
}

TEST(OpeningStateTest, TaraguchiBranchBSwapsAndSwapsBack) {
  OpeningState s = Make("taraguchi5");
  Play(s, {{kFirst, Place("h8")},
           {kSecond, kKeep},
           {kSecond, Place("g9")},
           {kFirst, kKeep},
           {kFirst, Place("j9")},
           {kSecond, kKeep},
           {kSecond, Place("e5")},
           {kFirst, kSwap}});  // (B): the first player takes white
  EXPECT_EQ(s.black_player(), kSecond);
  EXPECT_EQ(s.to_act(), kSecond);  // the new black places move 5
  ExpectRejected(s, Place("m13"),
                 "move 5 must be inside the central 9x9 (d4-l12), got m13");
  Play(s, {{kSecond, Place("l4")}, {kFirst, kSwap}});  // the final swap
  ExpectDone(s, "h8 g9 j9 e5 l4", kFirst);
  EXPECT_EQ(s.to_act(), kSecond);
}

TEST(OpeningStateTest, Swap2TakesAColourAtOnce) {
  OpeningState s = Make("swap2");
  Play(s, {{kFirst, Place("a1")},
           {kFirst, Place("h8")},
           {kFirst, Place("o15")},
           {kSecond, kSwap}});
  ExpectDone(s, "a1 h8 o15", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);

  OpeningState t = Make("swap2");
  Play(t, {{kFirst, Place("a1")},
           {kFirst, Place("h8")},
           {kFirst, Place("o15")},
           {kSecond, kKeep}});
  ExpectDone(t, "a1 h8 o15", kFirst);
  EXPECT_EQ(t.to_act(), kSecond);
}

TEST(OpeningStateTest, Swap2PlacesTwoMoreAndHandsTheChoiceBack) {
  OpeningState s = Make("swap2");
  Play(s, {{kFirst, Place("h8")},
           {kFirst, Place("h9")},
           {kFirst, Place("j10")},
           {kSecond, Place("i9")}});
  // Having placed move 4, the second player must place move 5 too.
  ExpectRejected(s, kSwap, "out of phase");
  ExpectRejected(s, kFirst, Place("k11"), "out of turn");
  Play(s, {{kSecond, Place("k11")}});
  EXPECT_EQ(s.to_act(), kFirst);
  Play(s, {{kFirst, kSwap}});
  ExpectDone(s, "h8 h9 j10 i9 k11", kSecond);
  EXPECT_EQ(s.to_act(), kFirst);
}

// --- Illegal actions -----------------------------------------------------

TEST(OpeningStateTest, RifRejectsEveryWrongAction) {
  OpeningState s = Make("rif");
  const std::string expects_move1 =
      "RIF expects black (the first player) to place move 1 on h8";
  ExpectRejected(s, kPass, "passing is not allowed during the opening");
  ExpectRejected(s, kSwap, "out of phase: " + expects_move1 + ", got Swap");
  ExpectRejected(s, kKeep, "out of phase");
  ExpectRejected(s, OpeningAction::DeclareCount(2), "out of phase");
  ExpectRejected(s, Offer("g8 i9"), "out of phase");
  ExpectRejected(s, Choose("g8"), "out of phase");
  ExpectRejected(s, Place("g7"), "move 1 must be on h8, got g7");
  ExpectRejected(s, OpeningAction::Place(Point(15, 3)), "off the 15x15");
  ExpectRejected(s, kSecond, Place("h8"),
                 "out of turn: " + expects_move1 +
                     ", got Place(h8) from the second player");

  Play(s, {{kFirst, Place("h8")}});
  ExpectRejected(s, Place("h8"), "occupied");
  ExpectRejected(s, Place("j10"),
                 "move 2 must be inside the central 3x3 (g7-i9), got j10");
  Play(s, {{kFirst, Place("h9")}});
  ExpectRejected(s, Place("k11"),
                 "move 3 must be inside the central 5x5 (f6-j10), got k11");
  Play(s, {{kFirst, Place("h10")}});  // Kansei

  ExpectRejected(s, Place("h11"),
                 "out of phase: RIF expects white (the second player) to swap "
                 "colours or keep them, got Place(h11)");
  ExpectRejected(s, kPass, "passing is not allowed");
  ExpectRejected(s, kFirst, kSwap, "out of turn");
  Play(s, {{kSecond, kKeep}});

  ExpectRejected(s, Place("h9"), "occupied");
  ExpectRejected(s, Offer("g8 i9"), "out of phase");
  Play(s, {{kSecond, Place("h11")}});  // mirror-symmetric about column h

  ExpectRejected(s, Place("g8"), "out of phase");
  ExpectRejected(s, Offer("g8"), "RIF expects 2 5th-move candidates, got 1");
  ExpectRejected(s, Offer("g8 i9 j9"), "expects 2 5th-move candidates, got 3");
  ExpectRejected(s, Offer("g8 g8"), "5th-move candidate g8 is offered twice");
  ExpectRejected(s, Offer("g8 h10"), "h10 is on an occupied point");
  ExpectRejected(s, Offer("g8 i8"),
                 "5th-move candidates g8 and i8 are symmetric");
  ExpectRejected(s, Offer("a15 o15"),
                 "5th-move candidates a15 and o15 are symmetric");
  ExpectRejected(s, kSecond, Offer("g8 i9"), "out of turn");
  Play(s, {{kFirst, Offer("g8 i9")}});

  ExpectRejected(
      s, Place("h7"),
      "out of phase: RIF expects white (the second player) to "
      "choose one of the 2 offered 5th moves (g8 i9), got Place(h7)");
  ExpectRejected(s, Choose("h7"),
                 "h7 is not one of the offered 5th moves (g8 i9)");
  ExpectRejected(s, kPass, "passing is not allowed");
  ExpectRejected(s, kFirst, Choose("g8"), "out of turn");
  Play(s, {{kSecond, Choose("i9")}});

  ExpectDone(s, "h8 h9 h10 h11 i9", kFirst);
  ExpectRejected(s, Place("a1"), "opening is over");
  ExpectRejected(s, kSwap, "opening is over");
}

TEST(OpeningStateTest, YamaguchiRejectsBadCounts) {
  OpeningState s = Make("yamaguchi");
  ExpectRejected(s, OpeningAction::DeclareCount(3), "out of phase");
  Play(s,
       {{kFirst, Place("h8")}, {kFirst, Place("h9")}, {kFirst, Place("i10")}});
  ExpectRejected(s, Place("a1"),
                 "out of phase: Yamaguchi expects black (the first player) to "
                 "declare how many 5th-move candidates black will offer");
  ExpectRejected(s, kSwap, "out of phase");
  ExpectRejected(s, OpeningAction::DeclareCount(0), "must be in 1..28, got 0");
  ExpectRejected(s, OpeningAction::DeclareCount(29), "got 29");
  Play(s, {{kFirst, OpeningAction::DeclareCount(3)}, {kSecond, kSwap}});
  ExpectRejected(s, OpeningAction::DeclareCount(2), "out of phase");
  Play(s, {{kFirst, Place("a1")}});
  ExpectRejected(
      s, Offer("b1 c1"),
      "Yamaguchi expects 3 5th-move candidates (as declared), got 2");
  ExpectRejected(s, Offer("b1 c1 b1"), "b1 is offered twice");
  Play(s, {{kSecond, Offer("b1 c1 d1")}});
  ExpectRejected(s, Choose("e1"), "not one of the offered");
}

TEST(OpeningStateTest, TarannikovRejectsMovesOutsideTheirSquare) {
  OpeningState s = Make("tarannikov");
  Play(s, {{kFirst, Place("h8")}});
  ExpectRejected(s, Place("h9"), "out of phase");
  ExpectRejected(s, kPass, "passing is not allowed");
  Play(s, {{kSecond, kKeep}});
  ExpectRejected(s, kSwap, "out of phase");
  ExpectRejected(s, Place("f8"), "move 2 must be inside the central 3x3");
  Play(s, {{kSecond, Place("g8")}, {kFirst, kKeep}});
  ExpectRejected(s, Place("e8"), "move 3 must be inside the central 5x5");
  Play(s, {{kFirst, Place("f8")}, {kSecond, kKeep}});
  ExpectRejected(s, Place("l12"),
                 "move 4 must be inside the central 7x7 (e5-k11), got l12");
  Play(s, {{kSecond, Place("e8")}, {kFirst, kKeep}});
  ExpectRejected(s, Offer("d8"), "out of phase");
  ExpectRejected(s, Place("m13"),
                 "move 5 must be inside the central 9x9 (d4-l12), got m13");
  Play(s, {{kFirst, Place("l12")}});
  EXPECT_FALSE(s.done());
  Play(s, {{kSecond, kKeep}});
  ExpectDone(s, "h8 g8 f8 e8 l12", kFirst);
}

TEST(OpeningStateTest, TaraguchiDecisionRejectsWrongActions) {
  OpeningState s = Make("taraguchi5");
  Play(s, {{kFirst, Place("h8")},
           {kSecond, kKeep},
           {kSecond, Place("i8")},
           {kFirst, kKeep},
           {kFirst, Place("h10")},
           {kSecond, kKeep},
           {kSecond, Place("k8")}});
  const std::string expects =
      "Taraguchi-5 expects black (the first player) to offer 5 mutually "
      "non-symmetric 5th-move candidates inside the central 9x9 (d4-l12) or "
      "swap colours";
  EXPECT_EQ(s.Expectation(), expects);
  ExpectRejected(s, kKeep, "out of phase: " + expects + ", got KeepColours");
  ExpectRejected(s, Place("d4"), "out of phase");
  ExpectRejected(s, kPass, "passing is not allowed");
  ExpectRejected(s, Offer("d4 d5 d6 d7"), "expects 5 5th-move candidates");
  ExpectRejected(s, Offer("d4 d5 d6 d7 m13"),
                 "a 5th-move candidate must be inside the central 9x9 "
                 "(d4-l12), got m13");
  ExpectRejected(s, Offer("d4 d5 d6 d7 h8"), "h8 is on an occupied point");
  Play(s, {{kFirst, Offer("d4 d5 d6 d7 d8")}});
  ExpectRejected(s, kSwap, "out of phase");
  Play(s, {{kSecond, Choose("d4")}});
  ExpectDone(s, "h8 i8 h10 k8 d4", kFirst);
}

}  // namespace
}  // namespace renju
