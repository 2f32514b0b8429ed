// The evaluator interface search needs: positions in, masked move priors
// and a win/draw/loss value out, one position at a time or a batch at once. It
// includes no LibTorch, so search and its tests build without the network
// (KataGo's nninterface.h / lc0's Backend split). inference/ implements it with
// the network, batching and caching; search/fake_evaluators.h has fixed and
// seeded-random fakes for tests.
#ifndef RENJU_SEARCH_EVALUATOR_H_
#define RENJU_SEARCH_EVALUATOR_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "rules/game.h"

namespace renju {

// What an evaluator says about one position.
struct Evaluation {
  // Prior probability of each point, indexed y * size + x. Zero on occupied
  // points and, for black under renju, on forbidden points; sums to 1 over
  // the rest (or all zero when nothing is legal).
  std::vector<float> policy;
  // Value from the side to move's view; win + draw + loss = 1.
  float win = 0;
  float draw = 0;
  float loss = 0;

  // Expected score in [-1, 1] for the side to move: win - loss.
  float Score() const { return win - loss; }
};

// Thread-safe: many search threads call Evaluate at once; implementations
// batch them. Each call blocks until its own result is ready.
class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // Evaluates the position of `game` (which must not be over) into `out`,
  // reusing out's storage. `game` is only read during the call; it is taken
  // non-const because finding black's forbidden points probes its board,
  // and it is unchanged when the call returns. Errors: the evaluator is shut
  // down, a remote server failed, the position does not fit the network.
  virtual absl::Status Evaluate(Game& game, Evaluation& out) = 0;

  // Evaluates every games[i] into *outs[i] (the spans have one size) as one
  // piece of work: a search gathering a minibatch of leaves asks for them
  // together, and a batching evaluator runs them in one forward instead of
  // waiting for other callers to fill a batch (lc0's BackendComputation,
  // KataGo's NNEvaluator batch). The same rules as Evaluate for each game.
  // An error fails the whole call; the outputs are then unspecified.
  // The default asks Evaluate for each game in turn.
  virtual absl::Status EvaluateBatch(absl::Span<Game* const> games,
                                     absl::Span<Evaluation* const> outs);
};

}  // namespace renju

#endif  // RENJU_SEARCH_EVALUATOR_H_
