#include "search/vct.h"

#include "base/logging.h"
#include "rules/forbidden.h"

namespace renju {
namespace {

// Table keys: the board hash with the side to move and the attacker mixed
// in, so that the same stones solved for the other side never collide.
constexpr uint64_t kAttackerToMoveKey = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kWhiteAttackerKey = 0xc2b2ae3d27d4eb4full;

// RULES.md §4: black cannot play a forbidden point; white can play anywhere.
bool Playable(Board& board, Point p, Color c) {
  return c != kBlack || !IsForbidden(board, p);
}

bool CatchesForbidden(const Board& board, Color attacker) {
  return attacker == kWhite && board.variant() == Variant::kRenju;
}

// Does `c` on empty point p, one of its four points, make a four the
// opponent cannot meet? Neither side may have a five point. When the four
// wins only because its one block is forbidden for black, `*block` is that
// block; otherwise it is left alone.
bool IsWinningFour(Board& board, Point p, Color c, Point* block) {
  int fours = 0;
  bool straight = false;
  for (int d = 0; d < kNumDirections; ++d) {
    const LineShape s = board.ShapeAt(p, c, static_cast<Direction>(d));
    fours += FourCount(s);
    straight |= s == LineShape::kStraightFour;
  }
  if (c == kBlack && board.variant() == Variant::kRenju) {
    // Two fours are a forbidden double-four (RULES.md §4), so black's only
    // unstoppable four is a straight four, on a playable point.
    return straight && !IsForbidden(board, p);
  }
  if (straight || fours >= 2) return true;  // two five points
  if (!CatchesForbidden(board, c)) return false;
  // RULES.md §4, catching a forbidden move: black must block on the five
  // point and cannot.
  ScopedStone four(board, p, c);
  const PointSet& fives = board.FivePoints(c);
  if (fives.size() != 1 || !IsForbidden(board, fives.First())) return false;
  *block = fives.First();
  return true;
}

// The first winning four point of `c` (see IsWinningFour), if any.
bool FirstWinningFour(Board& board, Color c, Point* out) {
  const PointSet fours = board.FourPoints(c);  // probes change the set
  bool found = false;
  Point block;
  fours.ForEach([&](Point p) {
    if (!found && IsWinningFour(board, p, c, &block)) {
      *out = p;
      found = true;
    }
  });
  return found;
}

bool HasWinningFour(Board& board, Color c) {
  Point p;
  return FirstWinningFour(board, c, &p);
}

// The empty points within `reach` of p on its four lines, p included.
PointSet EmptyOnLines(const Board& board, Point p, int reach) {
  PointSet out;
  if (board.IsEmpty(p)) out.Insert(p);
  for (int d = 0; d < kNumDirections; ++d) {
    for (int k = -reach; k <= reach; ++k) {
      const Point q = PointAlong(p, static_cast<Direction>(d), k);
      if (k != 0 && board.OnBoard(q) && board.IsEmpty(q)) out.Insert(q);
    }
  }
  return out;
}

// The defender's answers to the attacker's threat, defender to move, no
// five point for either side and at least one attacker winning four point:
// every playable defender four (counter-threats first), then every
// playable point after which the attacker has no winning four point left.
// A line word reaches five points, so a block lies within five points of
// each winning four point on its lines, or of a catching four's block.
std::vector<Point> Defences(Board& board, Color attacker) {
  const Color defender = Opponent(attacker);
  std::vector<Point> out;
  const PointSet fours = board.FourPoints(defender);
  fours.ForEach([&](Point p) {
    if (Playable(board, p, defender)) out.push_back(p);
  });

  PointSet region;
  bool first = true;
  const PointSet attacker_fours = board.FourPoints(attacker);
  attacker_fours.ForEach([&](Point p) {
    Point block(-1, -1);
    if (!IsWinningFour(board, p, attacker, &block)) return;
    PointSet near = EmptyOnLines(board, p, 5);
    if (block.x >= 0) near |= EmptyOnLines(board, block, 5);
    if (first) {
      region = near;
      first = false;
    } else {
      region &= near;
    }
  });
  region.ForEach([&](Point x) {
    if (fours.Contains(x) || !Playable(board, x, defender)) return;
    ScopedStone stone(board, x, defender);
    if (!HasWinningFour(board, attacker)) out.push_back(x);
  });
  return out;
}

// The defence a principal line shows: the first block that is not a four,
// else the first four.
Point MainDefence(const Board& board, Color attacker,
                  const std::vector<Point>& defences) {
  for (Point x : defences) {
    if (!board.FourPoints(Opponent(attacker)).Contains(x)) return x;
  }
  return defences.front();
}

}  // namespace

VctResult VctSolver::Solve(Board& board, Color attacker,
                           const VctLimits& limits) {
  table_.NewSolve();
  board_ = &board;
  attacker_ = attacker;
  max_nodes_ = limits.max_nodes;
  nodes_ = 0;
  out_of_budget_ = false;
  has_deadline_ = limits.max_time_ms > 0;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::milliseconds(limits.max_time_ms);

  VctResult result;
  for (int depth = 1; depth <= limits.max_depth; ++depth) {
    depth_cuts_ = 0;
    result.depth = depth;
    result.outcome = Attack(depth);
    if (result.outcome == VctOutcome::kWin) {
      result.line = PrincipalLine();
      break;
    }
    // No line reached the depth limit: deeper iterations find nothing more.
    if (result.outcome == VctOutcome::kUnknown || depth_cuts_ == 0) break;
  }
  result.nodes = nodes_;
  board_ = nullptr;
  return result;
}

// The attacker is to move.
VctOutcome VctSolver::Attack(int depth_left) {
  Board& board = *board_;
  const Color defender = Opponent(attacker_);
  if (!board.FivePoints(attacker_).empty()) return VctOutcome::kWin;
  const PointSet& threats = board.FivePoints(defender);
  if (threats.empty() && HasWinningFour(board, attacker_)) {
    return VctOutcome::kWin;
  }
  if (const Entry* e = Probe(/*attacker_to_move=*/true)) {
    if (e->bound == Bound::kWin && e->depth_left <= depth_left) {
      return VctOutcome::kWin;
    }
    if (e->bound == Bound::kFail && e->depth_left >= depth_left) {
      if (e->depth_left != kExactDepth) ++depth_cuts_;
      return VctOutcome::kNoWin;
    }
  }
  if (depth_left <= 0) {
    ++depth_cuts_;
    return VctOutcome::kNoWin;
  }

  // Fours first, then threes; a defender five point must be blocked at
  // once, and that block is the only move.
  std::vector<Point> moves;
  if (!threats.empty()) {
    const Point block = threats.First();
    if (threats.size() == 1 && Playable(board, block, attacker_)) {
      moves.push_back(block);
    }
  } else {
    const PointSet fours = board.FourPoints(attacker_);
    fours.ForEach([&](Point p) {
      if (Playable(board, p, attacker_)) moves.push_back(p);
    });
    // A three: a line through the move that one more stone makes a
    // straight four (Defend checks that a winning four point results).
    PointSet threes;
    for (int cell = 0; cell < Board::kNumCells; ++cell) {
      const Point p = Board::PointOf(cell);
      if (!board.OnBoard(p) || !board.IsEmpty(p) || fours.Contains(p)) continue;
      for (int d = 0; d < kNumDirections; ++d) {
        if (board.ShapeAt(p, attacker_, static_cast<Direction>(d)) ==
            LineShape::kThree) {
          threes.Insert(p);
          break;
        }
      }
    }
    // White may also threaten a four whose block black cannot play: its
    // five point is one of black's forbidden candidates.
    if (CatchesForbidden(board, attacker_)) {
      const PointSet candidates = board.ForbiddenCandidates();
      candidates.ForEach([&](Point f) { threes |= EmptyOnLines(board, f, 4); });
    }
    threes.ForEach([&](Point p) {
      if (!fours.Contains(p) && Playable(board, p, attacker_)) {
        moves.push_back(p);
      }
    });
  }

  const int64_t cuts_before = depth_cuts_;
  for (Point move : moves) {
    const VctOutcome outcome = DefendAfter(move, depth_left - 1);
    if (outcome == VctOutcome::kWin) {
      Store(true, Bound::kWin, depth_left, move);
      return outcome;
    }
    if (outcome == VctOutcome::kUnknown) return outcome;
  }
  Store(true, Bound::kFail,
        depth_cuts_ == cuts_before ? kExactDepth : depth_left, Point());
  return VctOutcome::kNoWin;
}

// Plays the attacker's `move`, then answers for the defender.
VctOutcome VctSolver::DefendAfter(Point move, int depth_left) {
  if (!Enter()) return VctOutcome::kUnknown;
  ScopedStone stone(*board_, move, attacker_);
  return Defend(depth_left);
}

// The defender is to move after an attacker move (or after a counter-four
// and its block).
VctOutcome VctSolver::Defend(int depth_left) {
  Board& board = *board_;
  const Color defender = Opponent(attacker_);
  if (!board.FivePoints(defender).empty()) return VctOutcome::kNoWin;
  const PointSet& fives = board.FivePoints(attacker_);
  if (!fives.empty()) {
    const Point block = fives.First();
    // Two five points, or black's one block forbidden (RULES.md §4).
    if (fives.size() >= 2 || !Playable(board, block, defender)) {
      return VctOutcome::kWin;
    }
    if (!Enter()) return VctOutcome::kUnknown;
    ScopedStone reply(board, block, defender);
    return Attack(depth_left);
  }
  // A move that threatens nothing hands the defender the initiative.
  if (!HasWinningFour(board, attacker_)) return VctOutcome::kNoWin;
  if (const Entry* e = Probe(/*attacker_to_move=*/false)) {
    if (e->bound == Bound::kWin && e->depth_left <= depth_left) {
      return VctOutcome::kWin;
    }
    if (e->bound == Bound::kFail && e->depth_left >= depth_left) {
      if (e->depth_left != kExactDepth) ++depth_cuts_;
      return VctOutcome::kNoWin;
    }
  }

  const int64_t cuts_before = depth_cuts_;
  for (Point x : Defences(board, attacker_)) {
    VctOutcome outcome = VctOutcome::kUnknown;
    if (!Enter()) return outcome;
    ScopedStone reply(board, x, defender);
    const PointSet& counter = board.FivePoints(defender);
    if (counter.empty()) {
      outcome = Attack(depth_left);
    } else if (counter.size() >= 2 ||
               !Playable(board, counter.First(), attacker_)) {
      outcome = VctOutcome::kNoWin;  // a counter-four the attacker cannot meet
    } else if (Enter()) {
      // The attacker blocks the counter-four; its threat must still stand.
      ScopedStone block(board, counter.First(), attacker_);
      outcome = Defend(depth_left);
    }
    if (outcome == VctOutcome::kUnknown) return outcome;
    if (outcome == VctOutcome::kNoWin) {
      Store(false, Bound::kFail,
            depth_cuts_ == cuts_before ? kExactDepth : depth_left, Point());
      return outcome;
    }
  }
  Store(false, Bound::kWin, depth_left, Point());
  return VctOutcome::kWin;
}

bool VctSolver::Enter() {
  if (out_of_budget_ || nodes_ >= max_nodes_) {
    out_of_budget_ = true;
    return false;
  }
  if (has_deadline_ && (nodes_ & 255) == 0 &&
      std::chrono::steady_clock::now() >= deadline_) {
    out_of_budget_ = true;
    return false;
  }
  ++nodes_;
  return true;
}

uint64_t VctSolver::Key(bool attacker_to_move) const {
  return board_->hash() ^ (attacker_to_move ? kAttackerToMoveKey : 0) ^
         (attacker_ == kWhite ? kWhiteAttackerKey : 0);
}

const VctSolver::Entry* VctSolver::Probe(bool attacker_to_move) const {
  return table_.Find(Key(attacker_to_move));
}

void VctSolver::Store(bool attacker_to_move, Bound bound, int depth_left,
                      Point move) {
  table_.Store(Key(attacker_to_move),
               Entry{bound, static_cast<int16_t>(depth_left), move});
}

// Replays the proof from the root: the attacker's moves from the table,
// the defender's main defence at each of its moves.
std::vector<Point> VctSolver::PrincipalLine() {
  Board& board = *board_;
  const Color defender = Opponent(attacker_);
  std::vector<Point> line;
  std::vector<Point> placed;
  auto play = [&](Point p, Color c) {
    line.push_back(p);
    board.Place(p, c);
    placed.push_back(p);
  };
  bool attacker_to_move = true;
  while (static_cast<int>(line.size()) < Board::kNumCells) {
    if (attacker_to_move) {
      const PointSet& fives = board.FivePoints(attacker_);
      const PointSet& threats = board.FivePoints(defender);
      Point four;
      if (!fives.empty()) {
        line.push_back(fives.First());
        break;
      }
      if (!threats.empty()) {
        play(threats.First(), attacker_);
      } else if (FirstWinningFour(board, attacker_, &four)) {
        line.push_back(four);
        break;
      } else {
        const Entry* e = Probe(/*attacker_to_move=*/true);
        if (e == nullptr || e->bound != Bound::kWin) break;
        play(e->move, attacker_);
      }
      attacker_to_move = false;
      continue;
    }
    const PointSet& fives = board.FivePoints(attacker_);
    if (!fives.empty()) {
      if (fives.size() >= 2 || !Playable(board, fives.First(), defender)) {
        break;  // the line ends on a four the defender cannot meet
      }
      play(fives.First(), defender);
      attacker_to_move = true;
      continue;
    }
    const std::vector<Point> defences = Defences(board, attacker_);
    if (defences.empty()) {
      // Nothing stops every threat (a double three, say): the line shows
      // the defender blocking one winning four point, and the next.
      Point four;
      if (!FirstWinningFour(board, attacker_, &four) ||
          !Playable(board, four, defender)) {
        break;
      }
      play(four, defender);
      attacker_to_move = true;
      continue;
    }
    play(MainDefence(board, attacker_, defences), defender);
    const PointSet& counter = board.FivePoints(defender);
    if (!counter.empty()) {
      play(counter.First(), attacker_);  // block the counter-four
    } else {
      attacker_to_move = true;
    }
  }
  for (auto it = placed.rbegin(); it != placed.rend(); ++it) board.Remove(*it);
  return line;
}

}  // namespace renju
