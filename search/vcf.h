// A VCF solver (victory by continuous fours): can the attacker, moving now,
// win by making a four on every move? Depth-first over the attacker's
// four-moves; the defender's reply is forced to the four's five point.
//
// The renju subtleties (RULES.md §2-4) come from the rules core:
// - black's fours and fives count only as exact fives (a five point that
//   would make an overline is no threat; the board's shapes already say so);
// - black may not make a four on a forbidden point;
// - white wins when black's only defence is a forbidden point;
// - a defender five point ends the line (the defender plays it and wins),
//   and when the defender threatens five the attacker must block it with a
//   four or give up.
// Failed positions are remembered in a small direct-mapped table keyed by
// the board hash.
//
// Not thread-safe: one solver per search thread.
#ifndef RENJU_SEARCH_VCF_H_
#define RENJU_SEARCH_VCF_H_

#include <cstdint>
#include <vector>

#include "rules/board.h"
#include "search/solver_table.h"

namespace renju {

struct VcfLimits {
  // Attacker four-moves tried, over the whole solve.
  int64_t max_nodes = 100000;
  // Attacker moves in one line.
  int max_depth = 30;
};

enum class VcfOutcome : uint8_t {
  kNoWin,    // no VCF within max_depth
  kWin,      // `line` wins
  kUnknown,  // max_nodes ran out first
};

struct VcfResult {
  VcfOutcome outcome = VcfOutcome::kNoWin;
  // kWin: attacker, defender, attacker, ... from the attacker's first move.
  // It ends with the attacker's five, or with an attacker four the defender
  // cannot meet (two five points, or black's only block is forbidden).
  std::vector<Point> line;
  int64_t nodes = 0;
};

class VcfSolver {
 public:
  VcfSolver() = default;

  // Solves for `attacker` to move on `board` (whoever's turn the game says
  // it is). The board is probed and restored.
  VcfResult Solve(Board& board, Color attacker, const VcfLimits& limits);

 private:
  static constexpr int kTableBits = 14;

  VcfOutcome Attack(int depth_left);
  VcfOutcome TryFour(Point move, int depth_left);
  bool KnownFailure(int depth_left) const;
  void RecordFailure(int depth_left);

  // Positions (by board hash) where the attack failed, with the depth it
  // failed at: it fails at every smaller depth too.
  SolverTable<int32_t> failures_{kTableBits};

  // Per solve.
  Board* board_ = nullptr;
  Color attacker_ = Color::kBlack;
  int64_t max_nodes_ = 0;
  int64_t nodes_ = 0;
  std::vector<Point> line_;
};

}  // namespace renju

#endif  // RENJU_SEARCH_VCF_H_
