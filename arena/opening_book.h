// Balanced openings for matches, read from the text files Gomocup tools
// use: one opening per line, the stones in play order from black.
//
//   offset (Piskvork, c-gomoku-cli): "dx,dy" pairs from the centre, commas
//     between all numbers, spaces allowed: "0,0, 1,-1, 2,0". The centre is
//     (size/2, size/2) rounded down (Piskvork `playOpening`), and dy grows
//     DOWNWARD like Gomocup's y: "1,-1" is one column right and one row up,
//     so "0,0, 1,-1" on 15x15 is h8 i9.
//   pos (c-gomoku-cli, Yixin-Board "getpos"): moves run together as
//     <letter><number>: "h8i7j8". The letter is the column from 'a'.
//     c-gomoku-cli counts the number from the TOP row (PosRows::kFromTop: on
//     15x15 "i7" is the point renju notation calls i9); Yixin-Board's display
//     and renju notation count from the bottom (kFromBottom). The research note
//     (formats.md §4.6) found both, so the caller says which. Mirroring
//     an opening top to bottom is a board symmetry, so either reading gives
//     an equally balanced game; it matters only for names.
//
// Blank lines are skipped. Every opening is replayed under the match's rule:
// an error names the file, the line, the move and what was wrong.
#ifndef RENJU_ARENA_OPENING_BOOK_H_
#define RENJU_ARENA_OPENING_BOOK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace renju {

enum class OpeningNotation { kOffset, kPos };
// "offset" or "pos".
absl::StatusOr<OpeningNotation> ParseOpeningNotation(absl::string_view name);

enum class PosRows { kFromTop, kFromBottom };

struct OpeningFormat {
  OpeningNotation notation = OpeningNotation::kOffset;
  PosRows pos_rows = PosRows::kFromTop;  // for kPos only
  Variant variant = Variant::kRenju;     // the rule the openings are played in
  int size = kRenjuBoardSize;
};

// One opening: the stones from the empty board, black first.
using Opening = std::vector<Move>;

// One line in the given notation; checks the points are on the board but
// not the rules. Errors name the move number and the token.
absl::StatusOr<Opening> ParseOffsetOpening(absl::string_view line, int size);
absl::StatusOr<Opening> ParsePosOpening(absl::string_view line, int size,
                                        PosRows rows);

// Every opening of a file (at least one), each replayed from the empty board
// under format.variant: no stone on an occupied point, no finished game,
// no forbidden black stone under renju.
absl::StatusOr<std::vector<Opening>> ReadOpeningFile(
    const std::string& path, const OpeningFormat& format);

}  // namespace renju

#endif  // RENJU_ARENA_OPENING_BOOK_H_
