#include "records/json_position.h"

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

absl::Status PlaceList(const nlohmann::json& object, const char* field,
                       bool alternate, Color first, Board& board) {
  const nlohmann::json& list = object[field];
  if (!list.is_array()) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", field, "\" is not a list of points"));
  }
  Color color = first;
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& entry = list[i];
    if (!entry.is_string()) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", field, "\"[", i, "] is not a string like \"h8\""));
    }
    absl::StatusOr<Point> p =
        ParsePoint(entry.get<std::string>(), board.size());
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", field, "\"[", i, "]: ", p.status().message()));
    }
    if (!board.IsEmpty(*p)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "\"", field, "\"[", i, "]: ", PointName(*p), " is already occupied"));
    }
    board.Place(*p, color);
    if (alternate) color = Opponent(color);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Board> BoardFromJson(const nlohmann::json& object,
                                    Variant variant, int size) {
  if (!object.is_object()) {
    return absl::InvalidArgumentError("line is not a JSON object");
  }
  if (absl::Status s = ValidateBoardSize(variant, size); !s.ok()) return s;
  Board board(variant, size);
  const bool has_moves = object.contains("moves");
  const bool has_lists = object.contains("black") || object.contains("white");
  if (has_moves == has_lists) {
    return absl::InvalidArgumentError(
        "expected either \"moves\" or \"black\"/\"white\" lists");
  }
  if (has_moves) {
    if (absl::Status s = PlaceList(object, "moves", true, Color::kBlack, board);
        !s.ok()) {
      return s;
    }
    return board;
  }
  for (const auto& [field, color] :
       {std::pair{"black", Color::kBlack}, std::pair{"white", Color::kWhite}}) {
    if (!object.contains(field)) continue;
    if (absl::Status s = PlaceList(object, field, false, color, board);
        !s.ok()) {
      return s;
    }
  }
  return board;
}

}  // namespace renju
