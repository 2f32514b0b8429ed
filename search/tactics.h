// Renju tactics run before every network call (KataGomo does the same), so
// that small visit counts play and defend the forcing lines correctly:
//   1. a five point for the side to move: the win in one is played;
//   2. the opponent threatens five: only the block is searched, and a
//      double threat, or black's only block being forbidden, is lost;
//   3. a VCF for the side to move is a proven win that overrides the value;
//   4. a VCT (threes and fours, vct.h) for the side to move: a proven win,
//      when asked for (the search asks at the root only);
//   5. the opponent has a VCF: only the moves that stop it are searched;
//   6. the opponent has a VCT (when asked for): only the moves that refute
//      it are searched;
//   0. before all these, when asked for: on the empty board only the centre
//      is searched (renju's first stone; every RIF-family opening rule
//      requires it and strong free-renju play follows it).
// The defender's view (5) checks the points of the opponent's winning line
// plus the side to move's own fours (counter-attacks); a line point is kept
// when the opponent has no VCF left after it. That set can miss a rare
// defence elsewhere; when it comes out empty, nothing is restricted.
// Against a VCT (6) the candidates are the points within two of the line's
// moves and the side to move's own fours and threes; a candidate is
// dropped when the solver finds the opponent's VCT after it (within a few
// times the nodes the first one took), so the moves kept refute it or are
// not shown to lose. When the shared budget cannot check every candidate,
// or every one loses, nothing is restricted.
//
// Not thread-safe: one Tactics per search thread (it owns the solvers).
#ifndef RENJU_SEARCH_TACTICS_H_
#define RENJU_SEARCH_TACTICS_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "search/vcf.h"
#include "search/vct.h"

namespace renju {

enum class Tactic : uint8_t {
  kNone = 0,
  kWinInOne,       // the side to move has a five point
  kBlockFive,      // the opponent threatens one five: the block is forced
  kLostToFive,     // the opponent has a five nobody can stop
  kVcf,            // the side to move wins by continuous fours
  kDefendVcf,      // the opponent has a VCF: only its defences are searched
  kVct,            // the side to move wins by continuous threes and fours
  kDefendVct,      // the opponent has a VCT: only its refutations are searched
  kCentreOpening,  // the empty board: only the centre is searched
};
absl::string_view TacticName(Tactic t);  // "win-in-one", ...

struct TacticsOptions {
  bool vcf = true;         // look for the side to move's VCF
  bool defend_vcf = true;  // look for the opponent's VCF and its defences
  // Per VCF solve; the defence checks share one more such budget.
  VcfLimits vcf_limits;
  bool vct = false;         // look for the side to move's VCT
  bool defend_vct = false;  // look for the opponent's VCT and refutations
  // Nodes per VCT solve, and one more such budget shared by the refutation
  // checks; max_time_ms covers all the VCT work of one Analyze call.
  VctLimits vct_limits;
  // On the empty board, restrict the moves to the centre.
  bool centre_first_stone = false;
};

struct TacticsResult {
  Tactic tactic = Tactic::kNone;
  // kWinInOne, kVcf, kVct: the move that wins.
  Point winning_move;
  // kBlockFive, kDefendVcf, kDefendVct, kCentreOpening: the only moves worth
  // searching, in cell order.
  std::vector<Point> moves;
  // kVcf, kDefendVcf: the VCF line found (the side to move's, or the
  // opponent's).
  std::vector<Point> vcf_line;
  int64_t vcf_nodes = 0;
  // kVct, kDefendVct: the VCT's principal line (the side to move's, or the
  // opponent's).
  std::vector<Point> vct_line;
  int64_t vct_nodes = 0;

  bool proven_win() const {
    return tactic == Tactic::kWinInOne || tactic == Tactic::kVcf ||
           tactic == Tactic::kVct;
  }
  // The root's moves are limited to `moves`.
  bool restricts_moves() const {
    return tactic == Tactic::kBlockFive || tactic == Tactic::kDefendVcf ||
           tactic == Tactic::kDefendVct || tactic == Tactic::kCentreOpening;
  }
  bool proven_loss() const { return tactic == Tactic::kLostToFive; }
};

class Tactics {
 public:
  // `game` must not be over. Its board is probed and restored.
  TacticsResult Analyze(Game& game, const TacticsOptions& options);

 private:
  void FindVcfDefences(Board& board, Color mover, const TacticsOptions& options,
                       TacticsResult& result);
  void FindVctRefutations(Board& board, Color mover,
                          const TacticsOptions& options,
                          std::chrono::steady_clock::time_point start,
                          TacticsResult& result);

  VcfSolver solver_;
  VctSolver vct_solver_;
};

}  // namespace renju

#endif  // RENJU_SEARCH_TACTICS_H_
