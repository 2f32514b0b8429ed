// The Gomocup swap2 convention (SWAP2BOARD) read as the swap2 opening's
// actions: every answer the convention allows after 0, 3 and 5 stones, and
// the answers it does not.
#include "gomocup/swap2.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gomocup/gomocup_protocol.h"
#include "gtest/gtest.h"

namespace renju {
namespace {

constexpr int kSize = 15;

// Gomocup x,y (y from the top).
Point At(int x, int y) { return FromGomocup(x, y, kSize); }

// The stones of the convention's examples: 7,7 8,7 9,9, then 8,8 8,6.
std::vector<Point> Stones(int n) {
  const std::vector<Point> all = {At(7, 7), At(8, 7), At(9, 9), At(8, 8),
                                  At(8, 6)};
  return std::vector<Point>(all.begin(), all.begin() + n);
}

OpeningState StateAfter(int stones) {
  absl::StatusOr<OpeningState> state =
      Swap2StateOf(Stones(stones), Variant::kFreestyle, kSize);
  EXPECT_TRUE(state.ok()) << state.status();
  return *state;
}

Swap2Answer Parsed(const std::string& text) {
  absl::StatusOr<Swap2Answer> answer = ParseSwap2Answer(text, kSize);
  EXPECT_TRUE(answer.ok()) << answer.status();
  return answer.ok() ? *answer : Swap2Answer();
}

// The state after `turn`, its move included when it has one.
OpeningState After(OpeningState state, const Swap2Turn& turn) {
  for (const OpeningAction& a : turn.actions) {
    EXPECT_TRUE(state.Apply(a).ok()) << a.ToString();
  }
  return state;
}

std::string ErrorOf(int stones, const std::string& answer) {
  absl::StatusOr<Swap2Turn> turn =
      Swap2TurnOf(StateAfter(stones), Parsed(answer));
  EXPECT_FALSE(turn.ok()) << answer << " after " << stones;
  return std::string(turn.status().message());
}

TEST(Swap2AnswerTest, ParsesAndWritesTheConventionsLines) {
  EXPECT_TRUE(Parsed("SWAP").swap);
  EXPECT_TRUE(Parsed(" swap ").swap);
  const Swap2Answer three = Parsed("7,7 8,7  9,9");
  EXPECT_FALSE(three.swap);
  EXPECT_EQ(three.points, Stones(3));
  EXPECT_EQ(Swap2AnswerText(three, kSize), "7,7 8,7 9,9");
  EXPECT_EQ(Swap2AnswerText(Parsed("swap"), kSize), "SWAP");

  for (const char* bad :
       {"", "hello", "7,7 8,7 9,9 1,1", "15,3", "7;7", "SWAP 7,7"}) {
    absl::StatusOr<Swap2Answer> answer = ParseSwap2Answer(bad, kSize);
    EXPECT_FALSE(answer.ok()) << bad;
    EXPECT_TRUE(absl::StrContains(answer.status().message(),
                                  absl::StrCat("swap2 answer '", bad, "'")))
        << answer.status();
  }
}

TEST(Swap2TurnTest, TheFirstPlayerPlacesThreeStones) {
  const OpeningState empty = StateAfter(0);
  absl::StatusOr<Swap2Turn> turn = Swap2TurnOf(empty, Parsed("7,7 8,7 9,9"));
  ASSERT_TRUE(turn.ok()) << turn.status();
  ASSERT_EQ(turn->actions.size(), 3u);
  EXPECT_EQ(turn->actions[2], OpeningAction::Place(At(9, 9)));
  EXPECT_FALSE(turn->move.has_value());
  EXPECT_EQ(After(empty, *turn).to_act(), Player::kSecond);

  EXPECT_TRUE(absl::StrContains(ErrorOf(0, "7,7 8,7"), "too few points (2)"));
  EXPECT_TRUE(absl::StrContains(ErrorOf(0, "7,7"), "too few points (1)"));
  EXPECT_TRUE(absl::StrContains(ErrorOf(0, "SWAP"), "SWAP after 0 stones"));
  EXPECT_TRUE(
      absl::StrContains(ErrorOf(0, "7,7 7,7 9,9"), "point 2 of 3 (7,7)"));
}

TEST(Swap2TurnTest, TheSecondPlayerTakesBlackKeepsWhiteOrPlacesTwo) {
  const OpeningState three = StateAfter(3);
  // SWAP: it takes black; the first player, now white, has move 4.
  absl::StatusOr<Swap2Turn> swap = Swap2TurnOf(three, Parsed("SWAP"));
  ASSERT_TRUE(swap.ok()) << swap.status();
  EXPECT_EQ(swap->actions, std::vector<OpeningAction>{OpeningAction::Swap()});
  EXPECT_FALSE(swap->move.has_value());
  const OpeningState swapped = After(three, *swap);
  EXPECT_TRUE(swapped.done());
  EXPECT_EQ(swapped.black_player(), Player::kSecond);

  // One point: it keeps white, and that is move 4.
  absl::StatusOr<Swap2Turn> keep = Swap2TurnOf(three, Parsed("8,8"));
  ASSERT_TRUE(keep.ok()) << keep.status();
  EXPECT_EQ(keep->actions,
            std::vector<OpeningAction>{OpeningAction::KeepColours()});
  EXPECT_EQ(keep->move, At(8, 8));
  const OpeningState kept = After(three, *keep);
  EXPECT_TRUE(kept.done());
  EXPECT_EQ(kept.PlayerOf(kept.game().side_to_move()), Player::kSecond);

  // Two points: moves 4 and 5, and the first player chooses.
  absl::StatusOr<Swap2Turn> two = Swap2TurnOf(three, Parsed("8,8 8,6"));
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->actions,
            (std::vector<OpeningAction>{OpeningAction::Place(At(8, 8)),
                                        OpeningAction::Place(At(8, 6))}));
  EXPECT_EQ(After(three, *two).to_act(), Player::kFirst);

  EXPECT_TRUE(absl::StrContains(ErrorOf(3, "9,9"), "the single point 9,9"));
  EXPECT_TRUE(absl::StrContains(ErrorOf(3, "8,8 8,6 1,1"),
                                "point 3 of 3 (1,1) is one too many"));
}

TEST(Swap2TurnTest, AfterFiveStonesSwapKeepsBlackAndAPointTakesWhite) {
  const OpeningState five = StateAfter(5);
  ASSERT_EQ(five.to_act(), Player::kFirst);
  // SWAP: the first player, tentative black, keeps black; white moves.
  absl::StatusOr<Swap2Turn> swap = Swap2TurnOf(five, Parsed("SWAP"));
  ASSERT_TRUE(swap.ok()) << swap.status();
  EXPECT_EQ(swap->actions,
            std::vector<OpeningAction>{OpeningAction::KeepColours()});
  const OpeningState kept = After(five, *swap);
  EXPECT_TRUE(kept.done());
  EXPECT_EQ(kept.black_player(), Player::kFirst);
  EXPECT_EQ(kept.PlayerOf(kept.game().side_to_move()), Player::kSecond);

  // A point: it swaps to white and that is move 6.
  absl::StatusOr<Swap2Turn> point = Swap2TurnOf(five, Parsed("6,8"));
  ASSERT_TRUE(point.ok()) << point.status();
  EXPECT_EQ(point->actions, std::vector<OpeningAction>{OpeningAction::Swap()});
  EXPECT_EQ(point->move, At(6, 8));
  const OpeningState swapped = After(five, *point);
  EXPECT_EQ(swapped.PlayerOf(swapped.game().side_to_move()), Player::kFirst);

  EXPECT_FALSE(ErrorOf(5, "6,8 6,9").empty());
  EXPECT_TRUE(absl::StrContains(ErrorOf(5, "8,6"), "occupied"));
}

TEST(Swap2StateTest, TakesZeroThreeOrFiveStonesInOrder) {
  EXPECT_EQ(StateAfter(5).game().ply(), 5);
  absl::StatusOr<OpeningState> four =
      Swap2StateOf(Stones(4), Variant::kFreestyle, kSize);
  EXPECT_FALSE(four.ok());
  EXPECT_TRUE(absl::StrContains(four.status().message(),
                                "4 stones; swap2 asks after 0, 3 or 5"))
      << four.status();
  absl::StatusOr<OpeningState> twice =
      Swap2StateOf({At(7, 7), At(7, 7), At(9, 9)}, Variant::kFreestyle, kSize);
  EXPECT_FALSE(twice.ok());
  EXPECT_TRUE(absl::StrContains(twice.status().message(), "stone 2 (7,7)"))
      << twice.status();
  // Swap2 is played on any size and under every variant.
  EXPECT_TRUE(Swap2StateOf(Stones(3), Variant::kRenju, kSize).ok());
  EXPECT_TRUE(Swap2StateOf({}, Variant::kStandard, 20).ok());
}

}  // namespace
}  // namespace renju
