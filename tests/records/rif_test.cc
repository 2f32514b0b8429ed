// The RenjuNet .rif reader on a hand-written database (tests/data/sample.rif)
// and on malformed XML, with the exact error text.
#include "records/rif.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace renju {
namespace {

std::string ReadSample() {
  std::ifstream file(std::string(RENJU_SOURCE_DIR) + "/tests/data/sample.rif");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<Move> Moves(const std::string& text) {
  absl::StatusOr<std::vector<Move>> moves = ParseMoveList(text, 15);
  EXPECT_TRUE(moves.ok()) << moves.status();
  return moves.ok() ? *moves : std::vector<Move>{};
}

std::string ErrorOf(const absl::string_view xml) {
  absl::StatusOr<std::vector<RifGame>> games = ReadRif(xml);
  return games.ok() ? "(ok)" : std::string(games.status().message());
}

TEST(RifTest, ReadsGamesResultsPlayersRulesAndOpenings) {
  const std::string xml = ReadSample();
  ASSERT_FALSE(xml.empty());
  absl::StatusOr<std::vector<RifGame>> games = ReadRif(xml);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 3u);

  const RifGame& first = (*games)[0];
  EXPECT_EQ(first.id, "123");
  EXPECT_EQ(first.black, "Ann Lee");
  EXPECT_EQ(first.white, "Bo Kim");
  EXPECT_EQ(first.tournament, "Spring Cup");
  EXPECT_EQ(first.rule, "RIF");  // from the tournament
  EXPECT_EQ(first.opening, "Kagetsu");
  EXPECT_EQ(first.alt, "2");
  EXPECT_EQ(first.swap, "1");
  EXPECT_EQ(first.record.line, 20);
  EXPECT_EQ(first.record.size, 15);
  EXPECT_EQ(first.record.variant, Variant::kRenju);
  EXPECT_EQ(first.record.result, GameResult::kBlackWin);
  EXPECT_EQ(first.record.moves, Moves("h8 h9 i9 g10 g7 f10 f6 e10 j10"));
  // Rows count from the bottom: i9 is one up and right of the centre.
  EXPECT_EQ(first.record.moves[2].point(), Point(8, 8));

  const RifGame& second = (*games)[1];
  EXPECT_EQ(second.rule, "Gomoku");  // the game's own rule wins
  EXPECT_EQ(second.record.variant, Variant::kStandard);
  EXPECT_EQ(second.record.result, GameResult::kWhiteWin);
  EXPECT_EQ(second.opening, "");
  EXPECT_EQ(second.record.moves, Moves("h8 i9 j10 h10 g9 i11"));

  const RifGame& third = (*games)[2];
  EXPECT_EQ(third.white, "99");  // not in the players table
  EXPECT_EQ(third.tournament, "");
  EXPECT_EQ(third.rule, "");
  EXPECT_FALSE(third.record.variant.has_value());
  EXPECT_EQ(third.record.result, GameResult::kDraw);
  EXPECT_EQ(third.record.moves, Moves("h8 i9 h10"));
}

TEST(RifTest, MissingResultAndMovesAreEmpty) {
  absl::StatusOr<std::vector<RifGame>> games =
      ReadRif("<database><games><game id=\"1\"/></games></database>");
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_FALSE((*games)[0].record.result.has_value());
  EXPECT_TRUE((*games)[0].record.moves.empty());
}

TEST(RifTest, MalformedInputErrors) {
  EXPECT_EQ(ErrorOf(""), "line 1: XML: No document element found");
  EXPECT_EQ(ErrorOf("<database>\n<games>\n</database>"),
            "line 3: XML: Start-end tags mismatch");
  EXPECT_EQ(ErrorOf("<database><players/></database>"),
            "line 1: no <games> element: not a RenjuNet .rif database");
  EXPECT_EQ(ErrorOf("<database><games>\n<game/>\n<game id=\"8\" "
                    "bresult=\"2\"/></games></database>"),
            "line 3: game 2 (id 8): bresult '2': expected 1 (black won), 0 "
            "(white won) or 0.5 (draw)");
  EXPECT_EQ(ErrorOf("<games>\n<game><move>h8 zz</move></game></games>"),
            "line 2: game 1: move 2: bad move 'zz': expected a column letter "
            "and a row number, like h8, or pass");
}

}  // namespace
}  // namespace renju
