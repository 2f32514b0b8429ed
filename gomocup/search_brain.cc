#include "gomocup/search_brain.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/logging.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "search/search.h"
#include "search/stoppers.h"

namespace renju {
namespace {

// INFO thread_num can ask for anything; more threads than this only add
// collisions on a small tree.
constexpr int kMaxThreads = 64;
// INFO max_node beyond this is no limit in practice.
constexpr uint64_t kMaxNodes = 1000000000;
// Pondering draws its randomness from streams of its own.
constexpr uint64_t kPonderStreams = uint64_t{1} << 62;

class SearchBrain final : public GomocupBrain {
 public:
  // `stack`, when given, owns `evaluator`.
  SearchBrain(const SearchParams& params, const SearchBrainOptions& options,
              Evaluator& evaluator, int board_size, uint64_t seed,
              std::unique_ptr<EvaluatorStack> stack)
      : base_params_(params),
        options_(options),
        stack_(std::move(stack)),
        evaluator_(evaluator),
        board_size_(board_size),
        seed_(seed) {
    // A match move is the best move, not a training sample.
    base_params_.playout_cap_randomisation = false;
    base_params_.root_noise = false;
  }
  ~SearchBrain() override { StopPondering(); }

  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                  const std::atomic<bool>* stop) override;
  absl::StatusOr<OpeningAction> ChooseOpeningAction(
      const OpeningState& state, const MoveLimits& limits,
      const std::atomic<bool>* stop) override;
  std::string LastMoveSummary() const override { return summary_; }
  void StartPondering(const Game& game, const MoveLimits& limits) override;
  void StopPondering() override;

 private:
  SearchParams ParamsFor(const MoveLimits& limits) const;
  // The search for `game` with `params`: the kept tree advanced by the
  // moves played since when `reuse` is set and `game` extends its
  // position, else a fresh one.
  Search& SearchFor(const Game& game, const SearchParams& params, bool reuse);
  std::chrono::steady_clock::time_point Now() const {
    return options_.clock ? options_.clock() : std::chrono::steady_clock::now();
  }

  SearchParams base_params_;
  const SearchBrainOptions options_;
  std::unique_ptr<EvaluatorStack> stack_;  // may be null
  Evaluator& evaluator_;
  const int board_size_;
  const uint64_t seed_;
  uint64_t moves_ = 0;
  std::unique_ptr<Search> search_;  // the last tree; null before the first
  std::string summary_;

  // Pondering: ponder_thread_ runs search_ until ponder_stop_. The other
  // members are touched only while no pondering runs.
  std::thread ponder_thread_;
  std::atomic<bool> ponder_stop_{false};
  bool pondered_ = false;        // search_ holds a pondered tree
  int64_t ponder_playouts_ = 0;  // written by the ponder thread
};

SearchParams SearchBrain::ParamsFor(const MoveLimits& limits) const {
  SearchParams params = base_params_;
  if (limits.threads > 0) {
    params.num_threads = std::min(limits.threads, kMaxThreads);
  }
  params.max_visits =
      static_cast<int64_t>(std::min<uint64_t>(limits.max_nodes, kMaxNodes));
  params.max_time_ms = limits.budget_ms;
  // "As fast as possible" with no node limit: the network's choice after
  // the tactics, one visit.
  if (params.max_visits == 0 && params.max_time_ms == 0) params.max_visits = 1;
  return params;
}

Search& SearchBrain::SearchFor(const Game& game, const SearchParams& params,
                               bool reuse) {
  if (search_ == nullptr) {
    search_ = std::make_unique<Search>(params, evaluator_, game);
    return *search_;
  }
  search_->SetParams(params);
  if (!reuse || !search_->AdvanceTo(game).ok()) search_->Reset(game);
  return *search_;
}

absl::StatusOr<Move> SearchBrain::ChooseMove(Game& game,
                                             const MoveLimits& limits,
                                             const std::atomic<bool>* stop) {
  StopPondering();
  summary_.clear();
  if (game.size() != board_size_) {
    return absl::FailedPreconditionError(
        absl::StrCat("the network plays ", board_size_, "x", board_size_,
                     ", not ", game.size(), "x", game.size()));
  }
  const auto begin = Now();
  SearchParams params = ParamsFor(limits);
  Search& search = SearchFor(game, params, options_.reuse_tree || pondered_);
  // The move's clock started before the tree was advanced (freeing the
  // rest of a big tree takes a while): the search gets what is left.
  const int64_t spent_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Now() - begin)
          .count();
  MoveLimits left = limits;
  if (limits.budget_ms > 0 && spent_ms > 0) {
    left.budget_ms = std::max<int64_t>(limits.budget_ms - spent_ms, 1);
    left.optimum_ms = std::max<int64_t>(limits.optimum_ms - spent_ms, 1);
    params.max_time_ms = left.budget_ms;
    search.SetParams(params);
  }
  const int64_t pondered = pondered_ ? ponder_playouts_ : 0;
  pondered_ = false;
  Random rng(seed_, moves_++);
  ChainedStopper stoppers;
  if (stop != nullptr) stoppers.Add(std::make_unique<FlagStopper>(stop));
  if (limits.stop_when_settled) {
    stoppers.Add(std::make_unique<TimeBudgetStopper>(
        left.optimum_ms, left.budget_ms, params.max_visits));
  }
  RunOptions options;
  options.stopper = &stoppers;
  options.clock = options_.clock;
  absl::StatusOr<SearchResult> result = search.Run(rng, options);
  if (!result.ok()) return result.status();
  summary_ = absl::StrFormat(
      "search visits=%d reused=%d pondered=%d playouts=%d ms=%d threads=%d",
      result->total_visits, result->reused_visits, pondered, result->playouts,
      static_cast<int64_t>(result->elapsed_ms), params.num_threads);
  if (result->best_move.is_pass()) {
    return absl::FailedPreconditionError("the search found no point to play");
  }
  return result->best_move;
}

absl::StatusOr<OpeningAction> SearchBrain::ChooseOpeningAction(
    const OpeningState& state, const MoveLimits& limits,
    const std::atomic<bool>* stop) {
  StopPondering();
  summary_.clear();
  if (state.game().size() != board_size_) {
    return absl::FailedPreconditionError(
        absl::StrCat("the network plays ", board_size_, "x", board_size_,
                     ", not ", state.game().size(), "x", state.game().size()));
  }
  SearchParams params = ParamsFor(limits);
  // Placing a stone may value candidates after the ranking search.
  if (params.max_time_ms > 1) params.max_time_ms /= 2;
  OpeningPlayer player(params, options_.opening, evaluator_);
  Random rng(seed_, moves_++);
  FlagStopper stopper(stop);
  absl::StatusOr<OpeningDecision> decision =
      player.Decide(state, rng, stop != nullptr ? &stopper : nullptr);
  if (!decision.ok()) return decision.status();
  summary_ = absl::StrFormat("opening %s value=%.3f black=%.3f visits=%d",
                             decision->action.ToString(), decision->value,
                             decision->black_score, decision->visits);
  return decision->action;
}

void SearchBrain::StartPondering(const Game& game, const MoveLimits& limits) {
  StopPondering();
  if (game.size() != board_size_ || game.over()) return;
  SearchParams params = ParamsFor(limits);
  params.max_time_ms = 0;
  params.max_visits = limits.max_nodes > 0
                          ? static_cast<int64_t>(
                                std::min<uint64_t>(limits.max_nodes, kMaxNodes))
                          : options_.ponder_max_visits;
  Search& search = SearchFor(game, params, /*reuse=*/true);
  pondered_ = true;
  ponder_playouts_ = 0;
  ponder_stop_ = false;
  const uint64_t stream = kPonderStreams + moves_;
  ponder_thread_ = std::thread([this, &search, stream] {
    Random rng(seed_, stream);
    FlagStopper stopper(&ponder_stop_);
    RunOptions options;
    options.stopper = &stopper;
    options.clock = options_.clock;
    absl::StatusOr<SearchResult> result = search.Run(rng, options);
    if (result.ok()) {
      ponder_playouts_ = result->playouts;
    } else {
      // The tree stays usable; the next move simply searches on.
      RENJU_LOG(WARNING) << "pondering failed: " << result.status();
    }
  });
}

void SearchBrain::StopPondering() {
  if (!ponder_thread_.joinable()) return;
  ponder_stop_ = true;
  ponder_thread_.join();
}

}  // namespace

std::unique_ptr<GomocupBrain> MakeSearchBrain(const SearchParams& params,
                                              const SearchBrainOptions& options,
                                              Evaluator& evaluator,
                                              int board_size, uint64_t seed) {
  return std::make_unique<SearchBrain>(params, options, evaluator, board_size,
                                       seed, nullptr);
}

absl::StatusOr<std::unique_ptr<GomocupBrain>> MakeSearchBrain(
    const pb::RunConfig& config, const std::string& model, uint64_t seed) {
  // One searching caller: its threads' requests form the batches as they
  // come, so waiting for a fuller batch would only add latency.
  pb::EvaluatorConfig evaluator =
      ToPlayTimeEvaluatorConfig(config.server().evaluator());
  evaluator.set_max_wait_us(0);
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      CreateEvaluatorStack(config, evaluator, model, seed);
  if (!stack.ok()) return stack.status();
  SearchBrainOptions options;
  options.reuse_tree = config.gomocup().reuse_tree();
  options.ponder_max_visits = config.gomocup().ponder_max_visits();
  options.opening = ToOpeningParams(config.server().search());
  Evaluator& outer = (*stack)->evaluator();
  const int size = (*stack)->network().board_size;
  return std::make_unique<SearchBrain>(
      ToPlayTimeSearchParams(config.server().search()), options, outer, size,
      seed, std::move(*stack));
}

}  // namespace renju
