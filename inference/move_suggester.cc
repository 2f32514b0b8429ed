#include "inference/move_suggester.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/error_field.h"
#include "base/logging.h"
#include "base/random.h"
#include "config/config.h"
#include "inference/opening_suggestion.h"
#include "rpc/game_record.h"
#include "search/node.h"
#include "search/opening_player.h"
#include "search/search.h"
#include "search/search_result.h"
#include "search/stoppers.h"

namespace renju {
namespace {

// A search needs at least this long before the client's deadline to find
// anything (the root's evaluation and the reply); less is DEADLINE_EXCEEDED.
constexpr absl::Duration kMinSearchTime = absl::Milliseconds(20);
// The search stops this share of the remaining time before the deadline,
// within the bounds below, leaving room for playouts in flight and the reply.
// On a busy 2-core machine (an ASan build beside other tests) those took
// 345 ms past the stop time: a client that gives seconds gets its answer in
// time rather than DEADLINE_EXCEEDED. A client that wants all of its time
// searched sets time_ms.
constexpr int kDeadlineMarginDivisor = 5;
constexpr absl::Duration kMinDeadlineMargin = absl::Milliseconds(10);
constexpr absl::Duration kMaxDeadlineMargin = absl::Seconds(1);
constexpr int kDefaultCandidates = 5;

// The search settings for one Suggest: the server's, with the request's
// budget. Both budgets zero keep the server's own.
absl::StatusOr<SearchParams> SuggestParams(const pb::SuggestRequest& request,
                                           const pb::ServerConfig& server) {
  if (request.visits() < 0 || request.visits() > server.max_visits()) {
    return InvalidField(
        absl::StrCat("visits = ", request.visits(), " is outside 1..",
                     server.max_visits(), " (0: the server's default)"),
        "visits");
  }
  if (request.time_ms() < 0 || request.time_ms() > server.max_time_ms()) {
    return InvalidField(
        absl::StrCat("time_ms = ", request.time_ms(), " is outside 1..",
                     server.max_time_ms(), " (0: no time limit)"),
        "time_ms");
  }
  if (request.num_candidates() < 0 ||
      request.num_candidates() > server.max_candidates()) {
    return InvalidField(
        absl::StrCat("num_candidates = ", request.num_candidates(),
                     " is outside 1..", server.max_candidates(),
                     " (0: ", kDefaultCandidates, ")"),
        "num_candidates");
  }
  SearchParams params = ToPlayTimeSearchParams(server.search());
  // A suggestion spends the budget it was given.
  params.playout_cap_randomisation = false;
  if (request.visits() > 0 || request.time_ms() > 0) {
    // A time budget alone still stops at the server's visit limit: the
    // tree's memory is bounded by visits, not by time.
    params.max_visits =
        request.visits() > 0 ? request.visits() : server.max_visits();
    params.max_time_ms = request.time_ms();
  }
  // Searching with invalid params would be a crash, not an answer.
  if (absl::Status s = params.Validate(); !s.ok()) return s;
  return params;
}

// When the search must stop for the reply to beat the caller's deadline.
absl::StatusOr<absl::Time> StopTimeFor(absl::Time deadline) {
  if (deadline == absl::InfiniteFuture()) return absl::InfiniteFuture();
  const absl::Time end = deadline;
  const absl::Duration remaining = end - absl::Now();
  if (remaining < kMinSearchTime) {
    return absl::DeadlineExceededError(
        absl::StrCat("the deadline leaves ", absl::FormatDuration(remaining),
                     "; a suggestion needs at least ",
                     absl::FormatDuration(kMinSearchTime)));
  }
  const absl::Duration margin =
      std::clamp(remaining / kDeadlineMarginDivisor, kMinDeadlineMargin,
                 kMaxDeadlineMargin);
  return end - margin;
}

bool Cancelled(const SuggestStop& stop) {
  return stop.cancelled && stop.cancelled();
}

// Stops a suggestion's search at its stop time or when the caller cancels.
class RequestStopper : public SearchStopper {
 public:
  RequestStopper(const SuggestStop& stop, absl::Time stop_at)
      : stop_(stop), stop_at_(stop_at) {}
  bool ShouldStop(const SearchProgress&) const override {
    return absl::Now() >= stop_at_ || Cancelled(stop_);
  }

 private:
  const SuggestStop& stop_;
  const absl::Time stop_at_;
};

absl::Status CancelledByCaller() {
  return absl::CancelledError("the client cancelled");
}

// The root's tactic when it, not the search, chose the move.
std::string DecidedBy(const SearchResult& result) {
  const bool forced = (result.tactic == Tactic::kBlockFive ||
                       result.tactic == Tactic::kDefendVcf ||
                       result.tactic == Tactic::kDefendVct ||
                       result.tactic == Tactic::kCentreOpening) &&
                      result.children.size() == 1;
  if (result.tactic_decided || forced || result.tactic == Tactic::kLostToFive) {
    return std::string(TacticName(result.tactic));
  }
  return "";
}

// The root edge's line: its move, then the principal variation below it.
void FillCandidateLine(const Node& root, Move move, int size,
                       pb::Candidate& candidate) {
  candidate.add_principal_variation(MoveIndex(move, size));
  for (const Edge& edge : root.edges) {
    if (edge.move != move || edge.child == nullptr) continue;
    for (Move m : PrincipalVariation(*edge.child, size)) {
      candidate.add_principal_variation(MoveIndex(m, size));
    }
  }
}

// `root` is the searched tree's root, for the candidates' lines.
void FillSuggestion(const SearchResult& result, const Node& root, int size,
                    int num_candidates, int64_t generation,
                    pb::SuggestResponse& response) {
  response.set_best_move(MoveIndex(result.best_move, size));
  response.set_win(result.win);
  response.set_draw(result.draw);
  response.set_loss(result.loss);
  for (Move m : result.pv) response.add_principal_variation(MoveIndex(m, size));
  // A move chosen without visits (a forced defence, a lost root) has no
  // searched line; the move itself is the line.
  if (result.pv.empty()) response.add_principal_variation(response.best_move());
  const int n = std::min<int>(num_candidates, result.children.size());
  for (int i = 0; i < n; ++i) {
    const ChildStats& child = result.children[i];
    pb::Candidate* c = response.add_candidates();
    c->set_move(MoveIndex(child.move, size));
    c->set_visits(static_cast<int32_t>(child.visits));
    c->set_prior(child.prior);
    c->set_win(child.win);
    c->set_draw(child.draw);
    c->set_loss(child.loss);
    FillCandidateLine(root, child.move, size, *c);
  }
  response.set_visits(static_cast<int32_t>(result.total_visits));
  response.set_model_generation(generation);
  response.set_decided_by(DecidedBy(result));
  response.set_reused_visits(static_cast<int32_t>(result.reused_visits));
}

// Suggest for an opening decision (SuggestRequest.opening_rule): the
// opening player on the served model, every search of `visits` (or the
// server's), the whole decision ended by the deadline or time_ms.
absl::StatusOr<pb::SuggestResponse> SuggestOpening(
    const pb::SuggestRequest& request, const ServedModel& model,
    const pb::ServerConfig& server, const SuggestStop& stop, Random& rng) {
  absl::StatusOr<Game> board = ParseServedPosition(request.position(), model);
  if (!board.ok()) return WithMessagePrefix("position: ", board.status());
  absl::StatusOr<OpeningState> state =
      OpeningStateOf(request, board->variant(), board->size());
  if (!state.ok()) return state.status();
  absl::StatusOr<SearchParams> params = SuggestParams(request, server);
  if (!params.ok()) return params.status();
  OpeningParams opening = ToOpeningParams(server.search());
  if (request.visits() > 0) opening.candidate_visits = request.visits();
  params->max_visits =
      request.visits() > 0 ? request.visits() : server.search().visits();
  // A server that searches by time alone: each search gets the valuation's.
  if (params->max_visits <= 0) params->max_visits = opening.candidate_visits;
  params->max_time_ms = 0;  // time_ms bounds the decision, below
  absl::StatusOr<absl::Time> stop_at = StopTimeFor(stop.deadline);
  if (!stop_at.ok()) return stop_at.status();
  if (request.time_ms() > 0) {
    stop_at =
        std::min(*stop_at, absl::Now() + absl::Milliseconds(request.time_ms()));
  }
  RequestStopper stopper(stop, *stop_at);
  OpeningPlayer player(*params, opening, model.stack->evaluator());
  absl::StatusOr<OpeningDecision> decision =
      player.Decide(*state, rng, &stopper);
  if (!decision.ok()) return decision.status();
  if (Cancelled(stop)) return CancelledByCaller();
  pb::SuggestResponse response;
  FillOpeningSuggestion(*state, *decision, response);
  response.set_model_generation(model.info.generation());
  return response;
}

}  // namespace

SuggestMetrics RegisterSuggestMetrics(MetricsRegistry& registry) {
  SuggestMetrics metrics;
  metrics.latency_seconds = &registry.AddHistogram(
      "renju_server_suggest_latency_seconds",
      "Suggest calls (gRPC and HTTP /api/suggest), answered or not, from "
      "their start to their answer.",
      ExponentialBuckets(0.001, 2, 17));  // 1 ms .. 65 s (max_time_ms: 60 s)
  metrics.errors = &registry.AddCounterFamily(
      "renju_server_suggest_errors_total",
      "Suggest calls that failed, by status code.", {"code"});
  for (absl::StatusCode code :
       {absl::StatusCode::kInvalidArgument,
        absl::StatusCode::kResourceExhausted,
        absl::StatusCode::kDeadlineExceeded, absl::StatusCode::kCancelled}) {
    metrics.errors->WithLabels({absl::StatusCodeToString(code)});
  }
  return metrics;
}

MoveSuggester::MoveSuggester(const pb::RunConfig& config,
                             std::shared_ptr<const ServedModel> model,
                             uint64_t seed, const SuggestMetrics& metrics)
    : config_(config),
      seed_(seed),
      metrics_(metrics),
      limiter_(config.server().max_searches_per_client(),
               config.server().max_searches()),
      model_(std::move(model)) {
  const pb::ServerConfig& server = config_.server();
  if (server.tree_cache_trees() > 0) {
    TreeCacheLimits limits;
    limits.max_trees = server.tree_cache_trees();
    limits.max_age = absl::Seconds(server.tree_cache_seconds());
    limits.max_visits = server.tree_cache_visits();
    tree_cache_ = std::make_unique<TreeCache>(limits);
  }
}

MoveSuggester::~MoveSuggester() = default;

void MoveSuggester::SwapModel(std::shared_ptr<const ServedModel> model) {
  RENJU_LOG(INFO) << "serving generation " << model->info.generation()
                  << " (sha256 " << model->info.sha256() << ")";
  std::shared_ptr<const ServedModel> old;
  std::lock_guard<std::mutex> lock(mutex_);
  old = std::move(model_);  // freed after the lock, if no request holds it
  model_ = std::move(model);
}

std::shared_ptr<const ServedModel> MoveSuggester::model() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return model_;
}

absl::StatusOr<pb::SuggestResponse> MoveSuggester::Suggest(
    const pb::SuggestRequest& query, const std::string& client,
    const SuggestStop& stop) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<pb::SuggestResponse> response =
      SuggestUnmeasured(query, client, stop);
  if (metrics_.latency_seconds != nullptr) {
    metrics_.latency_seconds->Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  if (metrics_.errors != nullptr && !response.ok()) {
    metrics_.errors
        ->WithLabels({absl::StatusCodeToString(response.status().code())})
        .Increment();
  }
  return response;
}

absl::StatusOr<pb::SuggestResponse> MoveSuggester::SuggestUnmeasured(
    const pb::SuggestRequest& query, const std::string& client,
    const SuggestStop& stop) {
  // Refused at once, not queued: a client over its share waits on no one.
  std::optional<RequestLimiter::Lease> lease = limiter_.TryAcquire(client);
  if (!lease) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "too many searches at once (server.max_searches_per_client ",
        config_.server().max_searches_per_client(), ", server.max_searches ",
        config_.server().max_searches(), "); try again when one has finished"));
  }
  const std::shared_ptr<const ServedModel> served = model();
  if (IsOpeningRequest(query)) {
    Random rng(seed_, requests_.fetch_add(1));
    return SuggestOpening(query, *served, config_.server(), stop, rng);
  }
  return SuggestMove(query, served, stop);
}

absl::StatusOr<pb::SuggestResponse> MoveSuggester::SuggestMove(
    const pb::SuggestRequest& query,
    const std::shared_ptr<const ServedModel>& served, const SuggestStop& stop) {
  const ServedModel& model = *served;
  absl::StatusOr<Game> game = ParseServedPosition(query.position(), model);
  if (!game.ok()) return WithMessagePrefix("position: ", game.status());
  absl::StatusOr<SearchParams> params = SuggestParams(query, config_.server());
  if (!params.ok()) return params.status();
  absl::StatusOr<absl::Time> stop_at = StopTimeFor(stop.deadline);
  if (!stop_at.ok()) return stop_at.status();

  std::unique_ptr<Search> search;
  if (tree_cache_ != nullptr) {
    search = tree_cache_->Take(*game, served.get(), absl::Now());
  }
  if (search != nullptr) {
    search->SetParams(*params);
  } else {
    search = std::make_unique<Search>(*params, model.stack->evaluator(), *game);
  }
  Random rng(seed_, requests_.fetch_add(1));
  RequestStopper stopper(stop, *stop_at);
  RunOptions run;
  run.stopper = &stopper;
  absl::StatusOr<SearchResult> result = search->Run(rng, run);
  if (!result.ok()) return result.status();
  const int candidates =
      query.num_candidates() > 0 ? query.num_candidates() : kDefaultCandidates;
  pb::SuggestResponse response;
  // Before the tree goes to the cache, where another request may take it.
  FillSuggestion(*result, search->root(), game->size(), candidates,
                 model.info.generation(), response);
  // A failed search's tree is still usable (Search::Run), but a tree is
  // kept only after an answer.
  if (tree_cache_ != nullptr) {
    tree_cache_->Put(std::move(search), served, absl::Now());
  }
  if (Cancelled(stop)) return CancelledByCaller();
  return response;
}

}  // namespace renju
