#include "records/rif.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace renju {
namespace {

using IdNames = std::map<std::string, std::string>;

// Maps a byte offset of the text to its 1-based line.
class LineIndex {
 public:
  explicit LineIndex(absl::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(static_cast<ptrdiff_t>(i));
    }
  }
  int LineOf(ptrdiff_t offset) const {
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(),
                                                 newlines_.end(), offset) -
                                newlines_.begin());
  }

 private:
  std::vector<ptrdiff_t> newlines_;
};

std::string PlayerName(const pugi::xml_node& player) {
  return std::string(absl::StripAsciiWhitespace(
      absl::StrCat(player.attribute("name").value(), " ",
                   player.attribute("surname").value())));
}

std::string PlainName(const pugi::xml_node& node) {
  return node.attribute("name").value();
}

// <table><entry id=".." .../></table> as id -> name.
IdNames ReadTable(const pugi::xml_node& root, const char* table,
                  const char* entry,
                  std::string (*name_of)(const pugi::xml_node&)) {
  IdNames names;
  for (const pugi::xml_node& node : root.child(table).children(entry)) {
    const std::string name = name_of(node);
    if (!name.empty()) names[node.attribute("id").value()] = name;
  }
  return names;
}

std::string Resolve(const IdNames& names, const std::string& id) {
  const auto it = names.find(id);
  return it == names.end() ? id : it->second;
}

absl::StatusOr<std::optional<GameResult>> ParseBresult(absl::string_view text) {
  if (text.empty()) return std::optional<GameResult>();
  if (text == "1") return std::optional<GameResult>(GameResult::kBlackWin);
  if (text == "0") return std::optional<GameResult>(GameResult::kWhiteWin);
  if (text == "0.5") return std::optional<GameResult>(GameResult::kDraw);
  return absl::InvalidArgumentError(
      absl::StrCat("bresult '", text,
                   "': expected 1 (black won), 0 (white won) or 0.5 (draw)"));
}

struct Tables {
  IdNames players, tournaments, rules, openings;
  IdNames tournament_rules;  // tournament id -> rule id
};

absl::StatusOr<RifGame> ReadGame(const pugi::xml_node& node,
                                 const Tables& tables) {
  RifGame game;
  game.id = node.attribute("id").value();
  game.black = Resolve(tables.players, node.attribute("black").value());
  game.white = Resolve(tables.players, node.attribute("white").value());
  const std::string tournament = node.attribute("tournament").value();
  game.tournament = Resolve(tables.tournaments, tournament);
  std::string rule_id = node.attribute("rule").value();
  if (const auto it = tables.tournament_rules.find(tournament);
      rule_id.empty() && it != tables.tournament_rules.end()) {
    rule_id = it->second;
  }
  game.rule = Resolve(tables.rules, rule_id);
  if (tables.rules.count(rule_id) > 0) {
    game.record.variant = VariantFromRuleName(game.rule);
  }
  game.opening = Resolve(tables.openings, node.attribute("opening").value());
  game.alt = node.attribute("alt").value();
  game.swap = node.attribute("swap").value();

  absl::StatusOr<std::optional<GameResult>> result =
      ParseBresult(node.attribute("bresult").value());
  if (!result.ok()) return result.status();
  game.record.result = *result;
  int number = 0;
  for (absl::string_view token :
       absl::StrSplit(node.child_value("move"), absl::ByAnyChar(" \t\r\n"),
                      absl::SkipEmpty())) {
    ++number;
    absl::StatusOr<Move> move = ParseRecordMove(token);
    if (!move.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", number, ": ", move.status().message()));
    }
    game.record.moves.push_back(*move);
  }
  return game;
}

}  // namespace

absl::StatusOr<std::vector<RifGame>> ReadRif(absl::string_view xml) {
  const LineIndex lines(xml);
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "line ", lines.LineOf(parsed.offset), ": XML: ", parsed.description()));
  }
  const pugi::xml_node root = doc.document_element();
  const pugi::xml_node games =
      std::string(root.name()) == "games" ? root : root.child("games");
  if (!games) {
    return absl::InvalidArgumentError(
        "line 1: no <games> element: not a RenjuNet .rif database");
  }
  Tables tables;
  tables.players = ReadTable(root, "players", "player", PlayerName);
  tables.tournaments = ReadTable(root, "tournaments", "tournament", PlainName);
  tables.rules = ReadTable(root, "rules", "rule", PlainName);
  tables.openings = ReadTable(root, "openings", "opening", PlainName);
  tables.tournament_rules =
      ReadTable(root, "tournaments", "tournament",
                [](const pugi::xml_node& t) -> std::string {
                  return t.attribute("rule").value();
                });

  std::vector<RifGame> out;
  for (const pugi::xml_node& node : games.children("game")) {
    const int line = lines.LineOf(node.offset_debug());
    absl::StatusOr<RifGame> game = ReadGame(node, tables);
    if (!game.ok()) {
      const std::string id = node.attribute("id").value();
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line, ": game ", out.size() + 1,
                       id.empty() ? "" : absl::StrCat(" (id ", id, ")"), ": ",
                       game.status().message()));
    }
    game->record.line = line;
    out.push_back(std::move(*game));
  }
  return out;
}

absl::StatusOr<std::string> WriteRif(const GameRecord& record) {
  if (record.size != kRenjuBoardSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("a .rif game is 15x15; this game is on ", record.size, "x",
                     record.size));
  }
  std::vector<std::string> moves;
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const Move m = record.moves[i];
    if (m.is_pass()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " is a pass: .rif has no passes"));
    }
    if (!m.point().OnBoard(record.size)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", i + 1, " (", MoveName(m), ") is off the 15x15 board"));
    }
    moves.push_back(MoveName(m));
  }

  pugi::xml_document doc;
  pugi::xml_node declaration = doc.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "utf-8";
  pugi::xml_node database = doc.append_child("database");
  if (record.variant.has_value()) {
    pugi::xml_node rule = database.append_child("rules").append_child("rule");
    rule.append_attribute("id") = "1";
    rule.append_attribute("name") =
        std::string(VariantName(*record.variant)).c_str();
  }
  pugi::xml_node game = database.append_child("games").append_child("game");
  game.append_attribute("id") = "1";
  if (record.variant.has_value()) game.append_attribute("rule") = "1";
  if (record.result.has_value() && *record.result != GameResult::kOngoing) {
    game.append_attribute("bresult") =
        *record.result == GameResult::kBlackWin   ? "1"
        : *record.result == GameResult::kWhiteWin ? "0"
                                                  : "0.5";
  }
  game.append_child("move").text() = absl::StrJoin(moves, " ").c_str();
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace renju
