// Monte Carlo tree search with PUCT (AlphaZero / KataGo) over the rules
// core, asking an Evaluator for priors and values.
//
// Each search thread gathers a minibatch of playouts (lc0's SearchWorker):
// it selects up to SearchParams::minibatch_size leaves under virtual loss,
// evaluates them in one Evaluator::EvaluateBatch call, then backs them all
// up. A playout is three steps (numbered the same in search_playout.cc):
//   1. Select: from the root, follow the PUCT choice (puct.h) down to a node
//      not yet expanded or already solved, adding virtual loss on the way.
//      With SearchParams::gumbel_root, the root's choice is Gumbel
//      AlphaZero's sequential halving instead (gumbel.h).
//   2. Evaluate and expand: a terminal position is scored by the rules; else
//      the renju tactics (tactics.h) may solve the node or restrict its
//      moves; else the evaluator gives priors and a win/draw/loss value.
//   3. Back up: add the value along the path, flipping sides at each level,
//      remove the virtual loss and propagate proofs (a child proven lost
//      makes its parent won; every child proven won makes it lost).
// Steps 1 and 3 hold the tree mutex briefly; step 2 runs without it, so
// several threads can share one tree, each playout with its own copy of
// the game.
//
// Stop rules (stoppers.h): visits, time, a single legal move, a proven root
// result, and an optional caller flag. With one thread and the same seed,
// the same position gives the same tree: ties go to the earlier edge
// (higher prior, then lower policy index) and randomness comes only from
// the Random passed to Run.
//
// Not thread-safe across calls: one caller drives a Search; Run spreads the
// work over params.num_threads threads internally.
#ifndef RENJU_SEARCH_SEARCH_H_
#define RENJU_SEARCH_SEARCH_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/random.h"
#include "rules/game.h"
#include "search/evaluator.h"
#include "search/node.h"
#include "search/search_params.h"
#include "search/search_result.h"
#include "search/stoppers.h"
#include "search/tactics.h"

namespace renju {

struct RunOptions {
  // Another stop rule checked with the built-in ones (e.g. a FlagStopper);
  // not owned, may be null.
  const SearchStopper* stopper = nullptr;
  // Called on the calling thread about every progress_interval_ms with the
  // result so far; not under any lock. Empty: no progress reports.
  std::function<void(const SearchResult&)> on_progress;
  int64_t progress_interval_ms = 1000;
  // The clock the time limits and elapsed_ms are read on; empty: the steady
  // clock. Tests give one that moves only as they make it
  // (tests/gomocup/play_time_test.cc), so that a time limit is checked
  // without betting on the machine's speed.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

// True when `game` continues `earlier`: the same variant and size, and
// earlier's moves are the first of game's (all of them, when equal). A
// search at `earlier` reaches `game` by AdvanceTo.
bool ContinuesGame(const Game& game, const Game& earlier);

class Search {
 public:
  // `params` must be valid (Validate()). `evaluator` is not owned, must
  // outlive the Search and is called from the search threads.
  Search(const SearchParams& params, Evaluator& evaluator, const Game& game);
  ~Search();
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // Searches the current position and returns what it found: the tree
  // grows until a stop rule fires, so that without a time limit the root's
  // children hold exactly the visit budget (more if a reused subtree
  // already had more), unless a tactic decides the move first or the root
  // is proven. With playout-cap randomisation `rng`
  // decides whether this is a full search; it also draws the root noise,
  // or the Gumbel noise of a Gumbel root (which makes `visits` new
  // playouts whatever a reused subtree holds).
  // Errors: the game is over; the evaluator failed or returned malformed
  // output (the tree stays usable).
  absl::StatusOr<SearchResult> Run(Random& rng, const RunOptions& options = {});

  // Plays `move` and keeps its subtree with its statistics as the new root
  // (tree reuse); the rest of the tree is freed. Errors: the move cannot be
  // played (the game is over, the point is occupied or off the board).
  absl::Status Advance(Move move);
  // Advances through the moves `game` holds beyond this search's game,
  // keeping the subtree they lead to. InvalidArgument when `game` does not
  // continue it (ContinuesGame), a move cannot be played, or the moves reach
  // another position than `game`'s (one was played under another
  // forbidden-move policy); the search may then have advanced part of the
  // way, and callers Reset it.
  absl::Status AdvanceTo(const Game& game);
  // Starts afresh from `game`, dropping the tree.
  void Reset(const Game& game);
  // New settings for the next runs (a move's budget, the thread count),
  // keeping the tree: nodes already expanded keep what the old settings
  // gave them (their tactics, priors). `params` must be valid.
  void SetParams(const SearchParams& params);

  const Game& game() const { return game_; }
  const SearchParams& params() const { return params_; }
  // The root node, for tests and diagnostics; not while Run is running.
  const Node& root() const { return *root_; }

 private:
  struct Playout;
  struct Worker;
  struct Expansion;
  struct RunState;
  enum class LeafKind { kStop, kCollision, kSolved, kNew };

  // Playout steps.
  LeafKind SelectLeaf(Playout& playout, RunState& run);  // 1 (locked)
  // 2: a terminal or tactically proven leaf needs no evaluator; then true,
  // with its expansion filled.
  bool ResolveLeaf(Playout& playout, bool is_root);
  // 2: the expansion from the leaf's evaluation (checked for shape).
  absl::Status ExpandLeaf(Playout& playout, bool is_root);
  void BackUp(Playout& playout, Expansion* expansion);  // 3 (locked)
  void CancelPlayout(Playout& playout, RunState& run);  // (locked)
  void UpdateProofs(const Playout& playout);            // (locked)
  void UndoPath(Playout& playout);

  // Gathering (lc0's minibatch): descends until minibatch_size new leaves
  // wait for the evaluator, a stop rule fires (then *stop), or collisions
  // pass max_collisions; leaves that need no evaluator are backed up on the
  // way. Returns the number of leaves in worker.playouts.
  int GatherLeaves(Worker& worker, RunState& run, bool* stop);
  // Evaluates the gathered leaves in one call and backs them up; false,
  // with the run failed, when the evaluator failed. `gather_start`: when
  // their gathering began, for the time stop rules (batch_ms).
  bool EvaluateGathered(Worker& worker, RunState& run, int leaves,
                        std::chrono::steady_clock::time_point gather_start);

  // Control.
  absl::Status ExpandRoot(Worker& worker, const TacticsResult& tactics);
  // Sizes each worker's playouts to minibatch_size, all at the root.
  void ResetWorkers();
  void PrepareRoot(RunState& run, Random& rng);
  void WorkerLoop(Worker& worker, RunState& run, bool reports_progress);
  void RunThreads(RunState& run);
  SearchProgress ProgressLocked(const RunState& run) const;
  bool ShouldStopLocked(const RunState& run) const;
  SearchResult ResultLocked(const RunState& run) const;
  SearchResult DecidedResult(const TacticsResult& tactics) const;
  TacticsOptions TacticsOptionsFor(bool is_root) const;

  SearchParams params_;
  Evaluator& evaluator_;
  Game game_;
  std::vector<std::unique_ptr<Worker>> workers_;

  // Guards the tree and the counters below during Run.
  mutable std::mutex tree_mutex_;
  std::unique_ptr<Node> root_;
  int64_t root_child_visits_ = 0;  // completed
  int64_t root_playouts_in_flight_ = 0;
  // The root's priors before noise; restored before noise is drawn again.
  std::vector<float> root_raw_priors_;
  absl::Status error_;
  std::atomic<bool> failed_{false};
};

}  // namespace renju

#endif  // RENJU_SEARCH_SEARCH_H_
