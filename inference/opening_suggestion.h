// Suggest for an opening-rule decision (proto/inference.proto,
// SuggestRequest.opening_rule): the request's rule and actions become an
// OpeningState, and the opening player's decision (search/opening_player.h)
// becomes the response's OpeningSuggestion. The searches themselves run in
// MoveSuggester (move_suggester.h), on the served model.
#ifndef RENJU_INFERENCE_OPENING_SUGGESTION_H_
#define RENJU_INFERENCE_OPENING_SUGGESTION_H_

#include "absl/status/statusor.h"
#include "proto/inference.pb.h"
#include "rules/opening.h"
#include "search/opening_player.h"

namespace renju {

// True when `request` asks for an opening decision rather than a move.
bool IsOpeningRequest(const pb::SuggestRequest& request);

// The opening `request` asks about on a `variant` board of `size`: its
// actions replayed under its rule. InvalidArgument, with the reason, for an
// unknown rule, a position that holds moves or stones (the actions place
// them), an action that does not parse or that the rule refuses (naming the
// first such action, 1-based, and what the rule expected then), and an
// opening that is already over. The error names its field
// (base/error_field.h): "position", "opening_rule" or "opening_actions".
absl::StatusOr<OpeningState> OpeningStateOf(const pb::SuggestRequest& request,
                                            Variant variant, int size);

// response.opening and response.visits from `decision`, taken by
// state.to_act() in `state`.
void FillOpeningSuggestion(const OpeningState& state,
                           const OpeningDecision& decision,
                           pb::SuggestResponse& response);

}  // namespace renju

#endif  // RENJU_INFERENCE_OPENING_SUGGESTION_H_
