// Opening files in Gomocup offset and pos notation (opening_book.h).
#include "arena/opening_book.h"

#include <cctype>
#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rules/game.h"

namespace renju {
namespace {

// A point from top-origin coordinates (Gomocup's frame) to the rules core's
// bottom-origin rows; errors name the move.
absl::StatusOr<Move> TopOriginMove(int x, int y_from_top, int size, int number,
                                   absl::string_view token) {
  if (x < 0 || y_from_top < 0 || x >= size || y_from_top >= size) {
    return absl::OutOfRangeError(absl::StrCat("move ", number, " '", token,
                                              "' is off the ", size, "x", size,
                                              " board"));
  }
  return Move::At(Point(x, size - 1 - y_from_top));
}

// Replays `opening` under the rule: every stone legal, the game still on.
absl::Status CheckPlayable(const Opening& opening, Variant variant, int size) {
  absl::StatusOr<Game> game = Game::Create(variant, size);
  if (!game.ok()) return game.status();
  for (size_t i = 0; i < opening.size(); ++i) {
    if (absl::Status s = game->Play(opening[i]); !s.ok()) return s;
    if (game->over()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", MoveName(opening[i]),
                       ") ends the game: ", GameResultName(game->result()),
                       " by ", EndReasonName(game->end_reason())));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<OpeningNotation> ParseOpeningNotation(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (lower == "offset") return OpeningNotation::kOffset;
  if (lower == "pos") return OpeningNotation::kPos;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown opening notation '", name, "' (expected offset or pos)"));
}

absl::StatusOr<Opening> ParseOffsetOpening(absl::string_view line, int size) {
  std::vector<absl::string_view> tokens = absl::StrSplit(line, ',');
  // Tolerate one trailing comma ("0,0, 1,-1,").
  if (tokens.size() > 1 && absl::StripAsciiWhitespace(tokens.back()).empty()) {
    tokens.pop_back();
  }
  if (tokens.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(tokens.size(), " numbers: offsets come in dx,dy pairs"));
  }
  Opening opening;
  for (size_t i = 0; i < tokens.size(); i += 2) {
    const int number = static_cast<int>(i / 2) + 1;
    const std::string token = absl::StrCat(tokens[i], ",", tokens[i + 1]);
    int dx = 0;
    int dy = 0;
    if (!absl::SimpleAtoi(tokens[i], &dx) ||
        !absl::SimpleAtoi(tokens[i + 1], &dy)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", number, " '", token, "' is not a pair of integers"));
    }
    absl::StatusOr<Move> move =
        TopOriginMove(dx + size / 2, dy + size / 2, size, number, token);
    if (!move.ok()) return move.status();
    opening.push_back(*move);
  }
  return opening;
}

absl::StatusOr<Opening> ParsePosOpening(absl::string_view line, int size,
                                        PosRows rows) {
  Opening opening;
  size_t i = 0;
  while (true) {
    while (i < line.size() && absl::ascii_isspace(line[i])) ++i;
    if (i == line.size()) break;
    const int number = static_cast<int>(opening.size()) + 1;
    const size_t start = i;
    if (!absl::ascii_isalpha(line[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", number, ": expected a column letter at '",
                       line.substr(start, 4), "'"));
    }
    const int x = absl::ascii_tolower(line[i++]) - 'a';
    int row = 0;
    const size_t digits = i;
    while (i < line.size() && absl::ascii_isdigit(line[i]) && i - digits < 2) {
      row = row * 10 + (line[i++] - '0');
    }
    const absl::string_view token = line.substr(start, i - start);
    if (i == digits || row == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", number, " '", token, "': expected a row number from 1"));
    }
    const int y_from_top = rows == PosRows::kFromTop ? row - 1 : size - row;
    absl::StatusOr<Move> move =
        TopOriginMove(x, y_from_top, size, number, token);
    if (!move.ok()) return move.status();
    opening.push_back(*move);
  }
  if (opening.empty()) return absl::InvalidArgumentError("no moves");
  return opening;
}

absl::StatusOr<std::vector<Opening>> ReadOpeningFile(
    const std::string& path, const OpeningFormat& format) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot open opening file '", path, "'"));
  }
  std::vector<Opening> openings;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty()) continue;
    absl::StatusOr<Opening> opening =
        format.notation == OpeningNotation::kOffset
            ? ParseOffsetOpening(text, format.size)
            : ParsePosOpening(text, format.size, format.pos_rows);
    absl::Status s = opening.status();
    if (s.ok()) s = CheckPlayable(*opening, format.variant, format.size);
    if (!s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat(path, ":", line_number, ": ", s.message()));
    }
    openings.push_back(*std::move(opening));
  }
  if (in.bad()) {
    return absl::DataLossError(absl::StrCat("error reading '", path, "'"));
  }
  if (openings.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening file '", path, "' has no openings"));
  }
  return openings;
}

}  // namespace renju
