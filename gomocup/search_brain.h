// The Gomocup engine's real player: MCTS with the policy-value network
// (search/search.h over an EvaluatorStack), for `renju gomocup --brain
// search`. A move spends what the manager allows: the turn's time budget
// (with time management, an optimum and a maximum, stopping once the move
// cannot change), INFO max_node as a visit limit and INFO thread_num search
// threads (with virtual loss); a YXSTOP or END ends the search with the best
// move so far. The search's root moves never include black's forbidden
// points under renju, so neither does its answer.
//
// The brain keeps its last tree. With tree reuse on, the next position,
// when it extends the last searched one by the moves played since (a TURN,
// or a BOARD listing the same stones in the same order plus the new ones),
// starts from that subtree; otherwise each move searches afresh. Pondering
// (INFO pondering 1) searches the tree after the brain's own move on a
// thread of its own until the next command, and that tree is reused
// whatever the switch says. Root noise is off, the move is the most visited
// (temperature 0): nothing random carries from one move into the next.
// After each move the brain summarises its search (LastMoveSummary), which
// the protocol sends as a MESSAGE line:
//   search visits=812 reused=301 pondered=250 playouts=511 ms=160 threads=2
// (visits of the root's children; of those, kept from before; playouts of
// the pondering since the last move; playouts of this move).
//
// Swap2 decisions (SWAP2BOARD) are the opening player's, the same the
// arena's model players make (search/opening_player.h): its ranking
// search gets half the call's time, its valuations the visits of
// SearchBrainOptions::opening, all cut at the call's deadline. Summary:
//   opening KeepColours value=0.120 black=-0.120 visits=64
#ifndef RENJU_GOMOCUP_SEARCH_BRAIN_H_
#define RENJU_GOMOCUP_SEARCH_BRAIN_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gomocup/gomocup_protocol.h"
#include "proto/config.pb.h"
#include "search/evaluator.h"
#include "search/opening_player.h"
#include "search/search_params.h"

namespace renju {

// What the search brain does beyond one fresh search per move.
struct SearchBrainOptions {
  // Keep the tree between moves (config gomocup.reuse_tree).
  bool reuse_tree = false;
  // The most visits a pondering search's tree may hold when the manager
  // sets no max_node (config gomocup.ponder_max_visits): memory, not time,
  // bounds pondering.
  int64_t ponder_max_visits = 200000;
  // The swap2 decisions of SWAP2BOARD (config server.search's opening
  // fields): the opening player's budget (search/opening_player.h).
  OpeningParams opening;
  // The clock a move's time is read on (its searches' RunOptions::clock);
  // empty: the steady clock. Tests give one that moves only as they make it.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

// Loads `model` (a fresh network of the config's shape when empty: weak but
// legal play) with config.server()'s search and evaluator settings and
// config.gomocup()'s options. The network serves one board size; ChooseMove
// on another size is an error, which the protocol answers with its
// tactical fallback.
absl::StatusOr<std::unique_ptr<GomocupBrain>> MakeSearchBrain(
    const pb::RunConfig& config, const std::string& model, uint64_t seed);

// A search brain over any evaluator (not owned; must outlive the brain and
// be thread-safe) for `board_size` boards: tests use the fake evaluators.
// `params` must be valid; their root noise and playout-cap randomisation
// are turned off, and their thread count applies until INFO thread_num.
std::unique_ptr<GomocupBrain> MakeSearchBrain(const SearchParams& params,
                                              const SearchBrainOptions& options,
                                              Evaluator& evaluator,
                                              int board_size, uint64_t seed);

}  // namespace renju

#endif  // RENJU_GOMOCUP_SEARCH_BRAIN_H_
