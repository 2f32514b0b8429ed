#include "search/vcf.h"

#include "base/logging.h"
#include "rules/forbidden.h"

namespace renju {

VcfResult VcfSolver::Solve(Board& board, Color attacker,
                           const VcfLimits& limits) {
  failures_.NewSolve();
  board_ = &board;
  attacker_ = attacker;
  max_nodes_ = limits.max_nodes;
  nodes_ = 0;
  line_.clear();

  VcfResult result;
  result.outcome = Attack(limits.max_depth);
  result.nodes = nodes_;
  if (result.outcome == VcfOutcome::kWin) result.line = line_;
  board_ = nullptr;
  return result;
}

// The attacker is to move with no five made yet.
VcfOutcome VcfSolver::Attack(int depth_left) {
  Board& board = *board_;
  const Color defender = Opponent(attacker_);
  if (!board.FivePoints(attacker_).empty()) {
    line_.push_back(board.FivePoints(attacker_).First());
    return VcfOutcome::kWin;
  }
  if (depth_left <= 0) return VcfOutcome::kNoWin;

  PointSet candidates = board.FourPoints(attacker_);
  // A defender five point must be blocked at once, and only a block that
  // is also a four keeps the attack going.
  const PointSet& threats = board.FivePoints(defender);
  if (!threats.empty()) {
    const Point block = threats.First();
    if (threats.size() > 1 || !candidates.Contains(block)) {
      return VcfOutcome::kNoWin;
    }
    candidates.clear();
    candidates.Insert(block);
  }
  if (candidates.empty() || KnownFailure(depth_left)) {
    return VcfOutcome::kNoWin;
  }

  Point moves[Board::kNumCells];
  int num_moves = 0;
  candidates.ForEach([&](Point p) { moves[num_moves++] = p; });
  for (int i = 0; i < num_moves; ++i) {
    // RULES.md §4: black cannot make a four on a forbidden point.
    if (attacker_ == Color::kBlack && IsForbidden(board, moves[i])) continue;
    if (++nodes_ > max_nodes_) return VcfOutcome::kUnknown;
    const VcfOutcome outcome = TryFour(moves[i], depth_left);
    if (outcome != VcfOutcome::kNoWin) return outcome;
  }
  RecordFailure(depth_left);
  return VcfOutcome::kNoWin;
}

// Plays the attacker's four on `move`, then the defender's forced reply.
// On kNoWin the line and the board are as before.
VcfOutcome VcfSolver::TryFour(Point move, int depth_left) {
  Board& board = *board_;
  const Color defender = Opponent(attacker_);
  ScopedStone four(board, move, attacker_);
  line_.push_back(move);

  // Attack() made the attacker block any defender five, so the defender
  // has none here; the attacker has at least the four's five point.
  RENJU_DCHECK(board.FivePoints(defender).empty());
  VcfOutcome outcome = VcfOutcome::kNoWin;
  const PointSet& fives = board.FivePoints(attacker_);
  RENJU_DCHECK(!fives.empty()) << PointName(move);
  if (fives.size() >= 2) {
    outcome = VcfOutcome::kWin;  // straight four: one block is not enough
  } else {
    const Point block = fives.First();
    if (defender == Color::kBlack && IsForbidden(board, block)) {
      // RULES.md §4, "catching a forbidden move": black cannot defend.
      outcome = VcfOutcome::kWin;
    } else {
      ScopedStone reply(board, block, defender);
      line_.push_back(block);
      outcome = Attack(depth_left - 1);
      if (outcome != VcfOutcome::kWin) line_.pop_back();
    }
  }
  if (outcome != VcfOutcome::kWin) line_.pop_back();
  return outcome;
}

bool VcfSolver::KnownFailure(int depth_left) const {
  const int32_t* failed_at = failures_.Find(board_->hash());
  return failed_at != nullptr && *failed_at >= depth_left;
}

void VcfSolver::RecordFailure(int depth_left) {
  failures_.Store(board_->hash(), depth_left);
}

}  // namespace renju
