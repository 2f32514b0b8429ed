#include "gomocup/swap2.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gomocup/gomocup_protocol.h"
#include "rules/game.h"

namespace renju {
namespace {

// The most points an answer holds (the first player's three stones).
constexpr size_t kMaxAnswerPoints = 3;

absl::Status Invalid(absl::string_view why) {
  return absl::InvalidArgumentError(why);
}

// The colour choice that ends the opening with the acting player to move
// in the game when `actor_moves`, else with its opponent to move; none when
// the rule offers no such choice now.
std::optional<OpeningAction> EndingChoice(const OpeningState& state,
                                          bool actor_moves) {
  const Player actor = state.to_act();
  for (const OpeningAction& choice :
       {OpeningAction::Swap(), OpeningAction::KeepColours()}) {
    OpeningState next = state;
    if (!next.Apply(choice).ok() || !next.done()) continue;
    const bool actor_to_move =
        next.PlayerOf(next.game().side_to_move()) == actor;
    if (actor_to_move == actor_moves) return choice;
  }
  return std::nullopt;
}

// The answer "SWAP", or a single point after three or five stones: a
// colour choice that ends the opening, and the point as the next move.
absl::StatusOr<Swap2Turn> ChoiceTurn(const OpeningState& state,
                                     const Swap2Answer& answer) {
  const int size = state.game().size();
  const std::string what =
      answer.swap ? "SWAP"
                  : absl::StrCat("the single point ",
                                 GomocupPointText(answer.points[0], size));
  std::optional<OpeningAction> choice = EndingChoice(state, !answer.swap);
  if (!choice.has_value()) {
    return Invalid(absl::StrCat(what, " after ", state.game().ply(),
                                " stones: ", state.Expectation()));
  }
  Swap2Turn turn;
  turn.actions.push_back(*choice);
  if (answer.swap) return turn;
  OpeningState next = state;
  if (absl::Status s = next.Apply(*choice); !s.ok()) return s;
  Game game = next.game();
  const Point p = answer.points[0];
  if (absl::Status s = game.Play(Move::At(p)); !s.ok()) {
    return Invalid(absl::StrCat(what, " (", PointName(p), "), move ",
                                game.ply() + 1, ": ", s.message()));
  }
  turn.move = p;
  return turn;
}

}  // namespace

std::string Swap2AnswerText(const Swap2Answer& answer, int size) {
  if (answer.swap) return "SWAP";
  return absl::StrJoin(answer.points, " ", [size](std::string* out, Point p) {
    out->append(GomocupPointText(p, size));
  });
}

absl::StatusOr<Swap2Answer> ParseSwap2Answer(absl::string_view text, int size) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  Swap2Answer answer;
  if (absl::AsciiStrToUpper(trimmed) == "SWAP") {
    answer.swap = true;
    return answer;
  }
  for (absl::string_view token :
       absl::StrSplit(trimmed, absl::ByAnyChar(" \t"), absl::SkipEmpty())) {
    absl::StatusOr<Point> p = ParseGomocupPoint(token, size);
    if (!p.ok()) {
      return Invalid(
          absl::StrCat("swap2 answer '", text, "': ", p.status().message()));
    }
    answer.points.push_back(*p);
  }
  if (answer.points.empty() || answer.points.size() > kMaxAnswerPoints) {
    return Invalid(absl::StrCat("swap2 answer '", text,
                                "': expected SWAP or 1 to 3 points x,y"));
  }
  return answer;
}

absl::StatusOr<Swap2Turn> Swap2TurnOf(const OpeningState& state,
                                      const Swap2Answer& answer) {
  if (state.rule().kind != OpeningRuleKind::kSwap2 || state.done()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no swap2 decision to make: ", state.Expectation()));
  }
  if (answer.swap || (answer.points.size() == 1 &&
                      state.Allows(OpeningActionKind::kKeepColours))) {
    return ChoiceTurn(state, answer);
  }
  // Stones: as many as the player places before the other acts.
  const int size = state.game().size();
  const Player actor = state.to_act();
  OpeningState next = state;
  Swap2Turn turn;
  for (size_t i = 0; i < answer.points.size(); ++i) {
    const Point p = answer.points[i];
    const std::string which =
        absl::StrCat("point ", i + 1, " of ", answer.points.size(), " (",
                     GomocupPointText(p, size), ")");
    if (next.to_act() != actor || !next.Allows(OpeningActionKind::kPlace)) {
      return Invalid(
          absl::StrCat(which, " is one too many: ", next.Expectation()));
    }
    const OpeningAction place = OpeningAction::Place(p);
    if (absl::Status s = next.Apply(place); !s.ok()) {
      return Invalid(absl::StrCat(which, ": ", s.message()));
    }
    turn.actions.push_back(place);
  }
  if (!next.done() && next.to_act() == actor) {
    return Invalid(absl::StrCat("too few points (", answer.points.size(),
                                "): ", next.Expectation()));
  }
  return turn;
}

absl::StatusOr<OpeningState> Swap2StateOf(const std::vector<Point>& stones,
                                          Variant variant, int size) {
  if (stones.size() != 0 && stones.size() != 3 && stones.size() != 5) {
    return Invalid(
        absl::StrCat(stones.size(), " stones; swap2 asks after 0, 3 or 5"));
  }
  absl::StatusOr<OpeningState> state = OpeningState::Create(
      OpeningRule{OpeningRuleKind::kSwap2, 0}, variant, size);
  if (!state.ok()) return state.status();
  for (size_t i = 0; i < stones.size(); ++i) {
    if (absl::Status s = state->Apply(OpeningAction::Place(stones[i]));
        !s.ok()) {
      return Invalid(absl::StrCat("stone ", i + 1, " (",
                                  GomocupPointText(stones[i], size),
                                  "): ", s.message()));
    }
  }
  return state;
}

}  // namespace renju
