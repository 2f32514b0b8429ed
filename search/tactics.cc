#include "search/tactics.h"

#include <algorithm>
#include <chrono>

#include "rules/forbidden.h"

namespace renju {

absl::string_view TacticName(Tactic t) {
  switch (t) {
    case Tactic::kNone:
      return "none";
    case Tactic::kWinInOne:
      return "win-in-one";
    case Tactic::kBlockFive:
      return "block-five";
    case Tactic::kLostToFive:
      return "lost-to-five";
    case Tactic::kVcf:
      return "vcf";
    case Tactic::kDefendVcf:
      return "defend-vcf";
    case Tactic::kVct:
      return "vct";
    case Tactic::kDefendVct:
      return "defend-vct";
    case Tactic::kCentreOpening:
      return "centre-opening";
  }
  return "?";
}

TacticsResult Tactics::Analyze(Game& game, const TacticsOptions& options) {
  Board& board = game.mutable_board();
  const Color mover = game.side_to_move();
  const Color opponent = Opponent(mover);
  TacticsResult result;

  if (options.centre_first_stone && board.num_stones() == 0) {
    result.tactic = Tactic::kCentreOpening;
    result.moves.push_back(Point(board.size() / 2, board.size() / 2));
    return result;
  }
  // 1. Five first (RULES.md §4): a five point is always playable.
  if (!board.FivePoints(mover).empty()) {
    result.tactic = Tactic::kWinInOne;
    result.winning_move = board.FivePoints(mover).First();
    return result;
  }
  // 2. The opponent threatens five.
  const PointSet& threats = board.FivePoints(opponent);
  if (!threats.empty()) {
    const Point block = threats.First();
    if (threats.size() > 1 ||
        (mover == Color::kBlack && IsForbidden(board, block))) {
      result.tactic = Tactic::kLostToFive;
    } else {
      result.tactic = Tactic::kBlockFive;
      result.moves.push_back(block);
    }
    return result;
  }
  // 3. The side to move's own VCF.
  if (options.vcf) {
    VcfResult vcf = solver_.Solve(board, mover, options.vcf_limits);
    result.vcf_nodes += vcf.nodes;
    if (vcf.outcome == VcfOutcome::kWin) {
      result.tactic = Tactic::kVcf;
      result.winning_move = vcf.line.front();
      result.vcf_line = std::move(vcf.line);
      return result;
    }
  }
  // 4. The side to move's own VCT.
  const auto vct_start = std::chrono::steady_clock::now();
  if (options.vct) {
    VctResult vct = vct_solver_.Solve(board, mover, options.vct_limits);
    result.vct_nodes += vct.nodes;
    if (vct.outcome == VctOutcome::kWin) {
      result.tactic = Tactic::kVct;
      result.winning_move = vct.line.front();
      result.vct_line = std::move(vct.line);
      return result;
    }
  }
  // 5. The opponent's VCF, as if the side to move passed.
  if (options.defend_vcf) FindVcfDefences(board, mover, options, result);
  // 6. The opponent's VCT, likewise.
  if (options.defend_vct && result.tactic == Tactic::kNone) {
    FindVctRefutations(board, mover, options, vct_start, result);
  }
  return result;
}

void Tactics::FindVcfDefences(Board& board, Color mover,
                              const TacticsOptions& options,
                              TacticsResult& result) {
  const Color opponent = Opponent(mover);
  VcfResult threat = solver_.Solve(board, opponent, options.vcf_limits);
  result.vcf_nodes += threat.nodes;
  if (threat.outcome != VcfOutcome::kWin) return;

  auto playable = [&](Point p) {
    return mover != Color::kBlack || !IsForbidden(board, p);
  };
  // Counter-fours force the opponent to answer first; keep them all.
  PointSet defences;
  const PointSet fours = board.FourPoints(mover);  // probes change the set
  fours.ForEach([&](Point p) {
    if (playable(p)) defences.Insert(p);
  });
  // A point of the opponent's line stops it if no VCF is left after it.
  // The checks share one budget; a check it cannot finish keeps the point.
  VcfLimits check = options.vcf_limits;
  int64_t budget = options.vcf_limits.max_nodes;
  for (Point p : threat.line) {
    if (defences.Contains(p) || !board.IsEmpty(p) || !playable(p)) continue;
    bool stops = true;
    if (budget > 0) {
      ScopedStone stone(board, p, mover);
      check.max_nodes = budget;
      const VcfResult after = solver_.Solve(board, opponent, check);
      budget -= after.nodes;
      result.vcf_nodes += after.nodes;
      stops = after.outcome != VcfOutcome::kWin;
    }
    if (stops) defences.Insert(p);
  }
  if (defences.empty()) return;
  result.tactic = Tactic::kDefendVcf;
  result.moves = defences.ToVector();
  result.vcf_line = std::move(threat.line);
}

void Tactics::FindVctRefutations(Board& board, Color mover,
                                 const TacticsOptions& options,
                                 std::chrono::steady_clock::time_point start,
                                 TacticsResult& result) {
  const Color opponent = Opponent(mover);
  // Both VCT steps share options.vct_limits.max_time_ms from `start`.
  const int64_t max_time_ms = options.vct_limits.max_time_ms;
  auto remaining_ms = [&]() -> int64_t {
    const int64_t spent = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count();
    return max_time_ms - spent;
  };
  VctLimits check = options.vct_limits;
  if (max_time_ms > 0) {
    if (remaining_ms() <= 0) return;
    check.max_time_ms = remaining_ms();
  }
  VctResult threat = vct_solver_.Solve(board, opponent, check);
  result.vct_nodes += threat.nodes;
  if (threat.outcome != VctOutcome::kWin) return;

  auto playable = [&](Point p) {
    return board.IsEmpty(p) &&
           (mover != Color::kBlack || !IsForbidden(board, p));
  };
  // Candidates: the points near the opponent's line (within two points of
  // one of its moves), and the side to move's own threats (fours, and
  // threes by the line tables), which the opponent must answer.
  PointSet candidates;
  for (Point p : threat.line) {
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        const Point q(p.x + dx, p.y + dy);
        if (board.OnBoard(q) && playable(q)) candidates.Insert(q);
      }
    }
  }
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Point p(x, y);
      if (!board.IsEmpty(p) || candidates.Contains(p)) continue;
      bool threat_move = board.FourPoints(mover).Contains(p);
      for (int d = 0; d < kNumDirections && !threat_move; ++d) {
        threat_move = board.ShapeAt(p, mover, static_cast<Direction>(d)) ==
                      LineShape::kThree;
      }
      if (threat_move && playable(p)) candidates.Insert(p);
    }
  }
  // A candidate is dropped when the solver finds the opponent's VCT after
  // it; finding one costs about what finding the first did, so each check
  // gets a few times that. Checks that cannot decide keep their move.
  const int64_t per_check = 4 * threat.nodes + 256;
  int64_t budget = options.vct_limits.max_nodes;
  PointSet kept;
  bool checked_all = true;
  candidates.ForEach([&](Point p) {
    if (!checked_all) return;
    check.max_nodes = std::min(per_check, budget);
    if (max_time_ms > 0) check.max_time_ms = remaining_ms();
    if (check.max_nodes <= 0 || (max_time_ms > 0 && check.max_time_ms <= 0)) {
      checked_all = false;
      return;
    }
    ScopedStone stone(board, p, mover);
    const VctResult after = vct_solver_.Solve(board, opponent, check);
    budget -= after.nodes;
    result.vct_nodes += after.nodes;
    if (after.outcome != VctOutcome::kWin) kept.Insert(p);
  });
  // Out of budget: the solver cannot say which moves refute the VCT. Every
  // candidate loses: the position is lost as far as the solver can see,
  // and the search may as well look at every move.
  if (!checked_all || kept.empty()) return;
  result.tactic = Tactic::kDefendVct;
  result.moves = kept.ToVector();
  result.vct_line = std::move(threat.line);
}

}  // namespace renju
