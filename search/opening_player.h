// A player for the opening phase of an opening rule (RULES.md §6;
// rules/opening.h): it answers the action the rule expects next with the
// same searches the game uses, so no network head of its own is needed.
//
//   placing a stone   a search of the position (SearchParams), its moves
//                     ranked by visits then prior, restricted to the area
//                     the rule allows. When the opponent may swap right
//                     after the stone, the best-ranked candidates are
//                     valued one by one and the most balanced one is
//                     placed: the opponent takes the better colour, so the
//                     placer's score is -|black's score|.
//   swap or keep      black's score of the position, searched; the player
//                     takes the colour with the higher score (keeps on a
//                     tie). swap2's third choice, placing two more stones,
//                     is never better by the same scores (the chooser
//                     would get min(s, -s) <= 0 <= max(s, -s)), so it is
//                     taken only as often as OpeningParams::
//                     swap2_place_two_share draws it (self-play, so that
//                     the network sees five-stone swap2 positions); then
//                     move 4 is the search's best and move 5, before the
//                     opponent's colour choice, the most balanced.
//   offering N fifths mutually non-symmetric candidates (RULES.md §6) in
//                     the order of the search, each valued; the N best for
//                     black are offered, and black expects the worst of
//                     them, the one white keeps.
//   keeping a fifth   each offered candidate valued; white keeps the one
//                     worst for black.
//   Yamaguchi count   after white's expected move 4 (the search's best),
//                     the non-symmetric 5th candidates are valued; black
//                     declares the N whose N-th best value is the most
//                     balanced, since white may swap after the count.
//   Taraguchi branch  (A) offering N as above, against (B) swapping: the
//                     other player then places the most balanced 5th move
//                     of the candidates and the swapper takes the better
//                     colour, |score|. The higher expected score wins.
//
// Values are scores in [-1, 1] (win - loss) of a search of
// OpeningParams::candidate_visits visits per position. Every random draw
// comes from the Random passed in, so with one search thread a decision is
// deterministic for a seed. Not thread-safe; one per game thread (the
// evaluator is shared and thread-safe).
#ifndef RENJU_SEARCH_OPENING_PLAYER_H_
#define RENJU_SEARCH_OPENING_PLAYER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/random.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "search/evaluator.h"
#include "search/search_params.h"
#include "search/search_result.h"
#include "search/stoppers.h"

namespace renju {

// The opening player's budget, beside the SearchParams of its searches;
// filled from the search config (config/config.cc ToOpeningParams).
struct OpeningParams {
  // Visits of the search that values one candidate position; >= 1.
  int64_t candidate_visits = 64;
  // Candidate points valued per decision, >= 1; an offer of N fifths
  // values at least N.
  int max_candidates = 8;
  // Swap2's second player, offered a colour after three stones, places
  // moves 4 and 5 instead with this probability, in [0, 1], drawn from the
  // Random of Decide (only when above 0, so other settings draw nothing).
  double swap2_place_two_share = 0;

  // InvalidArgument naming the bad field.
  absl::Status Validate() const;
};

// One candidate point and black's score after it, in [-1, 1].
struct CandidateValue {
  Point point;
  float black_score = 0;
};

struct OpeningDecision {
  OpeningAction action;
  // The acting player's expected score after the action, in [-1, 1], by
  // the values behind the decision (0 for a forced single point).
  float value = 0;
  // Swap decisions: black's score of the position decided on.
  float black_score = 0;
  // The candidates valued, in the search's order (empty for swaps).
  std::vector<CandidateValue> candidates;
  // Search visits the decision spent.
  int64_t visits = 0;
};

class OpeningPlayer {
 public:
  // `search` must be valid; its visit budget ranks the points of a
  // placement. `evaluator` is not owned and must outlive the player.
  OpeningPlayer(const SearchParams& search, const OpeningParams& params,
                Evaluator& evaluator);

  // The action for state.to_act(). `stopper` (may be null) cuts searches
  // short; the decision is then made on what they found. Errors: the
  // opening is over; the evaluator failed.
  absl::StatusOr<OpeningDecision> Decide(
      const OpeningState& state, Random& rng,
      const SearchStopper* stopper = nullptr);

 private:
  struct Context;

  absl::StatusOr<OpeningDecision> Place(const OpeningState& state,
                                        Context& ctx);
  absl::StatusOr<OpeningDecision> SwapOrKeep(const OpeningState& state,
                                             Context& ctx);
  // Whether swap2's second player places two stones instead of choosing a
  // colour now (OpeningParams::swap2_place_two_share).
  bool PlacesTwo(const OpeningState& state, Context& ctx) const;
  absl::StatusOr<OpeningDecision> Offer(const OpeningState& state,
                                        Context& ctx);
  absl::StatusOr<OpeningDecision> Choose(const OpeningState& state,
                                         Context& ctx);
  absl::StatusOr<OpeningDecision> Declare(const OpeningState& state,
                                          Context& ctx);

  // One search of `game` under the caller's stopper; counts its visits.
  absl::StatusOr<SearchResult> RunSearch(const SearchParams& params,
                                         const Game& game, Context& ctx);
  // Black's score of `game` after a search of candidate_visits.
  absl::StatusOr<float> BlackScore(const Game& game, Context& ctx);
  // Black's score after each point played in `game`, in order.
  absl::StatusOr<std::vector<CandidateValue>> Values(
      const Game& game, const std::vector<Point>& points, Context& ctx);
  // `allowed` in the order of a search of `game` (visits, then prior),
  // the points the search did not list last.
  absl::StatusOr<std::vector<Point>> Ranked(const Game& game,
                                            const std::vector<Point>& allowed,
                                            Context& ctx);

  const SearchParams search_;
  const OpeningParams params_;
  Evaluator& evaluator_;
};

// How far `p` is from the centre of a `size` board, in lines (the larger
// of the two coordinate distances).
int CentreDistance(Point p, int size);

// Up to `n` of `ranked`, in order, skipping each point symmetric to one
// already taken (RULES.md §6 symmetry of 5th-move candidates, for the
// stones of `game`).
std::vector<Point> NonSymmetricPoints(const Game& game,
                                      const std::vector<Point>& ranked, int n);

// The action of a player without opening judgement (an external engine,
// the tactical or random player): keeps colours, declares 2 fifths (RIF's
// number), keeps the first offered fifth, places and offers at random
// (from `rng`) near the centre (within 3 lines of it where the rule's area
// allows). Always legal. The opening must not be over.
OpeningAction DefaultOpeningAction(const OpeningState& state, Random& rng);

}  // namespace renju

#endif  // RENJU_SEARCH_OPENING_PLAYER_H_
