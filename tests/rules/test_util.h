// Helpers shared by the rules tests: positions from point lists, moves
// from move lists.
#ifndef RENJU_TESTS_RULES_TEST_UTIL_H_
#define RENJU_TESTS_RULES_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/types.h"

namespace renju::testing {

inline Point Pt(const std::string& name, int size = kRenjuBoardSize) {
  absl::StatusOr<Point> p = ParsePoint(name, size);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Point(0, 0);
}

// A board with black and white stones given as "h8 h9 ..." lists.
inline Board MakeBoard(const std::string& black, const std::string& white = "",
                       Variant variant = Variant::kRenju,
                       int size = kRenjuBoardSize) {
  Board board(variant, size);
  for (absl::string_view s : absl::StrSplit(black, ' ', absl::SkipEmpty())) {
    board.Place(Pt(std::string(s), size), Color::kBlack);
  }
  for (absl::string_view s : absl::StrSplit(white, ' ', absl::SkipEmpty())) {
    board.Place(Pt(std::string(s), size), Color::kWhite);
  }
  return board;
}

// "h8 h9 pass ..." as moves; a bad list fails the test.
inline std::vector<Move> Moves(const std::string& text,
                               int size = kRenjuBoardSize) {
  absl::StatusOr<std::vector<Move>> moves = ParseMoveList(text, size);
  EXPECT_TRUE(moves.ok()) << moves.status();
  return moves.ok() ? *moves : std::vector<Move>{};
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_RULES_TEST_UTIL_H_
