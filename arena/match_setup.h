// Setting up one match outside a run (`renju arena`, tools/arena_command.cc):
// the players from their specs, and the match's options from a run config
// with the settings asked for in place of its arena ones. Plain values
// only; the command turns its flags into them.
//   model:PATH           a checkpoint with search (ModelPlayer; an empty
//                        PATH is a fresh network);
//   engine:COMMAND LINE  an external Gomocup engine (EnginePlayer);
//   tactical             the built-in tactical brain (TacticalPlayer);
//   random               a uniformly random legal mover (RandomPlayer).
#ifndef RENJU_ARENA_MATCH_SETUP_H_
#define RENJU_ARENA_MATCH_SETUP_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "arena/arena.h"
#include "arena/arena_players.h"
#include "arena/match_stats.h"
#include "nn/evaluator_stack.h"
#include "proto/config.pb.h"

namespace renju {

// How a PlayerFactory makes players, besides what the run config says.
struct PlayerOptions {
  // Seeds the models' evaluators (a fresh network's weights among them).
  uint64_t seed = 1;
  // Model players search with arena.search, with these in place of its
  // visits, time_ms and opening_candidate_visits when set.
  std::optional<int64_t> visits;
  std::optional<int64_t> time_ms;
  std::optional<int64_t> opening_visits;
  // Engine players: time per move (0: arena.search.time_ms, or 1000 ms when
  // that is 0 too), nodes per move sent as INFO max_node (0: none), extra
  // time for a launched engine's first move, and whether their stderr is
  // shown.
  int64_t engine_turn_ms = 0;
  int64_t engine_max_nodes = 0;
  int64_t engine_startup_ms = 30000;
  bool engine_stderr = false;
};

// Builds the players of a match from their specs (the file comment); the
// model players of one checkpoint share one evaluator stack, built with
// the selfplay.evaluator settings. `config` must outlive the factory; the
// players it makes keep their stacks alive and may outlive it.
class PlayerFactory {
 public:
  PlayerFactory(const pb::RunConfig& config, PlayerOptions options)
      : config_(config), options_(std::move(options)) {}

  // The player of `spec`, named by it ("model:fresh" for a fresh network).
  // Errors: a spec of no kind above, a checkpoint that cannot be loaded or
  // does not fit, invalid search settings, an engine's empty command line.
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> Make(const std::string& spec);

 private:
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeModel(
      const std::string& path, const std::string& name);
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeEngine(
      const std::string& spec);

  const pb::RunConfig& config_;
  const PlayerOptions options_;
  std::map<std::string, std::shared_ptr<EvaluatorStack>> stacks_;
};

// What a match is asked to be, over the run config's own settings.
struct MatchSetup {
  uint64_t seed = 1;  // the openings' orientation and the moves' randomness
  // "canonical" (the 26 canonical openings), or a Gomocup opening file in
  // `notation` ("offset" or "pos"), whose pos numbers count rows from the
  // `pos_rows` ("top" or "bottom").
  std::string openings = "canonical";
  std::string notation = "offset";
  std::string pos_rows = "top";
  // When unset: arena.games, arena.concurrent_games, selfplay.max_plies.
  std::optional<int64_t> games;
  std::optional<int64_t> concurrent_games;
  std::optional<int64_t> max_plies;
  // "": no SPRT; "config": the config's arena.sprt_*; "ELO0,ELO1": these
  // bounds with the config's alpha and beta.
  std::string sprt;
  // When not empty, every game is played under this opening rule
  // (ParseOpeningRule, rules/opening.h) instead of from the openings.
  std::string opening_rule;
  std::string out_dir;  // games and summary.json; empty: kept nowhere
};

// The validated options of the match `setup` asks for under `config` (its
// variant and board size). Errors: an opening file that cannot be read,
// an unknown notation, pos rows, SPRT or opening rule, invalid options.
absl::StatusOr<ArenaOptions> MatchOptionsFromSetup(const pb::RunConfig& config,
                                                   const MatchSetup& setup);

}  // namespace renju

#endif  // RENJU_ARENA_MATCH_SETUP_H_
