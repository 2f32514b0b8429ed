// The 26 canonical renju openings (RULES.md §6): move 1 on h8, move 2 on h9
// (direct) or i9 (indirect), move 3 inside the central 5x5. Any of the 8
// board symmetries of an opening is the same opening.
#ifndef RENJU_RULES_CANONICAL_OPENINGS_H_
#define RENJU_RULES_CANONICAL_OPENINGS_H_

#include <array>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/symmetry.h"
#include "rules/types.h"

namespace renju {

struct CanonicalOpening {
  absl::string_view name;     // e.g. "Kansei"
  absl::string_view chinese;  // e.g. "寒星"
  bool direct;                // move 2 on h9 (direct) or i9 (indirect)
  Point third;                // move 3 in the canonical orientation
};

inline constexpr int kNumCanonicalOpenings = 26;
// Direct openings first, each group in the RULES.md table order.
const std::array<CanonicalOpening, kNumCanonicalOpenings>& CanonicalOpenings();

// The three moves of opening `index` in its canonical orientation.
std::vector<Move> CanonicalOpeningMoves(int index);

struct RecognizedOpening {
  int index;          // into CanonicalOpenings()
  Symmetry symmetry;  // maps the canonical moves onto the given ones
};

// If the first three moves of `moves` (15 x 15) are a canonical opening under
// some symmetry, which one. Needs at least three moves, none a pass.
std::optional<RecognizedOpening> RecognizeOpening(
    const std::vector<Move>& moves);

}  // namespace renju

#endif  // RENJU_RULES_CANONICAL_OPENINGS_H_
