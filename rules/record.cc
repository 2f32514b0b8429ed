#include "rules/record.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/logging.h"

namespace renju {
namespace {

absl::Status LineError(int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// Lines without their '\n' or "\r\n"; a UTF-8 byte order mark is dropped.
std::vector<absl::string_view> Lines(absl::string_view text) {
  absl::ConsumePrefix(&text, "\xEF\xBB\xBF");
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  for (absl::string_view& line : lines) absl::ConsumeSuffix(&line, "\r");
  return lines;
}

bool IsResultWord(absl::string_view token) {
  for (absl::string_view word : {"black", "white", "draw", "unknown"}) {
    if (absl::EqualsIgnoreCase(token, word)) return true;
  }
  return false;
}

// `x,y` or `x,y,ms`; nullopt for any other line (the end of the moves).
std::optional<std::pair<int, int>> ParsePsqMoveLine(absl::string_view line) {
  std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
  if (fields.size() < 2 || fields.size() > 3) return std::nullopt;
  int values[3] = {0, 0, 0};
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!absl::SimpleAtoi(fields[i], &values[i])) return std::nullopt;
  }
  return std::make_pair(values[0], values[1]);
}

absl::StatusOr<int> ParsePsqSize(absl::string_view header) {
  const auto error = [&] {
    return LineError(1, absl::StrCat("bad psq header '", header,
                                     "': expected 'Piskvorky WxH, o1:o2, h' "
                                     "with a square board of ",
                                     kMinBoardSize, "..", kMaxBoardSize));
  };
  const size_t space = header.find(' ');
  if (!absl::StartsWith(header, "Piskvork") || space == header.npos) {
    return error();
  }
  const absl::string_view dims =
      header.substr(space + 1, header.find(',') - space - 1);
  std::pair<absl::string_view, absl::string_view> wh =
      absl::StrSplit(dims, absl::MaxSplits('x', 1));
  int width = 0;
  int height = 0;
  if (!absl::SimpleAtoi(wh.first, &width) ||
      !absl::SimpleAtoi(wh.second, &height) || width != height ||
      width < kMinBoardSize || width > kMaxBoardSize) {
    return error();
  }
  return width;
}

// A record move on `size` for a format that cannot hold passes or points
// off the board; the error names the move.
absl::StatusOr<Point> WritablePoint(Move m, int number, int size,
                                    absl::string_view format) {
  if (m.is_pass()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "move ", number, " is a pass: ", format, " has no passes"));
  }
  if (!m.point().OnBoard(size)) {
    return absl::InvalidArgumentError(absl::StrCat("move ", number, " (",
                                                   MoveName(m), ") is off the ",
                                                   size, "x", size, " board"));
  }
  return m.point();
}

std::optional<IllegalReason> WhyIllegal(const Game& game, Move m) {
  if (game.over()) return IllegalReason::kAfterEnd;
  if (m.is_pass()) return std::nullopt;
  if (!game.board().OnBoard(m.point())) return IllegalReason::kOffBoard;
  if (!game.board().IsEmpty(m.point())) return IllegalReason::kOccupied;
  return std::nullopt;
}

// SGF (FF[4]) by hand: the grammar is a few lines (red-bean.com/sgf). Reads
// the main line of each game tree; variations are skipped unread.
class SgfReader {
 public:
  explicit SgfReader(absl::string_view text) : text_(text) {
    absl::ConsumePrefix(&text_, "\xEF\xBB\xBF");
  }

  absl::StatusOr<std::vector<GameRecord>> ReadCollection() {
    std::vector<GameRecord> games;
    for (SkipSpace(); !AtEnd(); SkipSpace()) {
      if (Peek() != '(') {
        return Error(absl::StrCat("unexpected '", text_.substr(pos_, 1),
                                  "': expected '(' to start a game tree"));
      }
      GameRecord record;
      if (absl::Status s = ReadGameTree(record); !s.ok()) return s;
      games.push_back(std::move(record));
    }
    if (games.empty()) return Error("no game tree: expected '(;'");
    return games;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  void Advance() {
    if (text_[pos_++] == '\n') ++line_;
  }
  void SkipSpace() {
    while (!AtEnd() && absl::ascii_isspace(Peek())) Advance();
  }
  absl::Status Error(absl::string_view what) const {
    return LineError(line_, absl::StrCat("SGF: ", what));
  }

  // At '('. Follows the first child at every branch; once the main line
  // has ended (its first ')'), sibling variations are skipped.
  absl::Status ReadGameTree(GameRecord& record) {
    record.line = line_;
    Advance();
    int depth = 1;
    bool main_line = true;
    while (true) {
      SkipSpace();
      if (AtEnd()) return Error("unexpected end: a game tree is not closed");
      const char c = Peek();
      if (c == ';' && main_line) {
        Advance();
        if (absl::Status s = ReadNode(record); !s.ok()) return s;
      } else if (c == '(' && main_line) {
        Advance();
        ++depth;
      } else if (c == '(') {
        if (absl::Status s = SkipTree(); !s.ok()) return s;
      } else if (c == ')') {
        Advance();
        main_line = false;
        if (--depth == 0) return absl::OkStatus();
      } else {
        return Error(absl::StrCat("unexpected '", text_.substr(pos_, 1),
                                  "': expected ';', '(' or ')'"));
      }
    }
  }

  absl::Status SkipTree() {
    int depth = 0;
    while (!AtEnd()) {
      const char c = Peek();
      if (c == '[') {
        absl::StatusOr<std::string> value = ReadValue();
        if (!value.ok()) return value.status();
        continue;
      }
      Advance();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return absl::OkStatus();
    }
    return Error("unexpected end: a variation is not closed");
  }

  // Properties up to the next ';', '(' or ')'.
  absl::Status ReadNode(GameRecord& record) {
    for (SkipSpace(); !AtEnd() && absl::ascii_isalpha(Peek()); SkipSpace()) {
      std::string name;  // FF[3] allowed lower case inside names: dropped
      for (; !AtEnd() && absl::ascii_isalpha(Peek()); Advance()) {
        if (absl::ascii_isupper(Peek())) name += Peek();
      }
      std::vector<std::string> values;
      for (SkipSpace(); !AtEnd() && Peek() == '['; SkipSpace()) {
        absl::StatusOr<std::string> value = ReadValue();
        if (!value.ok()) return value.status();
        values.push_back(std::move(*value));
      }
      if (values.empty()) {
        return Error(absl::StrCat("property ", name, " has no value"));
      }
      if (absl::Status s = Apply(name, values, record); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // At '['; handles '\' escapes.
  absl::StatusOr<std::string> ReadValue() {
    const int start_line = line_;
    Advance();
    std::string value;
    while (!AtEnd()) {
      char c = Peek();
      Advance();
      if (c == ']') return value;
      if (c == '\\') {
        if (AtEnd()) break;
        c = Peek();
        Advance();
      }
      value += c;
    }
    return LineError(start_line, "SGF: a property value '[' is not closed");
  }

  absl::Status Apply(const std::string& name,
                     const std::vector<std::string>& values,
                     GameRecord& record) {
    const std::string& value = values[0];
    if (name == "GM" && value != "4") {
      return Error(absl::StrCat("GM[", value,
                                "] is not gomoku or renju: expected GM[4]"));
    }
    if (name == "SZ") return ApplySize(value, record);
    if (name == "RU") record.variant = VariantFromRuleName(value);
    if (name == "RE") return ApplyResult(value, record);
    if (name == "B" || name == "W") return ApplyMove(name, values, record);
    if (name == "AB" || name == "AW" || name == "AE") {
      return Error(absl::StrCat("setup stones (", name,
                                ") are not supported: a record must be a "
                                "sequence of moves from the empty board"));
    }
    return absl::OkStatus();
  }

  absl::Status ApplySize(const std::string& value, GameRecord& record) {
    std::pair<absl::string_view, absl::string_view> wh =
        absl::StrSplit(value, absl::MaxSplits(':', 1));
    int size = 0;
    int height = 0;
    if (wh.second.empty()) wh.second = wh.first;
    if (!absl::SimpleAtoi(wh.first, &size) ||
        !absl::SimpleAtoi(wh.second, &height) || size != height ||
        size < kMinBoardSize || size > kMaxBoardSize) {
      return Error(absl::StrCat("SZ[", value, "]: expected a square board of ",
                                kMinBoardSize, "..", kMaxBoardSize));
    }
    if (!record.moves.empty()) {
      return Error("SZ comes after the first move");
    }
    record.size = size;
    return absl::OkStatus();
  }

  absl::Status ApplyResult(const std::string& value, GameRecord& record) {
    const std::string lower = absl::AsciiStrToLower(value);
    if (absl::StartsWith(lower, "b+")) {
      record.result = GameResult::kBlackWin;
    } else if (absl::StartsWith(lower, "w+")) {
      record.result = GameResult::kWhiteWin;
    } else if (lower == "0" || lower == "draw" || lower == "d") {
      record.result = GameResult::kDraw;
    } else if (lower.empty() || lower == "?" || lower == "void") {
      record.result.reset();
    } else {
      return Error(absl::StrCat(
          "RE[", value, "]: expected B+..., W+..., 0, Draw, Void or ?"));
    }
    return absl::OkStatus();
  }

  absl::Status ApplyMove(const std::string& name,
                         const std::vector<std::string>& values,
                         GameRecord& record) {
    const int number = static_cast<int>(record.moves.size()) + 1;
    const bool black_to_move = number % 2 == 1;
    if ((name == "B") != black_to_move || values.size() != 1) {
      return Error(absl::StrCat("move ", number, " is ", name, "[", values[0],
                                "] but ", black_to_move ? "black" : "white",
                                " is to move (one move per node, black first, "
                                "alternating)"));
    }
    const std::string& v = values[0];
    const int size = record.size;
    if (v.empty() || (v == "tt" && size <= 19)) {
      record.moves.push_back(Move::Pass());
      return absl::OkStatus();
    }
    const auto in_range = [size](char c) { return c >= 'a' && c < 'a' + size; };
    if (v.size() != 2 || !in_range(v[0]) || !in_range(v[1])) {
      return Error(absl::StrCat("move ", number, ": bad point ", name, "[", v,
                                "]: expected two letters a..",
                                std::string(1, 'a' + size - 1),
                                " (column, then row from the top) on the ",
                                size, "x", size, " board"));
    }
    record.moves.push_back(
        Move::At(Point(v[0] - 'a', size - 1 - (v[1] - 'a'))));
    return absl::OkStatus();
  }

  absl::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

absl::StatusOr<Move> ParseRecordMove(absl::string_view token) {
  if (token == "--" || absl::EqualsIgnoreCase(token, "pass")) {
    return Move::Pass();
  }
  int row = 0;
  const bool well_formed =
      token.size() >= 2 && token.size() <= 3 && absl::ascii_isalpha(token[0]) &&
      token[1] != '0' && absl::SimpleAtoi(token.substr(1), &row) &&
      absl::ascii_isdigit(token.back()) && absl::ascii_isdigit(token[1]);
  if (!well_formed) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad move '", token,
                     "': expected a column letter and a row number, like h8, "
                     "or pass"));
  }
  return Move::At(Point(absl::ascii_tolower(token[0]) - 'a', row - 1));
}

absl::StatusOr<std::optional<GameResult>> ParseRecordedResult(
    absl::string_view text) {
  if (absl::EqualsIgnoreCase(text, "unknown")) {
    return std::optional<GameResult>();
  }
  absl::StatusOr<GameResult> result = ParseGameResult(text);
  if (!result.ok() || *result == GameResult::kOngoing) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown result '", text, "': expected black, white, draw or unknown"));
  }
  return std::optional<GameResult>(*result);
}

std::optional<Variant> VariantFromRuleName(absl::string_view name) {
  const std::string lower =
      absl::AsciiStrToLower(absl::StripAsciiWhitespace(name));
  if (lower == "4" || absl::StrContains(lower, "renju")) return Variant::kRenju;
  for (absl::string_view opening_rule :
       {"rif", "yamaguchi", "taraguchi", "soosyrv", "sakata", "tarannikov"}) {
    if (absl::StartsWith(lower, opening_rule)) return Variant::kRenju;
  }
  if (lower == "0" || lower == "freestyle") return Variant::kFreestyle;
  if (lower == "1" || lower == "standard" ||
      absl::StrContains(lower, "gomoku")) {
    return Variant::kStandard;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<GameRecord>> ReadMoveLists(absl::string_view text) {
  std::vector<GameRecord> games;
  int line_number = 0;
  for (absl::string_view line : Lines(text)) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<absl::string_view> tokens =
        absl::StrSplit(line, absl::ByAnyChar(" \t,;"), absl::SkipEmpty());
    if (tokens.empty()) continue;  // separators only
    GameRecord record;
    record.line = line_number;
    size_t first = 0;
    if (IsResultWord(tokens[0])) {
      record.result = *ParseRecordedResult(tokens[0]);
      first = 1;
    }
    for (size_t i = first; i < tokens.size(); ++i) {
      absl::StatusOr<Move> move = ParseRecordMove(tokens[i]);
      if (!move.ok()) {
        return LineError(line_number, absl::StrCat("move ", i - first + 1, ": ",
                                                   move.status().message()));
      }
      record.moves.push_back(*move);
    }
    games.push_back(std::move(record));
  }
  return games;
}

absl::StatusOr<std::string> WriteMoveList(const GameRecord& record) {
  if (record.size != kRenjuBoardSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("a move list is read as 15x15; this game is on ",
                     record.size, "x", record.size));
  }
  std::vector<std::string> tokens;
  if (record.result.has_value() && *record.result != GameResult::kOngoing) {
    tokens.emplace_back(GameResultName(*record.result));
  }
  for (Move m : record.moves) tokens.push_back(MoveName(m));
  // An empty line is no game to ReadMoveLists; "unknown" is a game of no
  // moves.
  if (tokens.empty()) tokens.emplace_back("unknown");
  return absl::StrCat(absl::StrJoin(tokens, " "), "\n");
}

absl::StatusOr<GameRecord> ReadPsq(absl::string_view text) {
  const std::vector<absl::string_view> lines = Lines(text);
  absl::StatusOr<int> size = ParsePsqSize(absl::StripAsciiWhitespace(lines[0]));
  if (!size.ok()) return size.status();
  GameRecord record;
  record.size = *size;
  record.line = 1;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::optional<std::pair<int, int>> xy = ParsePsqMoveLine(lines[i]);
    if (!xy.has_value()) break;
    const auto [x, y] = *xy;
    if (x < 1 || y < 1 || x > *size || y > *size) {
      return LineError(
          i + 1, absl::StrCat("psq move ", record.moves.size() + 1, " (", x,
                              ",", y, ") is off the ", *size, "x", *size,
                              " board (psq coordinates run 1..", *size, ")"));
    }
    record.moves.push_back(Move::At(Point(x - 1, *size - y)));
  }
  return record;
}

absl::StatusOr<std::string> WritePsq(const GameRecord& record) {
  const int size = record.size;
  std::string out = absl::StrCat("Piskvorky ", size, "x", size, ", 0:0, 0\n");
  for (size_t i = 0; i < record.moves.size(); ++i) {
    absl::StatusOr<Point> p =
        WritablePoint(record.moves[i], i + 1, size, "psq");
    if (!p.ok()) return p.status();
    absl::StrAppend(&out, p->x + 1, ",", size - p->y, ",0\n");
  }
  out += "0\n";
  return out;
}

absl::StatusOr<std::vector<GameRecord>> ReadSgf(absl::string_view text) {
  return SgfReader(text).ReadCollection();
}

absl::StatusOr<std::string> WriteSgf(const GameRecord& record) {
  const int size = record.size;
  std::string out = absl::StrCat("(;FF[4]GM[4]CA[UTF-8]SZ[", size, "]");
  if (record.variant.has_value()) {
    absl::StrAppend(&out, "RU[", VariantName(*record.variant), "]");
  }
  if (record.result.has_value() && *record.result != GameResult::kOngoing) {
    absl::StrAppend(&out, "RE[",
                    *record.result == GameResult::kBlackWin   ? "B+"
                    : *record.result == GameResult::kWhiteWin ? "W+"
                                                              : "0",
                    "]");
  }
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const Move m = record.moves[i];
    absl::StrAppend(&out, ";", i % 2 == 0 ? "B[" : "W[");
    if (!m.is_pass()) {
      absl::StatusOr<Point> p = WritablePoint(m, i + 1, size, "SGF");
      if (!p.ok()) return p.status();
      out += static_cast<char>('a' + p->x);
      out += static_cast<char>('a' + (size - 1 - p->y));
    }
    out += "]";
  }
  out += ")\n";
  return out;
}

absl::string_view IllegalReasonName(IllegalReason r) {
  switch (r) {
    case IllegalReason::kOffBoard:
      return "off the board";
    case IllegalReason::kOccupied:
      return "occupied";
    case IllegalReason::kAfterEnd:
      return "after the end";
  }
  return "?";
}

namespace {

// True when the rules' verdict is the no-five draw rather than the game's
// own state (see ReplayedGame::result).
bool DrawnForWantOfAFive(const Game& game) {
  if (game.no_five_ply() == 0) return false;
  return !(game.over() && game.no_five_ply() == game.ply());
}

}  // namespace

GameResult ReplayedGame::result() const {
  return DrawnForWantOfAFive(game) ? GameResult::kDraw : game.result();
}

EndReason ReplayedGame::end_reason() const {
  return DrawnForWantOfAFive(game) ? EndReason::kNoFivePossible
                                   : game.end_reason();
}

absl::StatusOr<ReplayedGame> ReplayRecord(const GameRecord& record,
                                          Variant variant) {
  absl::StatusOr<Game> game = Game::Create(variant, record.size);
  if (!game.ok()) return game.status();
  ReplayedGame out{std::move(*game), std::nullopt, std::nullopt};
  if (record.opening_rule.has_value()) {
    absl::StatusOr<OpeningState> opening =
        CheckOpeningRecord(*record.opening_rule, record.opening_actions,
                           record.moves, variant, record.size);
    if (!opening.ok())
      out.illegal_opening = std::string(opening.status().message());
  }
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const Move m = record.moves[i];
    if (std::optional<IllegalReason> why = WhyIllegal(out.game, m)) {
      out.illegal = IllegalMove{static_cast<int>(i) + 1, m, *why};
      break;
    }
    const absl::Status played = out.game.Play(m, ForbiddenMovePolicy::kForgiven,
                                              NoFivePolicy::kPlaysOn);
    // WhyIllegal covers every reason Game::CheckMove has.
    RENJU_CHECK(played.ok()) << played.message();
  }
  return out;
}

}  // namespace renju
