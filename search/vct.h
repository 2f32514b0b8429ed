// A VCT solver (victory by continuous threats): can the attacker, moving
// now, win by making a four or a three on every move? A threat-space
// AND/OR search with iterative deepening:
//   - attacker nodes (OR) try fours first, then threes; a three is any move
//     after which the attacker has a winning four point (below);
//   - defender nodes (AND) answer a four by its one block, and a three by
//     every defence that matters: each of the defender's own fours (a
//     counter-threat the attacker must block before going on) and each
//     move after which the attacker is left with no winning four point.
// A winning four point is a move that makes a four the defender cannot
// meet: a straight four (two five points), or for white a four whose one
// block is forbidden for black.
//
// The renju subtleties (RULES.md §3-4) come from the rules core:
// - black's fives count only as exact fives (the board's shapes say so);
// - black cannot play a forbidden point: not as a four or a three, not as
//   the straight-four point a three threatens (so a false three is no
//   threat), not as a block;
// - white wins when black's only defence is forbidden ("catching a
//   forbidden move"), whether the defence is a four's block or the only
//   block of a three.
//
// The defender's blocks are looked for near the attacker's winning four
// points (within five points on their lines, and on the lines of a
// catching four's block point) and each is checked exactly; a forbidden
// status that a far stone changes through the recursive live-three test
// (RULES.md §3) is not looked for there. vct_reference.h is a brute-force
// solver without that shortcut, for tests and the puzzle set.
//
// Proven wins (with the winning move) and failures, each with the depth it
// holds for, are remembered in a direct-mapped table keyed by the board
// hash, the side to move and the attacker.
//
// Not thread-safe: one solver per thread.
#ifndef RENJU_SEARCH_VCT_H_
#define RENJU_SEARCH_VCT_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "rules/board.h"
#include "search/solver_table.h"

namespace renju {

struct VctLimits {
  // Moves played in the search tree (both colours), over the whole solve.
  int64_t max_nodes = 100000;
  // Attacker threat moves (fours and threes) before the final unstoppable
  // four; the search deepens one move at a time up to this.
  int max_depth = 12;
  // Wall time for the solve; 0: no limit.
  int64_t max_time_ms = 0;
};

enum class VctOutcome : uint8_t {
  kNoWin,    // no VCT within max_depth (proven in the threat space)
  kWin,      // `line` starts a win
  kUnknown,  // max_nodes or max_time_ms ran out first
};

struct VctResult {
  VctOutcome outcome = VctOutcome::kNoWin;
  // kWin: attacker, defender, attacker, ... from the attacker's first move,
  // following the first defence at each defender move. It ends with the
  // attacker's five or with a four the defender cannot meet. It may stop
  // short when the table lost an entry on the way (rare; the first move is
  // always there).
  std::vector<Point> line;
  int64_t nodes = 0;
  // Deepest iteration finished or started, in attacker moves.
  int depth = 0;
};

class VctSolver {
 public:
  VctSolver() = default;

  // Solves for `attacker` to move on `board` (whoever's turn the game says
  // it is). The board is probed and restored.
  VctResult Solve(Board& board, Color attacker, const VctLimits& limits);

 private:
  enum class Bound : uint8_t { kNone, kWin, kFail };
  struct Entry {
    Bound bound = Bound::kNone;
    // kWin: wins within this depth (and above); kFail: fails at this depth
    // and below.
    int16_t depth_left = 0;
    Point move;  // kWin at an attacker node: the winning move
  };
  static constexpr int kTableBits = 16;
  // A failure that no depth limit caused holds at every depth.
  static constexpr int16_t kExactDepth = 10000;

  VctOutcome Attack(int depth_left);
  VctOutcome Defend(int depth_left);
  VctOutcome DefendAfter(Point move, int depth_left);
  // Counts a move played in the tree; false once the nodes or the time
  // ran out.
  bool Enter();

  uint64_t Key(bool attacker_to_move) const;
  const Entry* Probe(bool attacker_to_move) const;
  void Store(bool attacker_to_move, Bound bound, int depth_left, Point move);
  // The winning line from the root, after a proven win.
  std::vector<Point> PrincipalLine();

  SolverTable<Entry> table_{kTableBits};

  // Per solve.
  Board* board_ = nullptr;
  Color attacker_ = Color::kBlack;
  int64_t max_nodes_ = 0;
  int64_t nodes_ = 0;
  bool has_deadline_ = false;
  std::chrono::steady_clock::time_point deadline_;
  bool out_of_budget_ = false;
  // Failures that a depth limit caused, so far.
  int64_t depth_cuts_ = 0;
};

}  // namespace renju

#endif  // RENJU_SEARCH_VCT_H_
