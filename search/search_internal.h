// Search's per-run and per-thread state, shared by search.cc (control) and
// search_playout.cc (the playout steps). Not part of the interface.
#ifndef RENJU_SEARCH_SEARCH_INTERNAL_H_
#define RENJU_SEARCH_SEARCH_INTERNAL_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/game.h"
#include "search/evaluator.h"
#include "search/gumbel.h"
#include "search/node.h"
#include "search/puct.h"
#include "search/search.h"
#include "search/stoppers.h"
#include "search/tactics.h"

namespace renju {

using SearchClock = std::chrono::steady_clock;

// The time now on `options`' clock (the steady clock unless a test gives
// another).
inline SearchClock::time_point NowOn(const RunOptions& options) {
  return options.clock ? options.clock() : SearchClock::now();
}

// What one Run was asked for and has done so far.
struct Search::RunState {
  SearchClock::time_point start;
  const RunOptions* options = nullptr;
  ChainedStopper stopper;
  SelectOptions root_select;
  bool full_search = true;
  TacticsResult root_tactics;
  // Set when this run searches the root by Gumbel AlphaZero instead of
  // PUCT; guarded by tree_mutex_.
  std::optional<GumbelRoot> gumbel;
  int64_t playouts = 0;  // guarded by tree_mutex_
  // Leaves a gathering collects in this run (PrepareRoot): minibatch_size,
  // less for a small visit budget.
  int minibatch_size = 1;
  // The duration of the last gathering to be backed up (SearchProgress::
  // batch_ms); guarded by tree_mutex_.
  int64_t last_batch_ms = 0;
  // The root's child visits when the playouts began (a reused subtree's).
  int64_t reused_visits = 0;

  // Milliseconds since the run began, on its clock.
  int64_t ElapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               NowOn(*options) - start)
        .count();
  }
};

// What step 2 found for a new leaf, attached to it in step 3.
struct Search::Expansion {
  Proof proof = Proof::kUnknown;
  Tactic tactic = Tactic::kNone;
  Move proof_move = Move::Pass();
  std::vector<Edge> edges;
  Wdl value;  // the leaf's side to move's view
};

// One playout in flight: its path from the root and its leaf's position.
struct Search::Playout {
  explicit Playout(const Game& g) : game(g) {}

  Game game;  // the root position, then this playout's path
  // path[0] is the root; path[i + 1] is reached from path[i] by its edge
  // number edges[i], which plays moves[i].
  std::vector<Node*> path;
  std::vector<int> edges;
  std::vector<Move> moves;
  bool created_leaf = false;
  TacticsResult tactics;  // the new leaf's, until it is expanded
  Evaluation evaluation;
  Expansion expansion;
};

// One search thread's own state: only its thread touches it during Run.
struct Search::Worker {
  // The first minibatch_size playouts hold one gathering's new leaves.
  std::vector<Playout> playouts;
  // The paths of this gathering's collisions, which hold virtual loss
  // until its leaves are backed up.
  std::vector<std::vector<Node*>> collisions;
  Tactics tactics;
  // EvaluateBatch's arguments, reused.
  std::vector<Game*> batch_games;
  std::vector<Evaluation*> batch_outs;
};

}  // namespace renju

#endif  // RENJU_SEARCH_SEARCH_INTERNAL_H_
