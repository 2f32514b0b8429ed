// Boards as text: for people (`renju show`) and for tests, which build
// positions from diagrams the way Minigo's TestablePosition does.
//
//    a b c d e f g h i j k l m n o
// 15 . . . . . . . . . . . . . . . 15
//  ...
//  8 . . . . . . . X O . . . . . .  8
//  ...
//    a b c d e f g h i j k l m n o
//
// X is black, O white, . empty; in output, * marks a point forbidden for
// black and the last stone is followed by ')' instead of a space.
#ifndef RENJU_RULES_DIAGRAM_H_
#define RENJU_RULES_DIAGRAM_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rules/board.h"

namespace renju {

std::string RenderBoard(const Board& board,
                        const std::vector<Point>& forbidden = {},
                        std::optional<Point> last = std::nullopt);

// Reads `size` rows of `size` cells (X, O, ., or * which reads as empty),
// top row first; coordinate labels and blank lines are ignored.
absl::StatusOr<Board> ParseDiagram(absl::string_view text,
                                   Variant variant = Variant::kRenju,
                                   int size = kRenjuBoardSize);

}  // namespace renju

#endif  // RENJU_RULES_DIAGRAM_H_
