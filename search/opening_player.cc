#include "search/opening_player.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "search/search.h"
#include "search/search_result.h"

namespace renju {
namespace {

using Kind = OpeningActionKind;

float ScoreFor(Player player, const OpeningState& state, float black_score) {
  return state.PlayerOf(Color::kBlack) == player ? black_score : -black_score;
}

// Whether the opponent of `player` may swap right after `action`.
bool OpponentMaySwapAfter(const OpeningState& state, Player player,
                          const OpeningAction& action) {
  OpeningState next = state;
  if (!next.Apply(action).ok() || next.done()) return false;
  return next.to_act() != player && next.Allows(Kind::kSwap);
}

// Index of the largest key; ties go to the earlier one (the search's order).
template <typename Key>
size_t BestIndex(const std::vector<CandidateValue>& values, Key key) {
  size_t best = 0;
  for (size_t i = 1; i < values.size(); ++i) {
    if (key(values[i]) > key(values[best])) best = i;
  }
  return best;
}

}  // namespace

struct OpeningPlayer::Context {
  Random& rng;
  const SearchStopper* stopper;
  int64_t visits = 0;
};

absl::Status OpeningParams::Validate() const {
  if (candidate_visits < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "opening candidate_visits = ", candidate_visits, " must be >= 1"));
  }
  if (max_candidates < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "opening max_candidates = ", max_candidates, " must be >= 1"));
  }
  if (!(swap2_place_two_share >= 0 && swap2_place_two_share <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening swap2_place_two_share = ", swap2_place_two_share,
                     " must be in 0..1"));
  }
  return absl::OkStatus();
}

OpeningPlayer::OpeningPlayer(const SearchParams& search,
                             const OpeningParams& params, Evaluator& evaluator)
    : search_(search), params_(params), evaluator_(evaluator) {}

absl::StatusOr<OpeningDecision> OpeningPlayer::Decide(
    const OpeningState& state, Random& rng, const SearchStopper* stopper) {
  if (state.done()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no opening decision to make: ", state.Expectation()));
  }
  Context ctx{rng, stopper};
  absl::StatusOr<OpeningDecision> decision;
  if (state.Allows(Kind::kChooseFifth)) {
    decision = Choose(state, ctx);
  } else if (state.Allows(Kind::kOfferFifth)) {
    decision = Offer(state, ctx);
  } else if (state.Allows(Kind::kDeclareCount)) {
    decision = Declare(state, ctx);
  } else if (state.Allows(Kind::kSwap) && !PlacesTwo(state, ctx)) {
    decision = SwapOrKeep(state, ctx);
  } else {
    decision = Place(state, ctx);
  }
  if (decision.ok()) decision->visits = ctx.visits;
  return decision;
}

bool OpeningPlayer::PlacesTwo(const OpeningState& state, Context& ctx) const {
  // Only swap2's colour choice after three stones also allows a stone.
  return state.Allows(Kind::kPlace) && params_.swap2_place_two_share > 0 &&
         ctx.rng.Uniform() < params_.swap2_place_two_share;
}

absl::StatusOr<SearchResult> OpeningPlayer::RunSearch(
    const SearchParams& params, const Game& game, Context& ctx) {
  Search search(params, evaluator_, game);
  RunOptions options;
  options.stopper = ctx.stopper;
  absl::StatusOr<SearchResult> result = search.Run(ctx.rng, options);
  if (result.ok()) ctx.visits += result->total_visits;
  return result;
}

absl::StatusOr<float> OpeningPlayer::BlackScore(const Game& game,
                                                Context& ctx) {
  // A plain valuation: no noise, no playout cap, the whole budget.
  SearchParams params = search_;
  params.max_visits = params_.candidate_visits;
  params.max_time_ms = 0;
  params.root_noise = false;
  params.playout_cap_randomisation = false;
  params.gumbel_root = false;
  absl::StatusOr<SearchResult> result = RunSearch(params, game, ctx);
  if (!result.ok()) return result.status();
  const float score = result->win - result->loss;
  return game.side_to_move() == Color::kBlack ? score : -score;
}

absl::StatusOr<std::vector<CandidateValue>> OpeningPlayer::Values(
    const Game& game, const std::vector<Point>& points, Context& ctx) {
  std::vector<CandidateValue> values;
  for (Point p : points) {
    Game next = game;
    if (absl::Status s = next.Play(Move::At(p)); !s.ok()) return s;
    absl::StatusOr<float> score = BlackScore(next, ctx);
    if (!score.ok()) return score.status();
    values.push_back({p, *score});
  }
  return values;
}

absl::StatusOr<std::vector<Point>> OpeningPlayer::Ranked(
    const Game& game, const std::vector<Point>& allowed, Context& ctx) {
  SearchParams params = search_;
  params.playout_cap_randomisation = false;
  absl::StatusOr<SearchResult> result = RunSearch(params, game, ctx);
  if (!result.ok()) return result.status();
  std::vector<bool> wanted(game.size() * game.size(), false);
  for (Point p : allowed) wanted[p.y * game.size() + p.x] = true;
  std::vector<Point> ranked;
  for (const ChildStats& child : result->children) {
    if (child.move.is_pass()) continue;
    const Point p = child.move.point();
    if (!wanted[p.y * game.size() + p.x]) continue;
    wanted[p.y * game.size() + p.x] = false;
    ranked.push_back(p);
  }
  // Points the search did not list (a tactic restricted the root): the
  // nearest to the centre first.
  std::vector<Point> rest;
  for (Point p : allowed) {
    if (wanted[p.y * game.size() + p.x]) rest.push_back(p);
  }
  std::stable_sort(rest.begin(), rest.end(), [&](Point a, Point b) {
    return CentreDistance(a, game.size()) < CentreDistance(b, game.size());
  });
  ranked.insert(ranked.end(), rest.begin(), rest.end());
  return ranked;
}

absl::StatusOr<OpeningDecision> OpeningPlayer::Place(const OpeningState& state,
                                                     Context& ctx) {
  const std::vector<Point> allowed = state.PlacementPoints();
  if (allowed.empty()) {
    return absl::InternalError(
        absl::StrCat("no point to place on: ", state.Expectation()));
  }
  OpeningDecision decision;
  if (allowed.size() == 1) {
    decision.action = OpeningAction::Place(allowed[0]);
    return decision;
  }
  absl::StatusOr<std::vector<Point>> ranked =
      Ranked(state.game(), allowed, ctx);
  if (!ranked.ok()) return ranked.status();
  const Player me = state.to_act();
  if (!OpponentMaySwapAfter(state, me, OpeningAction::Place(ranked->front()))) {
    decision.action = OpeningAction::Place(ranked->front());
    return decision;
  }
  // The opponent takes the better colour: place the most balanced stone.
  ranked->resize(std::min<size_t>(ranked->size(), params_.max_candidates));
  absl::StatusOr<std::vector<CandidateValue>> values =
      Values(state.game(), *ranked, ctx);
  if (!values.ok()) return values.status();
  const size_t best = BestIndex(*values, [](const CandidateValue& v) {
    return -std::abs(v.black_score);
  });
  decision.action = OpeningAction::Place((*values)[best].point);
  decision.value = -std::abs((*values)[best].black_score);
  decision.candidates = *std::move(values);
  return decision;
}

absl::StatusOr<OpeningDecision> OpeningPlayer::SwapOrKeep(
    const OpeningState& state, Context& ctx) {
  absl::StatusOr<float> black = BlackScore(state.game(), ctx);
  if (!black.ok()) return black.status();
  const float keep = ScoreFor(state.to_act(), state, *black);
  OpeningDecision decision;
  decision.black_score = *black;
  decision.action =
      -keep > keep ? OpeningAction::Swap() : OpeningAction::KeepColours();
  decision.value = std::max(keep, -keep);
  return decision;
}

absl::StatusOr<OpeningDecision> OpeningPlayer::Offer(const OpeningState& state,
                                                     Context& ctx) {
  const int n = state.RequiredOfferCount();
  absl::StatusOr<std::vector<Point>> ranked =
      Ranked(state.game(), state.PlacementPoints(), ctx);
  if (!ranked.ok()) return ranked.status();
  const std::vector<Point> pool = NonSymmetricPoints(
      state.game(), *ranked, std::max(n, params_.max_candidates));
  if (static_cast<int>(pool.size()) < n) {
    return absl::InternalError(
        absl::StrCat("only ", pool.size(),
                     " mutually non-symmetric 5th-move candidates for ",
                     state.Expectation()));
  }
  absl::StatusOr<std::vector<CandidateValue>> values =
      Values(state.game(), pool, ctx);
  if (!values.ok()) return values.status();
  // Black (the offerer) sorts by black's score; white keeps the worst.
  std::vector<CandidateValue> sorted = *values;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const CandidateValue& a, const CandidateValue& b) {
                     return a.black_score > b.black_score;
                   });
  std::vector<Point> offer;
  for (int i = 0; i < n; ++i) offer.push_back(sorted[i].point);
  OpeningDecision decision;
  decision.action = OpeningAction::OfferFifth(std::move(offer));
  decision.value = sorted[n - 1].black_score;
  if (state.Allows(Kind::kSwap)) {
    // Taraguchi (B): the other player places the most balanced fifth and
    // the swapper then takes the better colour.
    float balanced = 1;
    for (const CandidateValue& v : *values) {
      balanced = std::min(balanced, std::abs(v.black_score));
    }
    if (balanced > decision.value) {
      decision.action = OpeningAction::Swap();
      decision.value = balanced;
    }
  }
  decision.candidates = *std::move(values);
  return decision;
}

absl::StatusOr<OpeningDecision> OpeningPlayer::Choose(const OpeningState& state,
                                                      Context& ctx) {
  absl::StatusOr<std::vector<CandidateValue>> values =
      Values(state.game(), state.offered(), ctx);
  if (!values.ok()) return values.status();
  const Player me = state.to_act();
  const size_t best = BestIndex(*values, [&](const CandidateValue& v) {
    return ScoreFor(me, state, v.black_score);
  });
  OpeningDecision decision;
  decision.action = OpeningAction::ChooseFifth((*values)[best].point);
  decision.value = ScoreFor(me, state, (*values)[best].black_score);
  decision.candidates = *std::move(values);
  return decision;
}

absl::StatusOr<OpeningDecision> OpeningPlayer::Declare(
    const OpeningState& state, Context& ctx) {
  // White's expected move 4, then black's 5th-move candidates after it.
  Game game = state.game();
  absl::StatusOr<std::vector<Point>> replies =
      Ranked(game, game.LegalPoints(), ctx);
  if (!replies.ok()) return replies.status();
  if (absl::Status s = game.Play(Move::At(replies->front())); !s.ok()) return s;
  absl::StatusOr<std::vector<Point>> ranked =
      Ranked(game, game.LegalPoints(), ctx);
  if (!ranked.ok()) return ranked.status();
  const std::vector<Point> pool = NonSymmetricPoints(
      game, *ranked, std::min(params_.max_candidates, kMaxDeclaredFifthCount));
  absl::StatusOr<std::vector<CandidateValue>> values = Values(game, pool, ctx);
  if (!values.ok()) return values.status();
  std::vector<CandidateValue> sorted = *values;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const CandidateValue& a, const CandidateValue& b) {
                     return a.black_score > b.black_score;
                   });
  // Offering N leaves black the N-th best; white may swap after the count,
  // so the declarer wants it balanced. Ties: the smaller N.
  const size_t best = BestIndex(
      sorted, [](const CandidateValue& v) { return -std::abs(v.black_score); });
  OpeningDecision decision;
  decision.action = OpeningAction::DeclareCount(static_cast<int>(best) + 1);
  decision.value = -std::abs(sorted[best].black_score);
  decision.candidates = *std::move(values);
  return decision;
}

}  // namespace renju
