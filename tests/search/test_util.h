// Helpers shared by the search tests: games from stone lists, parameters.
#ifndef RENJU_TESTS_SEARCH_TEST_UTIL_H_
#define RENJU_TESTS_SEARCH_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/types.h"
#include "search/search_params.h"

namespace renju::testing {

inline Point Pt(const std::string& name, int size = kRenjuBoardSize) {
  absl::StatusOr<Point> p = ParsePoint(name, size);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Point(0, 0);
}

inline std::vector<Point> Points(const std::string& names) {
  std::vector<Point> out;
  for (absl::string_view s : absl::StrSplit(names, ' ', absl::SkipEmpty())) {
    out.push_back(Pt(std::string(s)));
  }
  return out;
}

// A game holding the given stones with `to_move` to play. Stones are played
// alternately from the two lists, with a pass where one list runs out, so
// the move history is made up; only the position matters.
inline Game MakeGame(const std::string& black, const std::string& white,
                     Color to_move = Color::kBlack,
                     Variant variant = Variant::kRenju) {
  Game game(variant, kRenjuBoardSize);
  const std::vector<Point> stones[2] = {Points(black), Points(white)};
  size_t next[2] = {0, 0};
  auto play = [&](Move m) {
    const absl::Status s = game.Play(m, ForbiddenMovePolicy::kForgiven);
    EXPECT_TRUE(s.ok()) << s;
  };
  while (next[0] < stones[0].size() || next[1] < stones[1].size()) {
    const int c = Index(game.side_to_move());
    if (next[c] < stones[c].size()) {
      play(Move::At(stones[c][next[c]++]));
    } else {
      play(Move::Pass());
    }
  }
  if (game.side_to_move() != to_move) play(Move::Pass());
  EXPECT_FALSE(game.over()) << "test position already decided";
  return game;
}

// The search's defaults with a visit budget.
inline SearchParams Params(int64_t visits) {
  SearchParams p;
  p.max_visits = visits;
  return p;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_SEARCH_TEST_UTIL_H_
