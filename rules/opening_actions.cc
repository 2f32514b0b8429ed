// Opening rule and action names, the actions' text form (ToString and its
// parsers), and driving an OpeningState by actions: ReplayOpening,
// PlayOpening, CheckOpeningRecord. The procedures and the state machine:
// opening.cc.
#include <algorithm>
#include <array>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rules/opening.h"
#include "rules/opening_internal.h"

namespace renju {
namespace {

using Kind = OpeningActionKind;
using opening_internal::kNumRuleKinds;
using opening_internal::PointsText;
using opening_internal::PointText;

// --- Names -------------------------------------------------------------------

struct RuleName {
  OpeningRuleKind kind;
  absl::string_view name;   // parsed and printed
  absl::string_view title;  // in messages
};

constexpr std::array<RuleName, kNumRuleKinds> kRuleNames = {{
    {OpeningRuleKind::kFree, "free", "free"},
    {OpeningRuleKind::kCentre, "centre", "centre"},
    {OpeningRuleKind::kSwap1, "swap1", "swap-1"},
    {OpeningRuleKind::kSwap3, "swap3", "swap-3"},
    {OpeningRuleKind::kRif, "rif", "RIF"},
    {OpeningRuleKind::kYamaguchi, "yamaguchi", "Yamaguchi"},
    {OpeningRuleKind::kTarannikov, "tarannikov", "Tarannikov"},
    {OpeningRuleKind::kTaraguchi, "taraguchi", "Taraguchi"},
    {OpeningRuleKind::kSwap2, "swap2", "swap2"},
}};

}  // namespace

namespace opening_internal {

std::string RuleTitle(const OpeningRule& rule) {
  const absl::string_view title = kRuleNames[static_cast<int>(rule.kind)].title;
  if (rule.kind != OpeningRuleKind::kTaraguchi) return std::string(title);
  return absl::StrCat(title, "-", rule.taraguchi_count);
}

// A point name, or raw coordinates for a point off every board.
std::string PointText(Point p, int size) {
  if (p.OnBoard(size)) return PointName(p);
  return absl::StrCat("(", p.x, ", ", p.y, ")");
}

std::string PointsText(const std::vector<Point>& points) {
  return absl::StrJoin(points, " ", [](std::string* out, Point p) {
    out->append(PointText(p, kMaxBoardSize));
  });
}

}  // namespace opening_internal

std::string OpeningRuleName(const OpeningRule& rule) {
  const absl::string_view name = kRuleNames[static_cast<int>(rule.kind)].name;
  if (rule.kind != OpeningRuleKind::kTaraguchi) return std::string(name);
  return absl::StrCat(name, rule.taraguchi_count);
}

absl::StatusOr<OpeningRule> ParseOpeningRule(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  for (const RuleName& entry : kRuleNames) {
    if (entry.kind != OpeningRuleKind::kTaraguchi && lower == entry.name) {
      return OpeningRule{entry.kind, 0};
    }
  }
  if (absl::StartsWith(lower, "taraguchi")) {
    const std::string digits = lower.substr(std::string("taraguchi").size());
    const bool numeric = !digits.empty() && digits.size() <= 2 &&
                         std::all_of(digits.begin(), digits.end(), [](char c) {
                           return absl::ascii_isdigit(c);
                         });
    const int n = numeric ? std::stoi(digits) : 0;
    if (n >= 1 && n <= kMaxTaraguchiCount) {
      return OpeningRule{OpeningRuleKind::kTaraguchi, n};
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "opening rule '", text, "': Taraguchi needs its number of 5th moves, ",
        "1..", kMaxTaraguchiCount, ", as in taraguchi10"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown opening rule '", text,
      "': expected free, centre, swap1, swap3, rif, yamaguchi, tarannikov, ",
      "taraguchi<N> (N in 1..", kMaxTaraguchiCount, ") or swap2"));
}

absl::string_view PlayerName(Player p) {
  return p == Player::kFirst ? "first" : "second";
}

// --- Actions -----------------------------------------------------------------

OpeningAction OpeningAction::Place(Point p) { return {Kind::kPlace, p, {}, 0}; }
OpeningAction OpeningAction::Pass() { return {Kind::kPass, {}, {}, 0}; }
OpeningAction OpeningAction::Swap() { return {Kind::kSwap, {}, {}, 0}; }
OpeningAction OpeningAction::KeepColours() {
  return {Kind::kKeepColours, {}, {}, 0};
}
OpeningAction OpeningAction::DeclareCount(int n) {
  return {Kind::kDeclareCount, {}, {}, n};
}
OpeningAction OpeningAction::OfferFifth(std::vector<Point> candidates) {
  return {Kind::kOfferFifth, {}, std::move(candidates), 0};
}
OpeningAction OpeningAction::ChooseFifth(Point p) {
  return {Kind::kChooseFifth, p, {}, 0};
}

std::string OpeningAction::ToString() const {
  switch (kind) {
    case Kind::kPlace:
      return absl::StrCat("Place(", PointText(point, kMaxBoardSize), ")");
    case Kind::kPass:
      return "Pass";
    case Kind::kSwap:
      return "Swap";
    case Kind::kKeepColours:
      return "KeepColours";
    case Kind::kDeclareCount:
      return absl::StrCat("DeclareCount(", count, ")");
    case Kind::kOfferFifth:
      return absl::StrCat("OfferFifth(", PointsText(points), ")");
    case Kind::kChooseFifth:
      return absl::StrCat("ChooseFifth(", PointText(point, kMaxBoardSize), ")");
  }
  return "?";
}

namespace {

struct ActionName {
  Kind kind;
  absl::string_view name;
};
constexpr std::array<ActionName, kNumOpeningActionKinds> kActionNames = {{
    {Kind::kPlace, "place"},
    {Kind::kPass, "pass"},
    {Kind::kSwap, "swap"},
    {Kind::kKeepColours, "keepcolours"},
    {Kind::kDeclareCount, "declarecount"},
    {Kind::kOfferFifth, "offerfifth"},
    {Kind::kChooseFifth, "choosefifth"},
}};

// Which kinds take an argument in parentheses.
bool TakesArgument(Kind kind) {
  return kind == Kind::kPlace || kind == Kind::kDeclareCount ||
         kind == Kind::kOfferFifth || kind == Kind::kChooseFifth;
}

}  // namespace

absl::StatusOr<OpeningAction> ParseOpeningAction(absl::string_view text,
                                                 int size) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  const size_t open = trimmed.find('(');
  const std::string name = absl::AsciiStrToLower(trimmed.substr(0, open));
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening action '", text, "': ", why));
  };
  const auto entry =
      std::find_if(kActionNames.begin(), kActionNames.end(),
                   [&](const ActionName& a) { return a.name == name; });
  if (entry == kActionNames.end()) {
    return error(
        "expected Place(h8), Swap, KeepColours, DeclareCount(N), "
        "OfferFifth(h8 j9 ...) or ChooseFifth(h8)");
  }
  if (!TakesArgument(entry->kind)) {
    if (open != absl::string_view::npos) return error("takes no argument");
    return OpeningAction{entry->kind, {}, {}, 0};
  }
  if (open == absl::string_view::npos || trimmed.back() != ')') {
    return error("needs its argument in parentheses");
  }
  const absl::string_view argument =
      trimmed.substr(open + 1, trimmed.size() - open - 2);
  if (entry->kind == Kind::kDeclareCount) {
    int n = 0;
    if (!absl::SimpleAtoi(argument, &n))
      return error("the count is not a number");
    return OpeningAction::DeclareCount(n);
  }
  std::vector<Point> points;
  for (absl::string_view token :
       absl::StrSplit(argument, absl::ByAnyChar(" ,"), absl::SkipEmpty())) {
    absl::StatusOr<Point> p = ParsePoint(token, size);
    if (!p.ok()) return error(p.status().message());
    points.push_back(*p);
  }
  if (entry->kind == Kind::kOfferFifth) {
    return OpeningAction::OfferFifth(std::move(points));
  }
  if (points.size() != 1) return error("needs exactly one point");
  return OpeningAction{entry->kind, points[0], {}, 0};
}

absl::StatusOr<std::vector<OpeningAction>> ParseOpeningActionList(
    absl::string_view text, int size) {
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (depth == 0 && (c == ' ' || c == ',' || c == '\t' || c == '\n')) {
      if (!current.empty()) items.push_back(std::move(current));
      current.clear();
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    current.push_back(c);
  }
  if (!current.empty()) items.push_back(std::move(current));
  std::vector<OpeningAction> actions;
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<OpeningAction> action = ParseOpeningAction(items[i], size);
    if (!action.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("action ", i + 1, " of ", items.size(), ": ",
                       action.status().message()));
    }
    actions.push_back(*std::move(action));
  }
  return actions;
}

absl::StatusOr<OpeningState> ReplayOpening(
    OpeningRule rule, const std::vector<OpeningAction>& actions,
    Variant variant, int size) {
  absl::StatusOr<OpeningState> state =
      OpeningState::Create(rule, variant, size);
  if (!state.ok()) return state.status();
  for (size_t i = 0; i < actions.size(); ++i) {
    if (absl::Status s = state->Apply(actions[i]); !s.ok()) {
      std::string message =
          absl::StrCat("opening action ", i + 1, " of ", actions.size(), " (",
                       actions[i].ToString(), "): ", s.message());
      // What the rule expected, unless the refusal says so already.
      const std::string expectation = state->Expectation();
      if (!absl::StrContains(s.message(), expectation)) {
        absl::StrAppend(&message, "; ", expectation);
      }
      return absl::Status(s.code(), message);
    }
  }
  return state;
}

absl::Status PlayOpening(OpeningState& state, const OpeningDecider& decide,
                         const std::atomic<bool>* stop) {
  auto stopped = [stop] { return stop != nullptr && stop->load(); };
  while (!state.done()) {
    if (stopped()) return absl::CancelledError("stopped in the opening");
    const Player player = state.to_act();
    absl::StatusOr<OpeningAction> action = decide(state);
    if (!action.ok()) return action.status();
    if (stopped()) return absl::CancelledError("stopped in the opening");
    if (absl::Status s = state.Apply(*action); !s.ok()) {
      return absl::InternalError(
          absl::StrCat("the ", PlayerName(player), " player's opening action ",
                       action->ToString(), " was refused: ", s.message()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<OpeningState> CheckOpeningRecord(
    OpeningRule rule, const std::vector<OpeningAction>& actions,
    const std::vector<Move>& moves, Variant variant, int size) {
  absl::StatusOr<OpeningState> state =
      ReplayOpening(rule, actions, variant, size);
  if (!state.ok()) return state.status();
  if (!state->done()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the ", actions.size(),
                     " opening actions end before the opening is over: ",
                     state->Expectation()));
  }
  const std::vector<Move>& placed = state->game().moves();
  for (size_t i = 0; i < placed.size(); ++i) {
    if (i >= moves.size() || moves[i] != placed[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", i + 1, " is ",
          i < moves.size() ? MoveName(moves[i]) : "missing",
          " but the opening actions placed ", MoveName(placed[i])));
    }
  }
  return state;
}

}  // namespace renju
