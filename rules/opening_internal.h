// Helpers shared by opening.cc (the rules' procedures and the state
// machine) and opening_actions.cc (names, the actions' text, replaying and
// playing openings). Not part of the interface.
#ifndef RENJU_RULES_OPENING_INTERNAL_H_
#define RENJU_RULES_OPENING_INTERNAL_H_

#include <string>
#include <vector>

#include "rules/opening.h"
#include "rules/types.h"

namespace renju::opening_internal {

// The number of OpeningRuleKind values.
inline constexpr int kNumRuleKinds = 9;

// The rule's name in messages: "RIF", "Taraguchi-10", ...
std::string RuleTitle(const OpeningRule& rule);

// A point name, or raw coordinates for a point off every board.
std::string PointText(Point p, int size);

// The points' names, separated by spaces.
std::string PointsText(const std::vector<Point>& points);

}  // namespace renju::opening_internal

#endif  // RENJU_RULES_OPENING_INTERNAL_H_
