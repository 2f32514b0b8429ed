// A set of board points as a bitset over the board's padded cell indices
// (board.h). Iteration visits points in cell order: row by row from row 1,
// left to right within a row.
#ifndef RENJU_RULES_POINT_SET_H_
#define RENJU_RULES_POINT_SET_H_

#include <array>
#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace renju {

class PointSet {
 public:
  // Must cover Board::kNumCells (checked in board.cc).
  static constexpr int kNumWords = 15;
  static constexpr int kPad = 5;
  static constexpr int kStride = kMaxBoardSize + 2 * kPad;

  void Insert(Point p) { InsertCell(CellOf(p)); }
  void Erase(Point p) { EraseCell(CellOf(p)); }
  bool Contains(Point p) const { return ContainsCell(CellOf(p)); }

  void InsertCell(int cell) { words_[cell >> 6] |= Bit(cell); }
  void EraseCell(int cell) { words_[cell >> 6] &= ~Bit(cell); }
  void AssignCell(int cell, bool on) {
    on ? InsertCell(cell) : EraseCell(cell);
  }
  bool ContainsCell(int cell) const {
    return (words_[cell >> 6] & Bit(cell)) != 0;
  }

  bool empty() const {
    for (uint64_t w : words_) {
      if (w) return false;
    }
    return true;
  }
  int size() const {
    int n = 0;
    for (uint64_t w : words_) n += __builtin_popcountll(w);
    return n;
  }
  void clear() { words_.fill(0); }

  PointSet& operator&=(const PointSet& o) {
    for (int i = 0; i < kNumWords; ++i) words_[i] &= o.words_[i];
    return *this;
  }
  PointSet& operator|=(const PointSet& o) {
    for (int i = 0; i < kNumWords; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  friend bool operator==(const PointSet& a, const PointSet& b) {
    return a.words_ == b.words_;
  }
  friend bool operator!=(const PointSet& a, const PointSet& b) {
    return !(a == b);
  }

  // Calls fn(Point) for each member in cell order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (int i = 0; i < kNumWords; ++i) {
      for (uint64_t w = words_[i]; w; w &= w - 1) {
        const int cell = i * 64 + __builtin_ctzll(w);
        fn(Point(cell % kStride - kPad, cell / kStride - kPad));
      }
    }
  }
  std::vector<Point> ToVector() const {
    std::vector<Point> out;
    ForEach([&](Point p) { out.push_back(p); });
    return out;
  }
  // The first member in cell order; only valid when not empty.
  Point First() const {
    for (int i = 0; i < kNumWords; ++i) {
      if (words_[i]) {
        const int cell = i * 64 + __builtin_ctzll(words_[i]);
        return Point(cell % kStride - kPad, cell / kStride - kPad);
      }
    }
    return Point();
  }

 private:
  static constexpr int CellOf(Point p) {
    return (p.y + kPad) * kStride + (p.x + kPad);
  }
  static constexpr uint64_t Bit(int cell) { return uint64_t{1} << (cell & 63); }

  std::array<uint64_t, kNumWords> words_{};
};

}  // namespace renju

#endif  // RENJU_RULES_POINT_SET_H_
