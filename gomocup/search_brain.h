// The Gomocup engine's real player: MCTS with the policy-value network
// (search/search.h over an EvaluatorStack), for `renju gomocup --brain
// search`. A move spends what the manager allows: the turn's time budget,
// INFO max_node as a visit limit and INFO thread_num search threads (with
// virtual loss); a YXSTOP or END ends the search with the best move so far.
// The search's root moves never include black's forbidden points under
// renju, so neither does its answer.
#ifndef RENJU_GOMOCUP_SEARCH_BRAIN_H_
#define RENJU_GOMOCUP_SEARCH_BRAIN_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gomocup/gomocup_protocol.h"
#include "proto/config.pb.h"

namespace renju {

// Loads `model` (a fresh network of the config's shape when empty: weak but
// legal play) with config.server()'s search and evaluator settings. The
// network serves one board size; ChooseMove on another size is an error,
// which the protocol answers with its tactical fallback.
absl::StatusOr<std::unique_ptr<GomocupBrain>> MakeSearchBrain(
    const pb::RunConfig& config, const std::string& model, uint64_t seed);

}  // namespace renju

#endif  // RENJU_GOMOCUP_SEARCH_BRAIN_H_
