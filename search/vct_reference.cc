#include "search/vct_reference.h"

#include <vector>

#include "rules/forbidden.h"

namespace renju {
namespace {

class Reference {
 public:
  Reference(Board& board, Color attacker, int64_t max_nodes)
      : board_(board),
        attacker_(attacker),
        defender_(Opponent(attacker)),
        max_nodes_(max_nodes) {
    for (int y = 0; y < board.size(); ++y) {
      for (int x = 0; x < board.size(); ++x) all_points_.push_back(Point(x, y));
    }
  }

  // Every result true is a proof; false may come from the budget
  // (out_of_budget()).
  bool AttackerWins(int depth, Point* first_move);
  bool out_of_budget() const { return nodes_ > max_nodes_; }
  int64_t nodes() const { return nodes_ < max_nodes_ ? nodes_ : max_nodes_; }

 private:
  bool DefenderLoses(int depth);
  bool WinsNextMove(Color c);
  bool CanPlay(Point p, Color c) {
    return board_.IsEmpty(p) && (c != Color::kBlack || !IsForbidden(board_, p));
  }
  // Counts a move; false once the budget is spent.
  bool Count() { return ++nodes_ <= max_nodes_; }

  Board& board_;
  const Color attacker_;
  const Color defender_;
  const int64_t max_nodes_;
  int64_t nodes_ = 0;
  std::vector<Point> all_points_;
};

// `c` to move, with no five point for the opponent: can `c` make a four
// that leaves two five points, or (white under renju) one that black can
// only block on a forbidden point?
bool Reference::WinsNextMove(Color c) {
  const PointSet fours = board_.FourPoints(c);
  bool wins = false;
  fours.ForEach([&](Point p) {
    if (wins || !CanPlay(p, c)) return;
    board_.Place(p, c);
    const PointSet& fives = board_.FivePoints(c);
    wins = fives.size() >= 2 ||
           (fives.size() == 1 && Opponent(c) == Color::kBlack &&
            IsForbidden(board_, fives.First()));
    board_.Remove(p);
  });
  return wins;
}

// The attacker to move, `depth` threat moves left.
bool Reference::AttackerWins(int depth, Point* first_move) {
  if (!board_.FivePoints(attacker_).empty()) return true;
  const PointSet defender_fives = board_.FivePoints(defender_);
  if (defender_fives.size() >= 2) return false;
  if (defender_fives.empty() && WinsNextMove(attacker_)) return true;
  if (depth == 0) return false;
  for (Point p : all_points_) {
    // The defender's five point must be blocked first.
    if (!defender_fives.empty() && p != defender_fives.First()) continue;
    if (!CanPlay(p, attacker_)) continue;
    if (!Count()) return false;
    board_.Place(p, attacker_);
    const bool wins = DefenderLoses(depth - 1);
    board_.Remove(p);
    if (wins) {
      if (first_move != nullptr) *first_move = p;
      return true;
    }
  }
  return false;
}

// The defender to move after an attacker move.
bool Reference::DefenderLoses(int depth) {
  if (!board_.FivePoints(defender_).empty()) return false;
  const PointSet attacker_fives = board_.FivePoints(attacker_);
  if (attacker_fives.size() >= 2) return true;
  if (attacker_fives.size() == 1) {
    const Point block = attacker_fives.First();
    if (!CanPlay(block, defender_)) return true;
    if (!Count()) return false;
    board_.Place(block, defender_);
    const bool loses = AttackerWins(depth, nullptr);
    board_.Remove(block);
    return loses;
  }
  // Not a threat: the defender is free.
  if (!WinsNextMove(attacker_)) return false;
  for (Point x : all_points_) {
    if (!CanPlay(x, defender_)) continue;
    if (!Count()) return false;
    board_.Place(x, defender_);
    bool loses;
    const PointSet counter = board_.FivePoints(defender_);
    if (counter.empty()) {
      loses = AttackerWins(depth, nullptr);
    } else if (counter.size() >= 2 || !CanPlay(counter.First(), attacker_)) {
      loses = false;
    } else if (!Count()) {
      loses = false;
    } else {
      // A counter-four: the attacker blocks it and the threat must stand.
      board_.Place(counter.First(), attacker_);
      loses = DefenderLoses(depth);
      board_.Remove(counter.First());
    }
    board_.Remove(x);
    if (!loses) return false;
  }
  return true;
}

}  // namespace

ReferenceVctResult ReferenceVct(Board& board, Color attacker, int max_depth,
                                int64_t max_nodes) {
  Reference reference(board, attacker, max_nodes);
  ReferenceVctResult result;
  for (int depth = 1; depth <= max_depth; ++depth) {
    if (reference.AttackerWins(depth, &result.first_move)) {
      result.outcome = VctOutcome::kWin;
      break;
    }
    if (reference.out_of_budget()) {
      result.outcome = VctOutcome::kUnknown;
      break;
    }
  }
  result.nodes = reference.nodes();
  return result;
}

}  // namespace renju
