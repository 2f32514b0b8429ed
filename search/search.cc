// Search control: Run, the root's preparation, the thread driver, results
// and tree reuse. The playout steps are in search_playout.cc.
#include "search/search.h"

#include <algorithm>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "search/legal_moves.h"
#include "search/search_internal.h"

namespace renju {

bool ContinuesGame(const Game& game, const Game& earlier) {
  const std::vector<Move>& moves = game.moves();
  const std::vector<Move>& before = earlier.moves();
  return game.variant() == earlier.variant() && game.size() == earlier.size() &&
         before.size() <= moves.size() &&
         std::equal(before.begin(), before.end(), moves.begin());
}

Search::Search(const SearchParams& params, Evaluator& evaluator,
               const Game& game)
    : params_(params), evaluator_(evaluator), game_(game) {
  RENJU_CHECK(params_.Validate().ok()) << params_.Validate();
  root_ = std::make_unique<Node>();
}

void Search::SetParams(const SearchParams& params) {
  RENJU_CHECK(params.Validate().ok()) << params.Validate();
  params_ = params;
}

void Search::ResetWorkers() {
  workers_.resize(params_.num_threads);
  for (std::unique_ptr<Worker>& w : workers_) {
    if (!w) w = std::make_unique<Worker>();
    if (static_cast<int>(w->playouts.size()) > params_.minibatch_size) {
      w->playouts.erase(w->playouts.begin() + params_.minibatch_size,
                        w->playouts.end());
    }
    for (Playout& p : w->playouts) p.game = game_;
    while (static_cast<int>(w->playouts.size()) < params_.minibatch_size) {
      w->playouts.emplace_back(game_);
    }
    w->collisions.clear();
  }
}

Search::~Search() = default;

TacticsOptions Search::TacticsOptionsFor(bool is_root) const {
  TacticsOptions options;
  options.vcf = params_.vcf;
  options.defend_vcf =
      params_.defend_vcf && (is_root || params_.defend_vcf_in_tree);
  options.centre_first_stone = is_root && params_.centre_first_stone;
  options.vcf_limits.max_nodes =
      is_root ? params_.vcf_max_nodes_root : params_.vcf_max_nodes;
  options.vcf_limits.max_depth = params_.vcf_max_depth;
  options.vct = is_root && params_.vct_max_nodes_root > 0;
  options.defend_vct = options.vct && params_.defend_vct;
  options.vct_limits.max_nodes = params_.vct_max_nodes_root;
  options.vct_limits.max_depth = params_.vct_max_depth;
  if (params_.max_time_ms > 0) {
    options.vct_limits.max_time_ms = std::max<int64_t>(
        1, static_cast<int64_t>(params_.max_time_ms * params_.vct_time_share));
  }
  return options;
}

// --- Control -----------------------------------------------------------------

absl::StatusOr<SearchResult> Search::Run(Random& rng,
                                         const RunOptions& options) {
  if (game_.over()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot search a finished game (", GameResultName(game_.result()),
        " by ", EndReasonName(game_.end_reason()), ")"));
  }
  RunState run;
  run.options = &options;
  run.start = NowOn(options);
  error_ = absl::OkStatus();
  failed_ = false;
  ResetWorkers();
  Worker& main = *workers_[0];

  if (params_.tactics) {
    run.root_tactics =
        main.tactics.Analyze(main.playouts[0].game, TacticsOptionsFor(true));
  }
  if (run.root_tactics.proven_win()) {
    SearchResult result = DecidedResult(run.root_tactics);
    result.elapsed_ms = run.ElapsedMs();
    return result;
  }
  // A reused root is searched afresh when it was solved without moves (the
  // game still needs a move), or when only the root looks for the
  // opponent's VCF or VCT and found one (its moves must be the defences).
  const bool stale_defence = (run.root_tactics.tactic == Tactic::kDefendVcf ||
                              run.root_tactics.tactic == Tactic::kDefendVct) &&
                             root_->tactic != run.root_tactics.tactic;
  if (root_->expanded && (root_->edges.empty() || stale_defence)) {
    root_ = std::make_unique<Node>();
    root_raw_priors_.clear();
  }
  if (!root_->expanded) {
    if (absl::Status s = ExpandRoot(main, run.root_tactics); !s.ok()) {
      return s;
    }
  }
  PrepareRoot(run, rng);
  RunThreads(run);
  if (failed_) return error_;
  std::lock_guard<std::mutex> lock(tree_mutex_);
  return ResultLocked(run);
}

absl::Status Search::ExpandRoot(Worker& w, const TacticsResult& tactics) {
  Playout& p = w.playouts[0];
  p.tactics = tactics;
  if (!ResolveLeaf(p, /*is_root=*/true)) {
    if (absl::Status s = evaluator_.Evaluate(p.game, p.evaluation); !s.ok()) {
      return s;
    }
    if (absl::Status s = ExpandLeaf(p, /*is_root=*/true); !s.ok()) return s;
  }
  std::lock_guard<std::mutex> lock(tree_mutex_);
  p.path.assign(1, root_.get());
  p.edges.clear();
  ++root_->n_in_flight;
  BackUp(p, &p.expansion);
  return absl::OkStatus();
}

// Playout-cap randomisation, root noise or the Gumbel root, and the stop
// rules for this run.
void Search::PrepareRoot(RunState& run, Random& rng) {
  int64_t max_visits = params_.max_visits;
  if (params_.playout_cap_randomisation) {
    run.full_search = rng.Uniform() < params_.full_search_probability;
    if (!run.full_search) max_visits = params_.cheap_visits;
  }
  std::vector<Edge>& edges = root_->edges;
  // Halving needs a budget; a solved root or a single move needs no search
  // and stays as PUCT has it.
  const bool gumbel = params_.gumbel_root && max_visits > 0 &&
                      !root_->solved() && edges.size() > 1;
  if (!root_raw_priors_.empty()) {
    for (size_t i = 0; i < edges.size(); ++i) {
      edges[i].prior = root_raw_priors_[i];
    }
    root_raw_priors_.clear();
  }
  // KataGo skips noise on cheap searches (play.cpp). Gumbel's noise
  // replaces Dirichlet's.
  if (params_.root_noise && !gumbel && run.full_search && edges.size() > 1) {
    const int n = static_cast<int>(edges.size());
    const std::vector<double> noise =
        rng.Dirichlet(n, params_.dirichlet_alpha_total / n);
    const double weight = params_.dirichlet_weight;
    for (int i = 0; i < n; ++i) {
      root_raw_priors_.push_back(edges[i].prior);
      edges[i].prior =
          static_cast<float>((1 - weight) * edges[i].prior + weight * noise[i]);
    }
  }
  if (gumbel) run.gumbel.emplace(*root_, params_, max_visits, rng);
  // Virtual loss bends a search by about the share of its budget in flight:
  // a small budget gathers at most 1/kMinVisitsPerGatheredLeaf of it at
  // once, so the opening player's 16-visit valuations stay sequential.
  run.minibatch_size = params_.minibatch_size;
  if (max_visits > 0) {
    run.minibatch_size = static_cast<int>(std::clamp<int64_t>(
        max_visits / kMinVisitsPerGatheredLeaf, 1, params_.minibatch_size));
  }
  run.root_select.is_root = true;
  run.root_select.forced_playouts =
      run.full_search && params_.forced_playouts_k > 0;

  root_child_visits_ = 0;
  root_playouts_in_flight_ = 0;
  for (const Edge& e : edges) {
    if (e.child) root_child_visits_ += e.child->n;
  }
  run.reused_visits = root_child_visits_;
  if (max_visits > 0) {
    // A Gumbel root halves over this run's playouts: all of them are new.
    run.stopper.Add(std::make_unique<VisitsStopper>(
        gumbel ? root_child_visits_ + max_visits : max_visits));
  }
  if (params_.max_time_ms > 0) {
    run.stopper.Add(std::make_unique<TimeStopper>(params_.max_time_ms));
  }
  run.stopper.Add(std::make_unique<SingleMoveStopper>());
  run.stopper.Add(std::make_unique<ProvenStopper>());
}

void Search::RunThreads(RunState& run) {
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < workers_.size(); ++i) {
    helpers.emplace_back([this, &run, i] {
      WorkerLoop(*workers_[i], run, /*reports_progress=*/false);
    });
  }
  WorkerLoop(*workers_[0], run, /*reports_progress=*/true);
  for (std::thread& t : helpers) t.join();
}

void Search::WorkerLoop(Worker& w, RunState& run, bool reports_progress) {
  const RunOptions& options = *run.options;
  SearchClock::time_point last_report = run.start;
  bool stop = false;
  while (!stop) {
    const SearchClock::time_point gather_start = NowOn(options);
    const int leaves = GatherLeaves(w, run, &stop);
    if (leaves > 0) {
      if (!EvaluateGathered(w, run, leaves, gather_start)) break;
    } else if (!stop) {
      // Collided with another thread's leaf: let it finish.
      std::this_thread::yield();
      continue;
    }
    if (reports_progress && options.on_progress &&
        NowOn(options) - last_report >=
            std::chrono::milliseconds(options.progress_interval_ms)) {
      SearchResult progress;
      {
        std::lock_guard<std::mutex> lock(tree_mutex_);
        progress = ResultLocked(run);
      }
      options.on_progress(progress);
      last_report = NowOn(options);
    }
  }
}

SearchProgress Search::ProgressLocked(const RunState& run) const {
  SearchProgress p;
  p.root_child_visits = root_child_visits_ + root_playouts_in_flight_;
  p.reused_visits = run.reused_visits;
  for (const Edge& e : root_->edges) {
    const int64_t n = e.child ? e.child->n : 0;
    if (n > p.best_visits) {
      p.second_visits = p.best_visits;
      p.best_visits = n;
    } else if (n > p.second_visits) {
      p.second_visits = n;
    }
  }
  p.elapsed_ms = run.ElapsedMs();
  p.batch_ms = run.last_batch_ms;
  p.num_root_moves = static_cast<int>(root_->edges.size());
  p.root_proof = root_->proof;
  return p;
}

bool Search::ShouldStopLocked(const RunState& run) const {
  if (failed_.load()) return true;
  const SearchProgress p = ProgressLocked(run);
  const SearchStopper* extra = run.options->stopper;
  return run.stopper.ShouldStop(p) ||
         (extra != nullptr && extra->ShouldStop(p));
}

SearchResult Search::ResultLocked(const RunState& run) const {
  SearchResult result;
  if (run.gumbel) {
    // Pruning undoes PUCT's forced playouts, which a Gumbel root has none
    // of; its target is the improved policy.
    SearchParams params = params_;
    params.policy_target_pruning = false;
    result = SummariseRoot(*root_, params, game_.size(), run.full_search);
    run.gumbel->Summarise(*root_, game_.size(), result);
  } else {
    result = SummariseRoot(*root_, params_, game_.size(), run.full_search);
  }
  result.playouts = run.playouts;
  result.reused_visits = run.reused_visits;
  result.tactic = run.root_tactics.tactic;
  if (result.tactic == Tactic::kDefendVcf) {
    result.vcf_line = run.root_tactics.vcf_line;
  }
  if (result.tactic == Tactic::kDefendVct) {
    result.vct_line = run.root_tactics.vct_line;
  }
  result.elapsed_ms = run.ElapsedMs();
  return result;
}

// A root won by a tactic: the winning move, no search.
SearchResult Search::DecidedResult(const TacticsResult& tactics) const {
  SearchResult result;
  const Move move = Move::At(tactics.winning_move);
  result.best_move = move;
  ChildStats child;
  child.move = move;
  child.prior = 1;
  child.q = 1;
  child.win = 1;
  child.proof = Proof::kWin;
  result.children.push_back(child);
  result.win = 1;
  result.proof = Proof::kWin;
  result.tactic = tactics.tactic;
  result.tactic_decided = true;
  result.vcf_line = tactics.vcf_line;
  result.vct_line = tactics.vct_line;
  if (tactics.tactic == Tactic::kVcf) {
    for (Point p : tactics.vcf_line) result.pv.push_back(Move::At(p));
  } else if (tactics.tactic == Tactic::kVct) {
    for (Point p : tactics.vct_line) result.pv.push_back(Move::At(p));
  } else {
    result.pv.push_back(move);
  }
  const int size = game_.size();
  result.visit_distribution.assign(size * size, 0.0f);
  result.policy_target.assign(size * size, 0.0f);
  result.policy_target[PolicyIndex(tactics.winning_move, size)] = 1.0f;
  return result;
}

absl::Status Search::Advance(Move move) {
  if (absl::Status s = game_.Play(move); !s.ok()) return s;
  std::unique_ptr<Node> next;
  for (Edge& e : root_->edges) {
    if (e.move == move) {
      next = std::move(e.child);
      break;
    }
  }
  root_ = next ? std::move(next) : std::make_unique<Node>();
  root_raw_priors_.clear();
  return absl::OkStatus();
}

absl::Status Search::AdvanceTo(const Game& game) {
  if (!ContinuesGame(game, game_)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the game (", game.ply(),
                     " moves) does not continue the searched one (",
                     game_.ply(), " moves)"));
  }
  const std::vector<Move>& moves = game.moves();
  for (size_t i = game_.moves().size(); i < moves.size(); ++i) {
    if (absl::Status s = Advance(moves[i]); !s.ok()) return s;
  }
  // The same moves reach another position when one was played under
  // another forbidden-move policy (a Gomocup BOARD's stones).
  if (game_.hash() != game.hash() || game_.over() != game.over() ||
      game_.ply() != game.ply()) {
    return absl::InvalidArgumentError(
        "the same moves reach another position in the searched game");
  }
  return absl::OkStatus();
}

void Search::Reset(const Game& game) {
  game_ = game;
  root_ = std::make_unique<Node>();
  root_raw_priors_.clear();
}

}  // namespace renju
