#include "rules/types.h"

#include <cctype>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace renju {

absl::string_view ColorName(Color c) {
  return c == Color::kBlack ? "black" : "white";
}

absl::string_view VariantName(Variant v) {
  switch (v) {
    case Variant::kFreestyle:
      return "freestyle";
    case Variant::kStandard:
      return "standard";
    case Variant::kRenju:
      return "renju";
  }
  return "?";
}

absl::StatusOr<Variant> ParseVariant(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  for (Variant v : {Variant::kFreestyle, Variant::kStandard, Variant::kRenju}) {
    if (lower == VariantName(v)) return v;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown rule '", text, "': expected renju, standard or freestyle"));
}

absl::Status ValidateBoardSize(Variant v, int size) {
  if (v == Variant::kRenju && size != kRenjuBoardSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "renju is played on 15 x 15 only, not ", size, " x ", size));
  }
  if (size < kMinBoardSize || size > kMaxBoardSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("board size ", size, " is outside ", kMinBoardSize, "..",
                     kMaxBoardSize));
  }
  return absl::OkStatus();
}

std::string PointName(Point p) {
  return absl::StrCat(std::string(1, static_cast<char>('a' + p.x)), p.y + 1);
}

std::string MoveName(Move m) {
  return m.is_pass() ? "pass" : PointName(m.point());
}

absl::StatusOr<Point> ParsePoint(absl::string_view token, int size) {
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad point '", token, "': ", why));
  };
  if (token.size() < 2 || token.size() > 3) {
    return error("expected a column letter and a row number, like h8");
  }
  const char column =
      static_cast<char>(std::tolower(static_cast<unsigned char>(token[0])));
  const char last_column = static_cast<char>('a' + size - 1);
  if (column < 'a' || column > last_column) {
    return error(absl::StrCat("column '", token.substr(0, 1), "' is not in a..",
                              std::string(1, last_column)));
  }
  int row = 0;
  for (char c : token.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return error(absl::StrCat("row '", token.substr(1), "' is not a number"));
    }
    row = row * 10 + (c - '0');
  }
  if (row < 1 || row > size || token[1] == '0') {
    return error(absl::StrCat("row ", token.substr(1), " is not in 1..", size));
  }
  return Point(column - 'a', row - 1);
}

absl::StatusOr<Move> ParseMove(absl::string_view token, int size) {
  if (token == "--" || absl::EqualsIgnoreCase(token, "pass")) {
    return Move::Pass();
  }
  absl::StatusOr<Point> p = ParsePoint(token, size);
  if (!p.ok()) return p.status();
  return Move::At(*p);
}

absl::StatusOr<std::vector<Move>> ParseMoveList(absl::string_view text,
                                                int size) {
  std::vector<Move> moves;
  int number = 0;
  for (absl::string_view token :
       absl::StrSplit(text, absl::ByAnyChar(" \t\r\n,;"), absl::SkipEmpty())) {
    ++number;
    absl::StatusOr<Move> move = ParseMove(token, size);
    if (!move.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", number, ": ", move.status().message()));
    }
    moves.push_back(*move);
  }
  return moves;
}

std::string MoveListString(const std::vector<Move>& moves) {
  return absl::StrJoin(
      moves, " ", [](std::string* out, Move m) { out->append(MoveName(m)); });
}

}  // namespace renju
