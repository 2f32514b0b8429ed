#include "inference/opening_suggestion.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/error_field.h"
#include "rpc/game_record.h"

namespace renju {

bool IsOpeningRequest(const pb::SuggestRequest& request) {
  return !request.opening_rule().empty() || request.opening_actions_size() > 0;
}

absl::StatusOr<OpeningState> OpeningStateOf(const pb::SuggestRequest& request,
                                            Variant variant, int size) {
  const pb::Position& position = request.position();
  if (position.moves_size() > 0 || position.black_size() > 0 ||
      position.white_size() > 0) {
    return InvalidField(
        "an opening request's position gives only the variant and board "
        "size; its opening_actions place the stones",
        "position");
  }
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(request.opening_rule());
  if (!rule.ok()) return InvalidField(rule.status().message(), "opening_rule");
  absl::StatusOr<std::vector<OpeningAction>> actions =
      OpeningActionsFromProto(request.opening_actions(), size);
  if (!actions.ok()) {
    return InvalidField(actions.status().message(), "opening_actions");
  }
  absl::StatusOr<OpeningState> state =
      ReplayOpening(*rule, *actions, variant, size);
  if (!state.ok())
    return InvalidField(state.status().message(), "opening_actions");
  if (state->done()) {
    return InvalidField(
        absl::StrCat(state->Expectation(),
                     "; ask for a move with the position instead"),
        "opening_actions");
  }
  return state;
}

void FillOpeningSuggestion(const OpeningState& state,
                           const OpeningDecision& decision,
                           pb::SuggestResponse& response) {
  const int size = state.game().size();
  const Player player = state.to_act();
  pb::OpeningSuggestion* out = response.mutable_opening();
  out->set_expectation(state.Expectation());
  out->set_player(std::string(PlayerName(player)));
  out->set_color(state.PlayerOf(Color::kBlack) == player ? pb::BLACK
                                                         : pb::WHITE);
  *out->mutable_action() = ToProto(decision.action, size);
  out->set_action_text(decision.action.ToString());
  out->set_value(decision.value);
  out->set_black_score(decision.black_score);
  for (const CandidateValue& c : decision.candidates) {
    pb::OpeningCandidate* candidate = out->add_candidates();
    candidate->set_point(PointIndex(c.point, size));
    candidate->set_black_score(c.black_score);
  }
  response.set_visits(static_cast<int32_t>(decision.visits));
}

}  // namespace renju
