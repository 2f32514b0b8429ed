// SolverTable: what a solve stored is found under its key only, a key that
// shares its slot replaces it, and a new solve forgets everything.
#include "search/solver_table.h"

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(SolverTableTest, FindsWhatThisSolveStored) {
  SolverTable<int> table(/*bits=*/4);
  table.NewSolve();
  EXPECT_EQ(table.Find(7), nullptr);
  table.Store(7, 70);
  table.Store(8, 80);
  ASSERT_NE(table.Find(7), nullptr);
  EXPECT_EQ(*table.Find(7), 70);
  EXPECT_EQ(*table.Find(8), 80);
  // 7 + 16 shares 7's slot: not 7's value, and storing it replaces 7.
  EXPECT_EQ(table.Find(7 + 16), nullptr);
  table.Store(7 + 16, 230);
  EXPECT_EQ(table.Find(7), nullptr);
  EXPECT_EQ(*table.Find(7 + 16), 230);
}

TEST(SolverTableTest, ANewSolveForgetsEverything) {
  SolverTable<int> table(/*bits=*/4);
  table.NewSolve();
  table.Store(3, 30);
  table.NewSolve();
  EXPECT_EQ(table.Find(3), nullptr);
  table.Store(3, 31);
  EXPECT_EQ(*table.Find(3), 31);
  // Key 0 in a fresh slot is not taken for a stored value.
  EXPECT_EQ(table.Find(0), nullptr);
}

}  // namespace
}  // namespace renju
