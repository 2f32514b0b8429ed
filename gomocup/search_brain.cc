#include "gomocup/search_brain.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
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

class SearchBrain final : public GomocupBrain {
 public:
  SearchBrain(const pb::RunConfig& config,
              std::unique_ptr<EvaluatorStack> stack, uint64_t seed)
      : base_params_(ToSearchParams(config.server().search())),
        stack_(std::move(stack)),
        seed_(seed) {
    // A match move is the best move, not a training sample.
    base_params_.playout_cap_randomisation = false;
    base_params_.root_noise = false;
  }

  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                  const std::atomic<bool>* stop) override;

 private:
  SearchParams ParamsFor(const MoveLimits& limits) const;

  SearchParams base_params_;
  std::unique_ptr<EvaluatorStack> stack_;
  const uint64_t seed_;
  uint64_t moves_ = 0;
};

SearchParams SearchBrain::ParamsFor(const MoveLimits& limits) const {
  SearchParams params = base_params_;
  params.num_threads = std::clamp(limits.threads, 1, kMaxThreads);
  params.max_visits =
      static_cast<int64_t>(std::min<uint64_t>(limits.max_nodes, kMaxNodes));
  params.max_time_ms = limits.budget_ms;
  // "As fast as possible" with no node limit: the network's choice after
  // the tactics, one visit.
  if (params.max_visits == 0 && params.max_time_ms == 0) params.max_visits = 1;
  return params;
}

absl::StatusOr<Move> SearchBrain::ChooseMove(Game& game,
                                             const MoveLimits& limits,
                                             const std::atomic<bool>* stop) {
  const int size = stack_->network().board_size;
  if (game.size() != size) {
    return absl::FailedPreconditionError(
        absl::StrCat("the network plays ", size, "x", size, ", not ",
                     game.size(), "x", game.size()));
  }
  Search search(ParamsFor(limits), stack_->evaluator(), game);
  Random rng(seed_, moves_++);
  RunOptions options;
  std::unique_ptr<FlagStopper> stopper;
  if (stop != nullptr) {
    stopper = std::make_unique<FlagStopper>(stop);
    options.stopper = stopper.get();
  }
  absl::StatusOr<SearchResult> result = search.Run(rng, options);
  if (!result.ok()) return result.status();
  if (result->best_move.is_pass()) {
    return absl::FailedPreconditionError("the search found no point to play");
  }
  return result->best_move;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GomocupBrain>> MakeSearchBrain(
    const pb::RunConfig& config, const std::string& model, uint64_t seed) {
  // One searching caller: its threads' requests form the batches as they
  // come, so waiting for a fuller batch would only add latency.
  pb::EvaluatorConfig evaluator = config.server().evaluator();
  evaluator.set_max_wait_us(0);
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      CreateEvaluatorStack(config, evaluator, model, seed);
  if (!stack.ok()) return stack.status();
  return std::make_unique<SearchBrain>(config, std::move(*stack), seed);
}

}  // namespace renju
