// `renju show`: what people see for a position. The first case runs the
// binary; the rest call the command in-process (run_command.h says why).
#include <string>

#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

using testing::Contains;
using testing::RunCommand;
using testing::RunRenju;
using testing::Stderr;

TEST(ShowCommandTest, ShowsBoardOpeningAndForbiddenPoints) {
  // Kagetsu (h8 h9 i9), then a cross of black threes around j8.
  const auto r = RunRenju("show --moves 'h8 h9 i9 a1 i7 a15 j8 o1'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "opening: Kagetsu")) << r.out;
  EXPECT_TRUE(Contains(r.out, "side to move: black")) << r.out;
  EXPECT_TRUE(Contains(r.out, "result: ongoing")) << r.out;
  EXPECT_TRUE(Contains(r.out, " 8 . . . . . . . X * X . . . . .  8")) << r.out;
  EXPECT_TRUE(Contains(r.out, " 1 O . . . . . . . . . . . . .(O) 1")) << r.out;
  EXPECT_TRUE(Contains(r.out, "i8 double-three (horizontal, vertical)"))
      << r.out;
}

TEST(ShowCommandTest, ReportsFiveAndTheWinner) {
  const auto r =
      RunCommand(commands::Show, {"--moves", "h8 a1 i8 a2 j8 a3 k8 a4 l8"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "result: black by five")) << r.out;
}

TEST(ShowCommandTest, ForbiddenMoveLosesForBlack) {
  const auto r =
      RunCommand(commands::Show, {"--moves", "h9 a1 g8 a2 i8 a3 h7 a4 h8"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "result: white by forbidden move")) << r.out;
  EXPECT_TRUE(Contains(r.out, "forbidden move played: 9. h8 (double-three)"))
      << r.out;
}

TEST(ShowCommandTest, ListsForbiddenPointsWithKindsAndLines) {
  const auto r =
      RunCommand(commands::Show, {"--moves", "h9 a1 g8 a2 i8 a3 h7 a4"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "h8 double-three (horizontal, vertical)"))
      << r.out;
  EXPECT_TRUE(Contains(r.out, " 8 . . . . . . X * X . . . . . .  8")) << r.out;
}

TEST(ShowCommandTest, GomokuVariantsOnOtherSizes) {
  const auto r = RunCommand(commands::Show, {"--rule", "freestyle", "--size",
                                             "20", "--moves", "t20 a1"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "rule: freestyle, 20x20")) << r.out;
  EXPECT_FALSE(Contains(r.out, "forbidden points")) << r.out;
}

TEST(ShowCommandTest, BadInputNamesTheProblem) {
  auto r = RunCommand(commands::Show, {"--moves", "h8 h8"}, Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.out, "move 2 (h8) is on an occupied point")) << r.out;
  r = RunCommand(commands::Show, {"--moves", "h8 q3"}, Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.out, "move 2: bad point 'q3'")) << r.out;
  r = RunCommand(commands::Show, {"--rule", "gomoku"}, Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.out, "unknown rule 'gomoku'")) << r.out;
  r = RunCommand(commands::Show, {"--rule", "renju", "--size", "19"},
                 Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.out, "15 x 15 only")) << r.out;
  r = RunCommand(commands::Show, {"--moves", "h8 a1 i8 a2 j8 a3 k8 a4 l8 b1"},
                 Stderr::kCaptured);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.out, "after the end of the game")) << r.out;
}

}  // namespace
}  // namespace renju
