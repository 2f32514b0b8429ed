#include "rules/diagram.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace renju {
namespace {

std::string ColumnLabels(int size) {
  std::string out = "  ";
  for (int x = 0; x < size; ++x) {
    absl::StrAppend(&out, " ", std::string(1, static_cast<char>('a' + x)));
  }
  return out;
}

}  // namespace

std::string RenderBoard(const Board& board, const std::vector<Point>& forbidden,
                        std::optional<Point> last) {
  const int size = board.size();
  auto symbol = [&](Point p) {
    switch (board.at(p)) {
      case Cell::kBlack:
        return 'X';
      case Cell::kWhite:
        return 'O';
      default:
        return std::find(forbidden.begin(), forbidden.end(), p) !=
                       forbidden.end()
                   ? '*'
                   : '.';
    }
  };
  auto is_last = [&](int x, int y) {
    return last.has_value() && *last == Point(x, y);
  };
  std::string out = ColumnLabels(size) + "\n";
  for (int y = size - 1; y >= 0; --y) {
    absl::StrAppend(&out, absl::StrFormat("%2d", y + 1));
    for (int x = 0; x < size; ++x) {
      // The separator before a cell brackets the last stone: "(X)".
      out += is_last(x, y) ? '(' : (x > 0 && is_last(x - 1, y)) ? ')' : ' ';
      out += symbol(Point(x, y));
    }
    out += is_last(size - 1, y) ? ')' : ' ';
    absl::StrAppend(&out, absl::StrFormat("%2d\n", y + 1));
  }
  absl::StrAppend(&out, ColumnLabels(size), "\n");
  return out;
}

absl::StatusOr<Board> ParseDiagram(absl::string_view text, Variant variant,
                                   int size) {
  if (absl::Status s = ValidateBoardSize(variant, size); !s.ok()) return s;
  std::vector<std::string> rows;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::string cells;
    for (char c : line) {
      if (c == 'X' || c == 'x' || c == 'O' || c == 'o' || c == '.' ||
          c == '*') {
        cells += c;
      }
    }
    // Label rows (a b c ...) contain no cell characters except 'o' for
    // column o; a row of cells has exactly `size` of them.
    if (static_cast<int>(cells.size()) == size) rows.push_back(cells);
  }
  if (static_cast<int>(rows.size()) != size) {
    return absl::InvalidArgumentError(absl::StrCat("diagram has ", rows.size(),
                                                   " rows of ", size,
                                                   " cells, expected ", size));
  }
  Board board(variant, size);
  for (int r = 0; r < size; ++r) {
    const int y = size - 1 - r;
    for (int x = 0; x < size; ++x) {
      const char c = rows[r][x];
      if (c == 'X' || c == 'x') board.Place(Point(x, y), Color::kBlack);
      if (c == 'O' || c == 'o') board.Place(Point(x, y), Color::kWhite);
    }
  }
  return board;
}

}  // namespace renju
