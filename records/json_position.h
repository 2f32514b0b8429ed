// Positions from JSON objects, in the format of
// ../shared/data/renju-forbidden-public.jsonl: either "moves" (play order,
// black first) or "black" and "white" lists of points.
#ifndef RENJU_RECORDS_JSON_POSITION_H_
#define RENJU_RECORDS_JSON_POSITION_H_

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "rules/board.h"

namespace renju {

// Stones are placed as given; a forbidden black move in "moves" is placed
// like any other (the position is what is labelled). Errors name the field
// and the bad entry.
absl::StatusOr<Board> BoardFromJson(const nlohmann::json& object,
                                    Variant variant = Variant::kRenju,
                                    int size = kRenjuBoardSize);

}  // namespace renju

#endif  // RENJU_RECORDS_JSON_POSITION_H_
