// The players of an arena match (arena.h). A match asks each ArenaPlayer
// for a GamePlayer per game, so per-game state (a search tree, an engine
// process in a game) stays with the game's thread while what is expensive
// and shareable (a model's batched evaluator, idle engine processes) is
// shared by all the games in flight:
//   ModelPlayer   a network with search settings; one Search per game and
//                 side, one evaluator for every game;
//   EnginePlayer  an external engine speaking the Gomocup protocol, one
//                 process per game in flight, reused between games and
//                 relaunched after a fault;
//   TacticalPlayer the built-in tactical brain (gomocup TacticalBrain: win,
//                 block, else the best shape), in process, no search;
//   RandomPlayer  a uniformly random legal move (a sanity baseline).
#ifndef RENJU_ARENA_ARENA_PLAYERS_H_
#define RENJU_ARENA_ARENA_PLAYERS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "gomocup/gomocup_client.h"
#include "nn/evaluator_stack.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "search/evaluator.h"
#include "search/opening_player.h"
#include "search/search_params.h"

namespace renju {

// What a player answers for one move: a move, or a fault that loses it the
// game (only external engines fault).
struct PlayerMove {
  Move move = Move::Pass();
  EngineFault fault = EngineFault::kNone;
  std::string fault_message;  // what the engine did, for logs
};

// One player's side of one game. Driven by one game thread.
class GamePlayer {
 public:
  virtual ~GamePlayer() = default;
  // The move for the side to move in `game`, which is ongoing and extends
  // the position this player started from. `stop` (may be null) cuts a
  // search short; the caller then abandons the game. Errors stop the whole
  // match (the evaluator failed, a bug); an engine's misbehaviour is not an
  // error but a fault in the answer.
  virtual absl::StatusOr<PlayerMove> Play(const Game& game,
                                          const std::atomic<bool>* stop) = 0;
  // The opening action (RULES.md §6) for this player, the one to act in
  // `state`, which is not over. The default is DefaultOpeningAction
  // (search/opening_player.h) with randomness drawn from the position: the
  // choice of players without opening judgement (the tactical and random
  // players, and engines, whose protocol has no renju opening actions).
  // Model players decide by search; engines answer swap2 through
  // SWAP2BOARD (gomocup/swap2.h). Errors stop the whole match.
  virtual absl::StatusOr<OpeningAction> Opening(const OpeningState& state,
                                                const std::atomic<bool>* stop);
  // Why this player took the rule's default opening actions although its
  // protocol has a convention for the rule (an engine that answered
  // SWAP2BOARD with ERROR or UNKNOWN); empty when it did not.
  virtual std::string OpeningFallback() const { return ""; }
};

// A participant of a match. Thread-safe: games on many threads call
// NewGame at once and drive their game players concurrently.
class ArenaPlayer {
 public:
  virtual ~ArenaPlayer() = default;
  // For summaries and logs, e.g. "model:gen3.ckpt".
  virtual const std::string& name() const = 0;
  // A player for one game that begins at `start` (the opening placed);
  // `seed` is its randomness. Errors stop the match.
  virtual absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(
      const Game& start, uint64_t seed) = 0;
};

// A network playing through search. Every game gets its own single-tree
// Search (tree reuse across both sides' moves); all share the evaluator.
// Opening actions come from an OpeningPlayer (search/opening_player.h)
// with the same search params and `opening`'s budget.
class ModelPlayer : public ArenaPlayer {
 public:
  // Shares `stack` (kept alive by this player). `params` and `opening`
  // must be valid.
  ModelPlayer(std::string name, std::shared_ptr<EvaluatorStack> stack,
              const SearchParams& params,
              const OpeningParams& opening = OpeningParams());
  // `evaluator` is not owned and must outlive the player and its games
  // (tests use fake evaluators).
  ModelPlayer(std::string name, Evaluator& evaluator,
              const SearchParams& params,
              const OpeningParams& opening = OpeningParams());

  const std::string& name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game& start,
                                                      uint64_t seed) override;

 private:
  const std::string name_;
  std::shared_ptr<EvaluatorStack> stack_;  // may be null
  Evaluator& evaluator_;
  const SearchParams params_;
  const OpeningParams opening_;
};

// Plays a uniformly random legal point (a pass when there is none).
class RandomPlayer : public ArenaPlayer {
 public:
  explicit RandomPlayer(std::string name = "random") : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game& start,
                                                      uint64_t seed) override;

 private:
  const std::string name_;
};

// The tactical brain of `renju gomocup --brain tactical`, played in
// process: completes its own five, blocks the opponent's, else plays the
// point near the stones with the strongest shapes, ties broken by the
// game's seed. Never plays a forbidden point; answers at once. A fixed
// yardstick for ratings (arena.anchors).
class TacticalPlayer : public ArenaPlayer {
 public:
  explicit TacticalPlayer(std::string name = "tactical")
      : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game& start,
                                                      uint64_t seed) override;

 private:
  const std::string name_;
};

// An external Gomocup engine. A game takes an idle engine process or
// launches one; a process that ends a game without a fault goes back to
// the pool, one that faulted has been killed (gomocup_client.h) and the
// next game launches a fresh one. An engine that refuses or fails START
// faults at its first move. A game whose history holds a pass (the
// protocol has none) gets a pass from the engine, which ends it drawn.
// Under swap2 the engine takes its opening actions by SWAP2BOARD; one that
// answers ERROR or UNKNOWN takes the rule's defaults (OpeningFallback
// says so), and one that faults there (garbage, an illegal answer, a
// timeout) takes the defaults too and then faults at its first move.
class EnginePlayer : public ArenaPlayer {
 public:
  EnginePlayer(std::string name, GomocupClientOptions options);
  // Quits the idle engines.
  ~EnginePlayer() override;

  const std::string& name() const override { return name_; }
  // Errors: the engine could not be started at all (no such program).
  absl::StatusOr<std::unique_ptr<GamePlayer>> NewGame(const Game& start,
                                                      uint64_t seed) override;

  // Processes started so far (1 + relaunches when games run one at a time).
  int64_t launches() const;

 private:
  class EngineGame;  // arena_players.cc
  // Hands a process that finished a game cleanly back to the pool.
  void Release(std::unique_ptr<GomocupClient> client);

  const std::string name_;
  const GomocupClientOptions options_;
  mutable absl::Mutex mutex_;
  std::vector<std::unique_ptr<GomocupClient>> idle_ ABSL_GUARDED_BY(mutex_);
  int64_t launches_ ABSL_GUARDED_BY(mutex_) = 0;
};

// An EnginePlayer named `name` running `command_line` (the program and its
// arguments split on blanks; no shell) under `options`' limits (their argv
// is replaced). InvalidArgument for an empty command line.
absl::StatusOr<std::unique_ptr<EnginePlayer>> MakeEnginePlayer(
    std::string name, absl::string_view command_line,
    GomocupClientOptions options);

}  // namespace renju

#endif  // RENJU_ARENA_ARENA_PLAYERS_H_
