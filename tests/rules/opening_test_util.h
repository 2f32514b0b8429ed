// Helpers shared by the opening tests (opening_test.cc and
// opening_record_test.cc): the players, point lists and opening actions
// from point names.
#ifndef RENJU_TESTS_RULES_OPENING_TEST_UTIL_H_
#define RENJU_TESTS_RULES_OPENING_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "rules/opening.h"
#include "rules/types.h"
#include "tests/rules/test_util.h"

namespace renju::testing {

inline constexpr Player kFirst = Player::kFirst;
inline constexpr Player kSecond = Player::kSecond;

inline std::vector<Point> Pts(const std::string& list) {
  std::vector<Point> points;
  for (absl::string_view s : absl::StrSplit(list, ' ', absl::SkipEmpty())) {
    points.push_back(Pt(std::string(s)));
  }
  return points;
}

inline OpeningAction Place(const std::string& p) {
  return OpeningAction::Place(Pt(p));
}
inline OpeningAction Offer(const std::string& list) {
  return OpeningAction::OfferFifth(Pts(list));
}
inline OpeningAction Choose(const std::string& p) {
  return OpeningAction::ChooseFifth(Pt(p));
}
inline const OpeningAction kSwap = OpeningAction::Swap();
inline const OpeningAction kKeep = OpeningAction::KeepColours();

}  // namespace renju::testing

#endif  // RENJU_TESTS_RULES_OPENING_TEST_UTIL_H_
