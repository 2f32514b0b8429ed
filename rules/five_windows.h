// Whether each side can still make a five (RULES.md §5, the seeds' basic
// rule 4: the game is drawn as soon as neither can), kept up to date in
// constant time per stone.
//
// For every window of five points on the board (a first point and a
// direction) and each colour, a small count of what blocks that colour's
// five there: the opponent's stones inside the window and, where the
// colour's five must be exact (black under renju, both under standard), its
// own stones on the two flanking points (completing the window would make
// six or more). A window is open while its count is 0; the number of open
// windows per colour is kept, so "can this colour still make a five" is one
// comparison. Forbidden points do not enter: a five wins even where it is
// forbidden (RULES.md §4).
//
// Game owns one and updates it on the moves it plays and takes back. It is
// not part of Board, so the many probe stones of forbidden-point detection
// and search do not pay for it.
#ifndef RENJU_RULES_FIVE_WINDOWS_H_
#define RENJU_RULES_FIVE_WINDOWS_H_

#include <array>
#include <cstdint>

#include "rules/board.h"
#include "rules/types.h"

namespace renju {

class FiveWindows {
 public:
  // The counts of `board`'s stones, by scanning every window.
  explicit FiveWindows(const Board& board);

  // A stone of `c` was placed on, or removed from, p.
  void Place(Point p, Color c) { Update<true>(Board::CellIndex(p), c); }
  void Remove(Point p, Color c) { Update<false>(Board::CellIndex(p), c); }

  int OpenWindows(Color c) const { return open_windows_[Index(c)]; }
  bool CanMakeFive(Color c) const { return open_windows_[Index(c)] > 0; }

  // The open windows of `c` on `board`, counted by scanning every window's
  // points now (tests and checks compare it with OpenWindows).
  static int CountByScan(const Board& board, Color c);
  // Every window's count equals a scan of `board`.
  bool IsConsistent(const Board& board) const;

 private:
  // A window's slot is its first cell (Board's padded layout) times
  // kNumDirections plus the direction. Every cell of the padded grid has
  // slots, so a stone's windows need no bounds test; windows that leave the
  // board hold kOffBoardWindow, which no stone can bring to 0. A slot's byte
  // holds black's count in its low 4 bits and white's in the high 4 (at most
  // 5 + 2 blockers, 8 + 7 off the board), half the memory of two arrays.
  static constexpr int kNumSlots = Board::kNumCells * kNumDirections;
  static constexpr uint8_t kOffBoardWindow = 8;  // > 5 + 2 blockers
  static int Count(uint8_t slot, int colour) {
    return (slot >> (4 * colour)) & 15;
  }

  template <bool kPlace>
  void Update(int cell, Color c);

  // Whether each colour's five must be exact (RULES.md §2).
  bool exact_five_[kNumColors];
  std::array<uint8_t, kNumSlots> blockers_;
  int open_windows_[kNumColors] = {0, 0};
};

}  // namespace renju

#endif  // RENJU_RULES_FIVE_WINDOWS_H_
