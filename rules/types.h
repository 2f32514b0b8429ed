// Basic renju vocabulary: colours, rule variants, points and moves, with their
// text forms. RULES.md §1 (board and notation) and §2 (variants).
#ifndef RENJU_RULES_TYPES_H_
#define RENJU_RULES_TYPES_H_

#include <cstdint>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace renju {

inline constexpr int kRenjuBoardSize = 15;
// Gomoku variants may use larger boards (freestyle is often 20 x 20).
inline constexpr int kMaxBoardSize = 20;
inline constexpr int kMinBoardSize = 5;

enum class Color : uint8_t { kBlack = 0, kWhite = 1 };
// The colours by their short names, as the rules and the search write them.
inline constexpr Color kBlack = Color::kBlack;
inline constexpr Color kWhite = Color::kWhite;
inline constexpr int kNumColors = 2;

constexpr Color Opponent(Color c) {
  return c == Color::kBlack ? Color::kWhite : Color::kBlack;
}
constexpr int Index(Color c) { return static_cast<int>(c); }
absl::string_view ColorName(Color c);  // "black" / "white"

// RULES.md §2.
//   freestyle: five or more wins, either colour; nothing forbidden.
//   standard:  exactly five wins, either colour; an overline wins for nobody.
//   renju:     black needs exactly five and has forbidden points; white wins
//              with five or more.
enum class Variant : uint8_t { kFreestyle = 0, kStandard = 1, kRenju = 2 };
inline constexpr int kNumVariants = 3;

absl::string_view VariantName(Variant v);  // "freestyle" / "standard" / "renju"
// Accepts the names above, case-insensitively.
absl::StatusOr<Variant> ParseVariant(absl::string_view text);
// Renju is defined on 15 x 15 only; the gomoku variants on kMinBoardSize..20.
absl::Status ValidateBoardSize(Variant v, int size);

// A point: x is the column (0 = 'a', left to right), y the row (0 = row 1,
// bottom to top). `h8` is {7, 7}, the centre of the 15 x 15 board.
struct Point {
  int8_t x = -1;
  int8_t y = -1;

  constexpr Point() = default;
  constexpr Point(int x_in, int y_in)
      : x(static_cast<int8_t>(x_in)), y(static_cast<int8_t>(y_in)) {}

  constexpr bool OnBoard(int size) const {
    return x >= 0 && y >= 0 && x < size && y < size;
  }
  friend constexpr bool operator==(Point a, Point b) {
    return a.x == b.x && a.y == b.y;
  }
  friend constexpr bool operator!=(Point a, Point b) { return !(a == b); }
  // Column-major order, the order RULES.md outputs sort by: (column, row).
  friend constexpr bool operator<(Point a, Point b) {
    return a.x != b.x ? a.x < b.x : a.y < b.y;
  }
  template <typename H>
  friend H AbslHashValue(H h, Point p) {
    return H::combine(std::move(h), p.x, p.y);
  }
};

// A move is a stone on a point, or a pass (RULES.md §5).
class Move {
 public:
  static constexpr Move Pass() { return Move(); }
  static constexpr Move At(Point p) { return Move(p); }

  constexpr bool is_pass() const { return point_.x < 0; }
  constexpr Point point() const { return point_; }

  friend constexpr bool operator==(Move a, Move b) {
    return a.point_ == b.point_;
  }
  friend constexpr bool operator!=(Move a, Move b) { return !(a == b); }

 private:
  constexpr Move() = default;
  constexpr explicit Move(Point p) : point_(p) {}
  Point point_;
};

// `h8` notation: column letter then row number, printed lower case. Columns
// run a, b, c, ... without skipping any letter.
std::string PointName(Point p);
std::string MoveName(Move m);  // a point name, or "pass"

// Parses `h8` (case-insensitive) for a board of `size`. The error names the
// token and what was wrong with it.
absl::StatusOr<Point> ParsePoint(absl::string_view token, int size);
// A point, or `pass` / `--` (the pass spellings used by game records).
absl::StatusOr<Move> ParseMove(absl::string_view token, int size);
// Moves separated by spaces or commas: "h8 h9 i10". Errors name the 1-based
// move number and the bad token.
absl::StatusOr<std::vector<Move>> ParseMoveList(absl::string_view text,
                                                int size);
std::string MoveListString(const std::vector<Move>& moves);

}  // namespace renju

#endif  // RENJU_RULES_TYPES_H_
