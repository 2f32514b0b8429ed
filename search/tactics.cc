#include "search/tactics.h"

#include <algorithm>

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
  }
  return "?";
}

TacticsResult Tactics::Analyze(Game& game, const TacticsOptions& options) {
  Board& board = game.mutable_board();
  const Color mover = game.side_to_move();
  const Color opponent = Opponent(mover);
  TacticsResult result;

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
  // 4. The opponent's VCF, as if the side to move passed.
  if (options.defend_vcf) FindVcfDefences(board, mover, options, result);
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

}  // namespace renju
