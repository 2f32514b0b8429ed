// Arena matches between two players (arena_players.h): model checkpoints
// with search, external Gomocup engines, or a random mover.
//
// Openings come from a list; black's first-move advantage in renju is
// large, so each opening is played twice with the colours swapped, and the
// two games form a pair whose score (0, 1/2, ..., 2) feeds the pentanomial
// statistics (match_stats.h). Pair p plays opening p mod n: game 2p has
// player A as black, game 2p + 1 player B. After the first round through
// the list, round r plays each opening under board symmetry r mod 8.
//
// Under an opening rule (ArenaOptions::opening_rule) games start from the
// empty board instead: game 2p has player A as the first player (tentative
// black, RULES.md §6), game 2p + 1 player B, and each player takes its own
// opening actions (GamePlayer::Opening: model players by search; the
// tactical and random players by DefaultOpeningAction, and engines too,
// since the Gomocup protocol has no renju opening actions, except under
// swap2, which engines play through SWAP2BOARD, gomocup/swap2.h). The
// colours are those the opening ends with; engines then play from the
// position the opening left. Records keep the rule and actions.
//
// `concurrent_games` threads each play one game at a time, so that many
// searches share each model's batched evaluator. Games are adjudicated by
// the rules core (five, forbidden move, full board, two passes, no five
// possible) and a move cap (a draw); a player's fault (an engine that crashes,
// times out, answers garbage or plays an illegal move) loses it that game and
// the match goes on. After every completed pair the Elo estimate, and the SPRT
// when configured, are updated; an SPRT decision stops the match, and games
// still in flight are abandoned. Only completed pairs count.
#ifndef RENJU_ARENA_ARENA_H_
#define RENJU_ARENA_ARENA_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/arena_players.h"
#include "arena/arena_summary.h"
#include "arena/match_stats.h"
#include "arena/opening_book.h"
#include "proto/game.pb.h"
#include "rules/opening.h"
#include "rules/types.h"

namespace renju {

struct ArenaOpening {
  std::vector<Move> moves;  // from the empty board, black first
  std::string name;         // "canonical:Kansei", "openings.txt#3"
};

// The 26 canonical renju openings (RULES.md §6), each under a board
// symmetry drawn from `seed`, so different seeds vary the orientation. On
// a board of another size (gomoku variants, 5..20) the same stones are
// moved to its centre.
std::vector<ArenaOpening> CanonicalArenaOpenings(uint64_t seed,
                                                 int size = kRenjuBoardSize);
// The openings of a Gomocup opening file (opening_book.h), named
// "<file name>#<n>" with n counting openings from 1.
absl::StatusOr<std::vector<ArenaOpening>> ArenaOpeningsFromFile(
    const std::string& path, const OpeningFormat& format);

struct ArenaOptions {
  Variant variant = Variant::kRenju;
  int board_size = kRenjuBoardSize;
  std::vector<ArenaOpening> openings;  // at least one, unless opening_rule
  // Games to play: even, >= 2.
  int64_t max_games = 40;
  int concurrent_games = 8;  // >= 1
  // A game still going after this many plies (opening included) is drawn.
  int max_plies = 225;
  // Checked after every completed pair; a decision stops the match.
  std::optional<SprtParams> sprt;
  uint64_t seed = 1;
  // Play every game under this opening rule instead of from `openings`
  // (see the file comment); the rule must fit variant and board_size.
  std::optional<OpeningRule> opening_rule;
  // When set, every counted game is written here as game-NNNNN.game (a
  // serialized pb::GameRecord) and game-NNNNN.psq; the folder is created.
  std::string out_dir;

  // InvalidArgument naming the bad field.
  absl::Status Validate() const;
};

// One finished game.
struct ArenaGame {
  int64_t index = 0;       // 0-based; its pair is index / 2
  bool a_is_black = true;  // under an opening rule: as the opening ended
  std::string opening;
  // The game as played: moves (no search targets), result, end reason.
  // A fault ends it with TIMEOUT (an engine out of time) or RESIGNATION
  // (any other fault) against the faulty side.
  pb::GameRecord record;
  EngineFault fault = EngineFault::kNone;
  bool fault_by_a = false;
  std::string fault_message;
  // Under an opening rule: each player's swap options and swaps.
  SwapCount swaps_a;
  SwapCount swaps_b;

  // Player A's score: 1, 1/2 or 0.
  double a_score() const;
};

struct ArenaCallbacks {
  // After each completed pair, with the summary so far; then for each of
  // its games. Called from game threads, one call at a time.
  std::function<void(const ArenaSummary&)> on_pair;
  std::function<void(const ArenaGame&)> on_game;
};

// Plays the match and returns its summary. `a` and `b` are not owned and
// may be the same object (a player against itself). `stop` (may be null)
// ends the match early ("interrupted"). Errors: invalid options, a
// player's error (an evaluator failed, an engine program cannot be
// started), a game file that cannot be written.
absl::StatusOr<ArenaSummary> RunArenaMatch(const ArenaOptions& options,
                                           ArenaPlayer& a, ArenaPlayer& b,
                                           const ArenaCallbacks& callbacks,
                                           const std::atomic<bool>* stop);

}  // namespace renju

#endif  // RENJU_ARENA_ARENA_H_
