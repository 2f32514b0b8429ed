// Opening rules (RULES.md §6) around the state machine: the symmetry test
// for 5th-move candidates, recorded openings (actions parsed from their
// text, replayed and checked against the game) and PlayOpening.
#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/opening.h"
#include "rules/symmetry.h"
#include "tests/rules/opening_test_util.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::Choose;
using testing::kKeep;
using testing::kSecond;
using testing::kSwap;
using testing::Moves;
using testing::Offer;
using testing::Place;
using testing::Pt;
using testing::Pts;

// --- Symmetry of 5th-move candidates -------------------------------------

bool Symmetric(const std::string& black, const std::string& white,
               const std::string& a, const std::string& b) {
  const bool ab =
      SymmetricFifthCandidates(Pts(black), Pts(white), Pt(a), Pt(b));
  const bool ba =
      SymmetricFifthCandidates(Pts(black), Pts(white), Pt(b), Pt(a));
  EXPECT_EQ(ab, ba) << a << " " << b;
  return ab;
}

TEST(FifthCandidateSymmetryTest, MirrorImagesInAMirrorPosition) {
  // Kansei with white h11: symmetric about column h only.
  EXPECT_TRUE(Symmetric("h8 h10", "h9 h11", "g8", "i8"));
  EXPECT_TRUE(Symmetric("h8 h10", "h9 h11", "a1", "o1"));
  EXPECT_FALSE(Symmetric("h8 h10", "h9 h11", "g8", "i9"));
  EXPECT_FALSE(Symmetric("h8 h10", "h9 h11", "g8", "g10"));
  EXPECT_TRUE(Symmetric("h8 h10", "h9 h11", "g8", "g8"));
}

TEST(FifthCandidateSymmetryTest, ColoursMustMatch) {
  // The four stones are symmetric about the row between h9 and h10 only if
  // colours are ignored: that reflection swaps black and white.
  EXPECT_FALSE(Symmetric("h8 h9", "h10 h11", "g8", "g11"));
  EXPECT_TRUE(Symmetric("h8 h9", "h10 h11", "g8", "i8"));
  EXPECT_TRUE(Symmetric("h8 h9 h10 h11", "", "g8", "g11"));
}

TEST(FifthCandidateSymmetryTest, IsometriesNeedNotFixTheCentre) {
  // Black h8 i9, white h9 i8: a half turn about the middle of the four
  // points maps g7 onto j10. No board symmetry (all fix h8) does.
  EXPECT_TRUE(Symmetric("h8 i9", "h9 i8", "g7", "j10"));
  EXPECT_TRUE(Symmetric("h8 i9", "h9 i8", "g10", "j7"));
  EXPECT_FALSE(Symmetric("h8 i9", "h9 i8", "g7", "g10"));
}

TEST(FifthCandidateSymmetryTest, TheBoardEdgeIsIgnored) {
  // The same shape in the corner: a1 (on the corner) and d4 are symmetric.
  EXPECT_TRUE(Symmetric("b2 c3", "b3 c2", "a1", "d4"));
  EXPECT_FALSE(Symmetric("b2 c3", "b3 c2", "a1", "a4"));
}

TEST(FifthCandidateSymmetryTest,
     NoTwoPointsAreSymmetricInAnAsymmetricPosition) {
  const std::vector<Point> black = Pts("h8 i10");
  const std::vector<Point> white = Pts("h9 k9");
  std::vector<Point> empty;
  for (int x = 0; x < kRenjuBoardSize; ++x) {
    for (int y = 0; y < kRenjuBoardSize; ++y) {
      const Point p(x, y);
      if (p != black[0] && p != black[1] && p != white[0] && p != white[1]) {
        empty.push_back(p);
      }
    }
  }
  int symmetric = 0;
  for (size_t i = 0; i < empty.size(); ++i) {
    for (size_t j = i + 1; j < empty.size(); ++j) {
      symmetric += SymmetricFifthCandidates(black, white, empty[i], empty[j]);
    }
  }
  EXPECT_EQ(symmetric, 0);
}

// Brute force over every isometry with a translation in a box large enough
// for 15 x 15 coordinates.
bool BruteForceSymmetric(const std::vector<Point>& black,
                         const std::vector<Point>& white, Point a, Point b) {
  auto move = [](Symmetry s, int dx, int dy, Point p) {
    const Point q = ApplySymmetry(s, p, kRenjuBoardSize);
    return Point(q.x + dx, q.y + dy);
  };
  auto maps_onto_itself = [&](Symmetry s, int dx, int dy,
                              const std::vector<Point>& set) {
    for (Point p : set) {
      if (std::find(set.begin(), set.end(), move(s, dx, dy, p)) == set.end()) {
        return false;
      }
    }
    return true;
  };
  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    for (int dx = -30; dx <= 30; ++dx) {
      for (int dy = -30; dy <= 30; ++dy) {
        if (move(s, dx, dy, a) == b && maps_onto_itself(s, dx, dy, black) &&
            maps_onto_itself(s, dx, dy, white)) {
          return true;
        }
      }
    }
  }
  return false;
}

TEST(FifthCandidateSymmetryTest, AgreesWithBruteForce) {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> coord(0, kRenjuBoardSize - 1);
  std::uniform_int_distribution<int> near(4, 10);
  std::uniform_int_distribution<int> shift(-3, 3);
  // The board symmetries that are their own inverse: {p, s(p)} is then
  // symmetric under s, so about half the positions below are symmetric.
  const Symmetry kInvolutions[] = {1, 2, 3, 4, 7};
  int symmetric_pairs = 0;
  int asymmetric_pairs = 0;
  for (int position = 0; position < 40; ++position) {
    const Symmetry s = kInvolutions[position % 5];
    const int dx = shift(rng);
    const int dy = shift(rng);
    auto image = [&](Point p) {  // s about a point off the centre
      const Point q =
          ApplySymmetry(s, Point(p.x - dx, p.y - dy), kRenjuBoardSize);
      return Point(q.x + dx, q.y + dy);
    };
    const Point p(near(rng), near(rng));
    const Point q(near(rng), near(rng));
    std::vector<Point> black = {p, image(p)};
    std::vector<Point> white = {q, image(q)};
    if (position % 2 == 1) white[1] = Point(near(rng), near(rng));
    if (p == image(p) || q == image(q) || p == q || p == image(q) ||
        white[1] == p || white[1] == image(p) || white[1] == q) {
      continue;  // fewer than four distinct stones
    }
    for (int pair = 0; pair < 20; ++pair) {
      const Point a(coord(rng), coord(rng));
      const Point b = pair % 2 ? image(a) : Point(coord(rng), coord(rng));
      if (!b.OnBoard(kRenjuBoardSize) || a == b) continue;
      const bool expected = BruteForceSymmetric(black, white, a, b);
      (expected ? symmetric_pairs : asymmetric_pairs) += 1;
      EXPECT_EQ(SymmetricFifthCandidates(black, white, a, b), expected)
          << "black " << PointName(black[0]) << " " << PointName(black[1])
          << " white " << PointName(white[0]) << " " << PointName(white[1])
          << ": " << PointName(a) << " " << PointName(b);
    }
  }
  // The test saw both answers, many times.
  EXPECT_GT(symmetric_pairs, 50);
  EXPECT_GT(asymmetric_pairs, 50);
}

// --- Recorded openings ------------------------------------------------------

std::vector<OpeningAction> ParseActions(const std::vector<std::string>& texts) {
  std::vector<OpeningAction> actions;
  for (const std::string& text : texts) {
    absl::StatusOr<OpeningAction> a = ParseOpeningAction(text);
    EXPECT_TRUE(a.ok()) << a.status();
    if (a.ok()) actions.push_back(*a);
  }
  return actions;
}

TEST(OpeningRecordTest, ActionsParseBackFromTheirText) {
  for (const OpeningAction& a :
       {Place("h8"), kSwap, kKeep, OpeningAction::DeclareCount(3),
        Offer("j9 g7 k11"), Choose("g7")}) {
    absl::StatusOr<OpeningAction> parsed = ParseOpeningAction(a.ToString());
    ASSERT_TRUE(parsed.ok()) << a.ToString() << ": " << parsed.status();
    EXPECT_EQ(*parsed, a) << a.ToString();
  }
  EXPECT_EQ(*ParseOpeningAction(" keepcolours "), kKeep);
  EXPECT_FALSE(ParseOpeningAction("Swap(h8)").ok());
  EXPECT_FALSE(ParseOpeningAction("Place").ok());
  EXPECT_FALSE(ParseOpeningAction("Place(h8 h9)").ok());
  EXPECT_FALSE(ParseOpeningAction("Place(z99)").ok());
  const absl::Status unknown = ParseOpeningAction("Resign").status();
  EXPECT_NE(unknown.message().find("'Resign'"), std::string::npos) << unknown;
}

TEST(OpeningRecordTest, ActionListsSplitOutsideParentheses) {
  absl::StatusOr<std::vector<OpeningAction>> list = ParseOpeningActionList(
      " Place(h8) Place(h9),Place(j10)  Swap OfferFifth(g7, j7) "
      "ChooseFifth(j7)");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(*list,
            (std::vector<OpeningAction>{Place("h8"), Place("h9"), Place("j10"),
                                        kSwap, Offer("g7 j7"), Choose("j7")}));
  EXPECT_TRUE(ParseOpeningActionList("")->empty());
  const absl::Status bad =
      ParseOpeningActionList("Place(h8) Place(h9) Resign Swap").status();
  EXPECT_NE(bad.message().find("action 3 of 4: opening action 'Resign'"),
            std::string::npos)
      << bad;
}

const std::vector<std::string> kRifActions = {
    "Place(h8)",  "Place(h9)",         "Place(j10)",     "Swap",
    "Place(i10)", "OfferFifth(g7 j7)", "ChooseFifth(j7)"};

TEST(OpeningRecordTest, AcceptsAFinishedOpeningAndItsMoves) {
  absl::StatusOr<OpeningState> state =
      CheckOpeningRecord(*ParseOpeningRule("rif"), ParseActions(kRifActions),
                         Moves("h8 h9 j10 i10 j7 k8 a1"));
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE(state->done());
  EXPECT_EQ(state->black_player(), kSecond);
  EXPECT_EQ(state->game().ply(), 5);
}

TEST(OpeningRecordTest, NamesTheFirstIllegalAction) {
  std::vector<std::string> forged = kRifActions;
  forged[3] = "Place(k12)";  // move 4 before the swap option was answered
  const absl::Status s =
      CheckOpeningRecord(*ParseOpeningRule("rif"), ParseActions(forged),
                         Moves("h8 h9 j10 k12"))
          .status();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("opening action 4 of 7 (Place(k12))"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("swap colours or keep them"), std::string::npos)
      << s;
}

TEST(OpeningRecordTest, RejectsAnUnfinishedOpeningAndOtherStones) {
  const std::vector<OpeningAction> actions = ParseActions(kRifActions);
  const std::vector<OpeningAction> short_list(actions.begin(),
                                              actions.end() - 1);
  const absl::Status unfinished =
      CheckOpeningRecord(*ParseOpeningRule("rif"), short_list,
                         Moves("h8 h9 j10 i10 j7"))
          .status();
  EXPECT_NE(unfinished.message().find("end before the opening is over"),
            std::string::npos)
      << unfinished;
  const absl::Status other =
      CheckOpeningRecord(*ParseOpeningRule("rif"), actions,
                         Moves("h8 h9 j10 i10 g7"))
          .status();
  EXPECT_NE(
      other.message().find("move 5 is g7 but the opening actions placed j7"),
      std::string::npos)
      << other;
}

TEST(PlayOpeningTest, TakesTheDecidersActionsToTheEnd) {
  OpeningState state = *OpeningState::Create(*ParseOpeningRule("rif"));
  const std::vector<OpeningAction> actions = ParseActions(kRifActions);
  size_t next = 0;
  auto script = [&](const OpeningState&) -> absl::StatusOr<OpeningAction> {
    return actions[next++];
  };
  ASSERT_TRUE(PlayOpening(state, script).ok());
  EXPECT_TRUE(state.done());
  EXPECT_EQ(state.actions(), actions);
}

TEST(PlayOpeningTest, NamesARefusedActionAndStopsWhenTold) {
  OpeningState state = *OpeningState::Create(*ParseOpeningRule("rif"));
  auto swap = [](const OpeningState&) -> absl::StatusOr<OpeningAction> {
    return OpeningAction::Swap();
  };
  const absl::Status refused = PlayOpening(state, swap);
  EXPECT_TRUE(absl::IsInternal(refused)) << refused;
  EXPECT_NE(refused.message().find(
                "the first player's opening action Swap was refused: out of "
                "phase"),
            std::string::npos)
      << refused;
  EXPECT_TRUE(state.actions().empty());

  auto failing = [](const OpeningState&) -> absl::StatusOr<OpeningAction> {
    return absl::UnavailableError("evaluator gone");
  };
  EXPECT_TRUE(absl::IsUnavailable(PlayOpening(state, failing)));

  const std::atomic<bool> stop{true};
  auto place = [](const OpeningState&) -> absl::StatusOr<OpeningAction> {
    return OpeningAction::Place(Pt("h8"));
  };
  EXPECT_TRUE(absl::IsCancelled(PlayOpening(state, place, &stop)));
  EXPECT_TRUE(state.actions().empty());
}

}  // namespace
}  // namespace renju
