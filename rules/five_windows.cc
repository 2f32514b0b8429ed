#include "rules/five_windows.h"

namespace renju {
namespace {

// Unit steps of the four directions in (x, y), in Direction order.
constexpr int kDx[kNumDirections] = {1, 0, 1, 1};
constexpr int kDy[kNumDirections] = {0, 1, 1, -1};

bool ExactFive(Variant v, Color c) {
  return v == Variant::kStandard ||
         (v == Variant::kRenju && c == Color::kBlack);
}

bool WindowOnBoard(int size, int x, int y, int d) {
  const int end_x = x + 4 * kDx[d];
  const int end_y = y + 4 * kDy[d];
  return x >= 0 && y >= 0 && x < size && y < size && end_x < size &&
         end_y >= 0 && end_y < size;
}

// What blocks `c`'s five in the window starting at (x, y) along d.
int BlockersByScan(const Board& board, int x, int y, int d, Color c) {
  const Cell own = StoneOf(c);
  const Cell opponent = StoneOf(Opponent(c));
  int blockers = 0;
  for (int i = 0; i < 5; ++i) {
    blockers += board.at(Point(x + i * kDx[d], y + i * kDy[d])) == opponent;
  }
  if (ExactFive(board.variant(), c)) {
    // Filling the window would join these stones into six or more.
    for (int i : {-1, 5}) {
      const Point flank(x + i * kDx[d], y + i * kDy[d]);
      blockers += board.OnBoard(flank) && board.at(flank) == own;
    }
  }
  return blockers;
}

}  // namespace

FiveWindows::FiveWindows(const Board& board) {
  for (int c = 0; c < kNumColors; ++c) {
    exact_five_[c] = ExactFive(board.variant(), static_cast<Color>(c));
  }
  // Every Game starts from an empty board. Copying the counts of an empty
  // board of that size, built once, costs a fraction of building them
  // (rules_bench's random games: about 6 us a game).
  struct EmptyBoards {
    std::array<uint8_t, kNumSlots> slots[kMaxBoardSize + 1];
    int open[kMaxBoardSize + 1];
  };
  static const EmptyBoards* const kEmpty = [] {
    auto* out = new EmptyBoards;
    for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
      // Every window on the board is open for both colours.
      out->slots[size].fill(kOffBoardWindow | kOffBoardWindow << 4);
      out->open[size] = 0;
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          for (int d = 0; d < kNumDirections; ++d) {
            if (!WindowOnBoard(size, x, y, d)) continue;
            out->slots[size]
                      [Board::CellIndex(Point(x, y)) * kNumDirections + d] = 0;
            ++out->open[size];
          }
        }
      }
    }
    return out;
  }();
  if (board.num_stones() == 0) {
    blockers_ = kEmpty->slots[board.size()];
    open_windows_[0] = open_windows_[1] = kEmpty->open[board.size()];
    return;
  }
  blockers_.fill(kOffBoardWindow | kOffBoardWindow << 4);
  const int size = board.size();
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      for (int d = 0; d < kNumDirections; ++d) {
        if (!WindowOnBoard(size, x, y, d)) continue;
        const int slot = Board::CellIndex(Point(x, y)) * kNumDirections + d;
        blockers_[slot] = 0;
        for (int c = 0; c < kNumColors; ++c) {
          const int blockers =
              BlockersByScan(board, x, y, d, static_cast<Color>(c));
          blockers_[slot] |= static_cast<uint8_t>(blockers << (4 * c));
          open_windows_[c] += blockers == 0;
        }
      }
    }
  }
}

int FiveWindows::CountByScan(const Board& board, Color c) {
  int open = 0;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      for (int d = 0; d < kNumDirections; ++d) {
        open += WindowOnBoard(board.size(), x, y, d) &&
                BlockersByScan(board, x, y, d, c) == 0;
      }
    }
  }
  return open;
}

bool FiveWindows::IsConsistent(const Board& board) const {
  // Off-board slots drift from kOffBoardWindow as stones come and go; only
  // the windows on the board mean anything.
  const FiveWindows fresh(board);
  for (int c = 0; c < kNumColors; ++c) {
    if (fresh.open_windows_[c] != open_windows_[c]) return false;
  }
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      for (int d = 0; d < kNumDirections; ++d) {
        if (!WindowOnBoard(board.size(), x, y, d)) continue;
        const int slot = Board::CellIndex(Point(x, y)) * kNumDirections + d;
        if (fresh.blockers_[slot] != blockers_[slot]) return false;
      }
    }
  }
  return true;
}

// Touches at most 4 directions x (5 windows holding the cell + 2 windows it
// flanks), with no bounds tests (see kOffBoardWindow).
template <bool kPlace>
void FiveWindows::Update(int cell, Color c) {
  const int own = Index(c);
  const int opponent = Index(Opponent(c));
  const auto bump = [this](int colour, int slot) {
    uint8_t& blockers = blockers_[slot];
    const uint8_t one = static_cast<uint8_t>(1 << (4 * colour));
    if (kPlace) {
      if (Count(blockers, colour) == 0) --open_windows_[colour];
      blockers += one;
    } else {
      blockers -= one;
      if (Count(blockers, colour) == 0) ++open_windows_[colour];
    }
  };
  for (int d = 0; d < kNumDirections; ++d) {
    const int step = Board::Step(static_cast<Direction>(d));
    for (int k = 0; k < 5; ++k) {
      bump(opponent, (cell - k * step) * kNumDirections + d);
    }
    if (exact_five_[own]) {
      // The cell is just before the window starting one step on, and just
      // after the one starting five steps back.
      bump(own, (cell + step) * kNumDirections + d);
      bump(own, (cell - 5 * step) * kNumDirections + d);
    }
  }
}

template void FiveWindows::Update<true>(int cell, Color c);
template void FiveWindows::Update<false>(int cell, Color c);

}  // namespace renju
