#include "inference/inference_service.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/logging.h"
#include "config/config.h"
#include "inference/opening_suggestion.h"
#include "rpc/bearer_token.h"
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

grpc::Status Invalid(absl::string_view what) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(what));
}

// The game of a request's position, checked against the served network.
// Every error is InvalidArgument: the position is the client's input.
absl::StatusOr<Game> ParsePosition(const pb::Position& position,
                                   const ServedModel& model) {
  absl::StatusOr<Game> game = GameFromPosition(position);
  if (!game.ok()) return absl::InvalidArgumentError(game.status().message());
  const int size = model.stack->network().board_size;
  if (game->size() != size) {
    return absl::InvalidArgumentError(
        absl::StrCat("the position is on a ", game->size(), "x", game->size(),
                     " board; the served network plays ", size, "x", size));
  }
  if (std::find(model.variants.begin(), model.variants.end(),
                game->variant()) == model.variants.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the served network was not trained for ",
                     VariantName(game->variant())));
  }
  if (game->over()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the game is already over (", GameResultName(game->result()), " by ",
        EndReasonName(game->end_reason()), ")"));
  }
  return game;
}

// The search settings for one Suggest: the server's, with the request's
// budget. Both budgets zero keep the server's own.
absl::StatusOr<SearchParams> SuggestParams(const pb::SuggestRequest& request,
                                           const pb::ServerConfig& server) {
  if (request.visits() < 0 || request.visits() > server.max_visits()) {
    return absl::InvalidArgumentError(
        absl::StrCat("visits = ", request.visits(), " is outside 1..",
                     server.max_visits(), " (0: the server's default)"));
  }
  if (request.time_ms() < 0 || request.time_ms() > server.max_time_ms()) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_ms = ", request.time_ms(), " is outside 1..",
                     server.max_time_ms(), " (0: no time limit)"));
  }
  if (request.num_candidates() < 0 ||
      request.num_candidates() > server.max_candidates()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "num_candidates = ", request.num_candidates(), " is outside 1..",
        server.max_candidates(), " (0: ", kDefaultCandidates, ")"));
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

// When the search must stop for the reply to beat the client's deadline.
absl::StatusOr<absl::Time> StopTimeFor(const grpc::ServerContext& context) {
  const std::chrono::system_clock::time_point deadline = context.deadline();
  if (deadline == std::chrono::system_clock::time_point::max()) {
    return absl::InfiniteFuture();
  }
  const absl::Time end = absl::FromChrono(deadline);
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

// Stops a Suggest's search at its stop time or when the client cancels.
class RequestStopper : public SearchStopper {
 public:
  RequestStopper(const grpc::ServerContext& context, absl::Time stop_at)
      : context_(context), stop_at_(stop_at) {}
  bool ShouldStop(const SearchProgress&) const override {
    return absl::Now() >= stop_at_ || context_.IsCancelled();
  }

 private:
  const grpc::ServerContext& context_;
  const absl::Time stop_at_;
};

// The root's tactic when it, not the search, chose the move.
std::string DecidedBy(const SearchResult& result) {
  const bool forced = (result.tactic == Tactic::kBlockFive ||
                       result.tactic == Tactic::kDefendVcf ||
                       result.tactic == Tactic::kDefendVct) &&
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

std::string Prefixed(absl::string_view prefix, const absl::Status& status) {
  return absl::StrCat(prefix, status.message());
}

// Suggest for an opening decision (SuggestRequest.opening_rule): the
// opening player on the served model, every search of `visits` (or the
// server's), the whole decision ended by the deadline or time_ms.
grpc::Status SuggestOpening(grpc::ServerContext& context,
                            const pb::SuggestRequest& request,
                            const ServedModel& model,
                            const pb::ServerConfig& server, Random& rng,
                            pb::SuggestResponse& response) {
  absl::StatusOr<Game> board = ParsePosition(request.position(), model);
  if (!board.ok()) return Invalid(Prefixed("position: ", board.status()));
  absl::StatusOr<OpeningState> state =
      OpeningStateOf(request, board->variant(), board->size());
  if (!state.ok()) return Invalid(state.status().message());
  absl::StatusOr<SearchParams> params = SuggestParams(request, server);
  if (!params.ok()) return Invalid(params.status().message());
  OpeningParams opening = ToOpeningParams(server.search());
  if (request.visits() > 0) opening.candidate_visits = request.visits();
  params->max_visits =
      request.visits() > 0 ? request.visits() : server.search().visits();
  // A server that searches by time alone: each search gets the valuation's.
  if (params->max_visits <= 0) params->max_visits = opening.candidate_visits;
  params->max_time_ms = 0;  // time_ms bounds the decision, below
  absl::StatusOr<absl::Time> stop_at = StopTimeFor(context);
  if (!stop_at.ok()) return ToGrpc(stop_at.status());
  if (request.time_ms() > 0) {
    stop_at =
        std::min(*stop_at, absl::Now() + absl::Milliseconds(request.time_ms()));
  }
  RequestStopper stopper(context, *stop_at);
  OpeningPlayer player(*params, opening, model.stack->evaluator());
  absl::StatusOr<OpeningDecision> decision =
      player.Decide(*state, rng, &stopper);
  if (!decision.ok()) return ToGrpc(decision.status());
  if (context.IsCancelled()) {
    return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled");
  }
  FillOpeningSuggestion(*state, *decision, response);
  response.set_model_generation(model.info.generation());
  return grpc::Status::OK;
}

}  // namespace

// Threads that run Evaluate's positions concurrently, so that one request's
// positions reach the batched evaluator together and fill its batches.
// Standard primitives, not Abseil's, so that ThreadSanitizer sees them.
class InferenceService::TaskPool {
 public:
  explicit TaskPool(int threads) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~TaskPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    task_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs fn(0) .. fn(n - 1) on the pool; returns when all have returned.
  void Run(int n, const std::function<void(int)>& fn) {
    if (n <= 0) return;
    std::atomic<int> remaining{n};
    Notification done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int i = 0; i < n; ++i) {
        tasks_.push_back([&fn, &remaining, &done, i] {
          fn(i);
          if (remaining.fetch_sub(1) == 1) done.Notify();
        });
      }
    }
    // One wake-up per task, not one for every idle thread.
    const int wake = std::min<int>(n, threads_.size());
    for (int i = 0; i < wake; ++i) task_cv_.notify_one();
    done.WaitForNotification();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        task_cv_.wait(lock, [this] { return closed_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // closed
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable task_cv_;  // a task was queued, or closed
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mutex_);
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
};

InferenceService::InferenceService(const pb::RunConfig& config,
                                   std::shared_ptr<const ServedModel> model,
                                   TrainerClient* trainer,
                                   const InferenceServiceOptions& options)
    : config_(config),
      trainer_(trainer),
      options_(options),
      limiter_(config.server().max_searches_per_client(),
               config.server().max_searches()),
      model_(std::move(model)) {
  if (!options_.token.empty()) tokens_[options_.token] = "client";
  const pb::EvaluatorConfig& evaluator = config_.server().evaluator();
  pool_ = std::make_unique<TaskPool>(
      std::min(256, evaluator.max_batch_size() * evaluator.server_threads()));
  const pb::ServerConfig& server = config_.server();
  if (server.tree_cache_trees() > 0) {
    TreeCacheLimits limits;
    limits.max_trees = server.tree_cache_trees();
    limits.max_age = absl::Seconds(server.tree_cache_seconds());
    limits.max_visits = server.tree_cache_visits();
    tree_cache_ = std::make_unique<TreeCache>(limits);
  }
}

InferenceService::~InferenceService() = default;

void InferenceService::SwapModel(std::shared_ptr<const ServedModel> model) {
  RENJU_LOG(INFO) << "serving generation " << model->info.generation()
                  << " (sha256 " << model->info.sha256() << ")";
  std::shared_ptr<const ServedModel> old;
  std::lock_guard<std::mutex> lock(mutex_);
  old = std::move(model_);  // freed after the lock, if no request holds it
  model_ = std::move(model);
}

std::shared_ptr<const ServedModel> InferenceService::model() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return model_;
}

int InferenceService::MaxRequestBytes() const {
  // A move is at most 10 bytes on the wire (a pass, -1, as a varint) plus a
  // tag; a position holds at most two moves per point.
  const int area = config_.board_size() * config_.board_size();
  return 65536 + config_.server().max_evaluate_positions() * (64 + 24 * area);
}

std::string SuggestClientKey(const grpc::ServerContext& context,
                             const std::string& frontend_secret) {
  const auto& metadata = context.client_metadata();
  auto value = [&metadata](const char* key) -> std::optional<std::string> {
    auto it = metadata.find(key);
    if (it == metadata.end()) return std::nullopt;
    return std::string(it->second.data(), it->second.size());
  };
  if (!frontend_secret.empty()) {
    const std::optional<std::string> secret = value(kFrontendSecretHeader);
    const std::optional<std::string> http = value(kHttpClientHeader);
    if (secret && http && SecretEquals(frontend_secret, *secret)) {
      return absl::StrCat("http:", *http);
    }
  }
  if (std::optional<std::string> token = value("authorization")) {
    return absl::StrCat("token:", *token);
  }
  // "ipv4:10.0.0.1:5000", "ipv6:[::1]:5000": one client per address.
  const std::string peer = context.peer();
  const size_t port = peer.rfind(':');
  const size_t scheme = peer.find(':');
  return absl::StrCat("peer:", port != std::string::npos && port > scheme
                                   ? peer.substr(0, port)
                                   : peer);
}

grpc::Status InferenceService::CheckToken(
    const grpc::ServerContext& context) const {
  if (tokens_.empty()) return grpc::Status::OK;
  std::string holder;
  return CheckBearerToken(context, tokens_, &holder);
}

grpc::Status InferenceService::Suggest(grpc::ServerContext* context,
                                       const pb::SuggestRequest* request,
                                       pb::SuggestResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  // Refused at once, not queued: a client over its share waits on no one.
  const std::string client =
      SuggestClientKey(*context, options_.frontend_secret);
  std::optional<RequestLimiter::Lease> lease = limiter_.TryAcquire(client);
  if (!lease) {
    return grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrCat("too many searches at once (server.max_searches_per_"
                     "client ",
                     config_.server().max_searches_per_client(),
                     ", server.max_searches ", config_.server().max_searches(),
                     "); try again when one has finished"));
  }
  const std::shared_ptr<const ServedModel> model = this->model();
  return RunSuggest(*context, *request, model, *response);
}

grpc::Status InferenceService::RunSuggest(
    grpc::ServerContext& context, const pb::SuggestRequest& request,
    const std::shared_ptr<const ServedModel>& served,
    pb::SuggestResponse& response) {
  const ServedModel& model = *served;
  if (IsOpeningRequest(request)) {
    Random rng(options_.seed, requests_.fetch_add(1));
    return SuggestOpening(context, request, model, config_.server(), rng,
                          response);
  }
  absl::StatusOr<Game> game = ParsePosition(request.position(), model);
  if (!game.ok()) return Invalid(Prefixed("position: ", game.status()));
  absl::StatusOr<SearchParams> params =
      SuggestParams(request, config_.server());
  if (!params.ok()) return Invalid(params.status().message());
  absl::StatusOr<absl::Time> stop_at = StopTimeFor(context);
  if (!stop_at.ok()) return ToGrpc(stop_at.status());

  std::unique_ptr<Search> search;
  if (tree_cache_ != nullptr) {
    search = tree_cache_->Take(*game, served.get(), absl::Now());
  }
  if (search != nullptr) {
    search->SetParams(*params);
  } else {
    search = std::make_unique<Search>(*params, model.stack->evaluator(), *game);
  }
  Random rng(options_.seed, requests_.fetch_add(1));
  RequestStopper stopper(context, *stop_at);
  RunOptions run;
  run.stopper = &stopper;
  absl::StatusOr<SearchResult> result = search->Run(rng, run);
  if (!result.ok()) return ToGrpc(result.status());
  const int candidates = request.num_candidates() > 0 ? request.num_candidates()
                                                      : kDefaultCandidates;
  // Before the tree goes to the cache, where another request may take it.
  FillSuggestion(*result, search->root(), game->size(), candidates,
                 model.info.generation(), response);
  // A failed search's tree is still usable (Search::Run), but a tree is
  // kept only after an answer.
  if (tree_cache_ != nullptr) {
    tree_cache_->Put(std::move(search), served, absl::Now());
  }
  if (context.IsCancelled()) {
    return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled");
  }
  return grpc::Status::OK;
}

grpc::Status InferenceService::Evaluate(grpc::ServerContext* context,
                                        const pb::EvaluateRequest* request,
                                        pb::EvaluateResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  const std::shared_ptr<const ServedModel> model = this->model();
  return RunEvaluate(*request, *model, *response);
}

grpc::Status InferenceService::RunEvaluate(const pb::EvaluateRequest& request,
                                           const ServedModel& model,
                                           pb::EvaluateResponse& response) {
  const int n = request.positions_size();
  const int max = config_.server().max_evaluate_positions();
  if (n < 1 || n > max) {
    return Invalid(
        absl::StrCat("the request has ", n, " positions; expected 1..", max));
  }
  std::vector<Game> games;
  games.reserve(n);
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<Game> game = ParsePosition(request.positions(i), model);
    if (!game.ok()) {
      return Invalid(
          Prefixed(absl::StrCat("positions[", i, "]: "), game.status()));
    }
    games.push_back(*std::move(game));
  }
  std::vector<Evaluation> evaluations(n);
  std::vector<absl::Status> statuses(n);
  pool_->Run(n, [&](int i) {
    statuses[i] = model.stack->evaluator().Evaluate(games[i], evaluations[i]);
  });
  for (int i = 0; i < n; ++i) {
    if (!statuses[i].ok()) {
      return grpc::Status(
          static_cast<grpc::StatusCode>(statuses[i].code()),
          Prefixed(absl::StrCat("positions[", i, "]: "), statuses[i]));
    }
    pb::PositionEvaluation* out = response.add_evaluations();
    out->mutable_policy()->Assign(evaluations[i].policy.begin(),
                                  evaluations[i].policy.end());
    out->set_win(evaluations[i].win);
    out->set_draw(evaluations[i].draw);
    out->set_loss(evaluations[i].loss);
  }
  response.set_model_generation(model.info.generation());
  return grpc::Status::OK;
}

grpc::Status InferenceService::ListModels(grpc::ServerContext* context,
                                          const pb::ListModelsRequest* request,
                                          pb::ListModelsResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  *response->add_models() = model()->info;
  if (trainer_ == nullptr) return grpc::Status::OK;
  absl::StatusOr<std::vector<pb::ModelInfo>> registry = trainer_->ListModels();
  if (!registry.ok()) {
    // The served model is still worth telling; the registry is extra.
    RENJU_LOG(WARNING) << "ListModels: the trainer's registry: "
                       << registry.status();
    return grpc::Status::OK;
  }
  for (pb::ModelInfo& info : *registry)
    *response->add_models() = std::move(info);
  return grpc::Status::OK;
}

}  // namespace renju
