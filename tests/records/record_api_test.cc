// The board page's record files read and written by the server
// (records/record_api.h): each format the page can open, each it can save
// read back through the readers, opening actions kept in .jsonl, and bad
// bodies.
#include "records/record_api.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "records/game_jsonl.h"
#include "records/rif.h"

namespace renju {
namespace {

using Json = nlohmann::json;

Json Games(const std::string& name, const std::string& text) {
  const RecordsAnswer answer =
      RecordsJson(Json({{"name", name}, {"text", text}}).dump());
  EXPECT_EQ(answer.status, 200) << answer.json;
  return Json::parse(answer.json.dump());
}

TEST(RecordApiTest, ReadsEachFormatThePageOpens) {
  // .psq rows count from the top: 8,8 is h8, 9,7 is i9.
  Json psq = Games("game.psq", "Piskvorky 15x15, 11:11, 0\n8,8\n9,7\n-1\n");
  EXPECT_EQ(psq["format"], "psq");
  ASSERT_EQ(psq["games"].size(), 1u);
  EXPECT_EQ(psq["games"][0]["moves"], "h8 i9");
  EXPECT_TRUE(psq["games"][0]["rule"].is_null());
  EXPECT_EQ(psq["games"][0]["size"], 15);

  Json sgf =
      Games("game.sgf", "(;FF[4]GM[4]SZ[15]RU[renju]RE[B+];B[hh];W[ig])");
  EXPECT_EQ(sgf["format"], "sgf");
  EXPECT_EQ(sgf["games"][0]["moves"], "h8 i9");
  EXPECT_EQ(sgf["games"][0]["rule"], "renju");
  EXPECT_EQ(sgf["games"][0]["result"], "black");

  Json rif = Games("db.rif",
                   "<database><games><game id=\"1\" bresult=\"0\">"
                   "<move>h8 i9 j10</move></game><game id=\"2\">"
                   "<move>h8</move></game></games></database>");
  EXPECT_EQ(rif["format"], "rif");
  ASSERT_EQ(rif["games"].size(), 2u);
  EXPECT_EQ(rif["games"][0]["moves"], "h8 i9 j10");
  EXPECT_EQ(rif["games"][0]["result"], "white");

  // No name: the text says what it is; a plain move list by default.
  EXPECT_EQ(Games("", "Piskvorky 15x15, 11:11, 0\n8,8\n")["format"], "psq");
  Json moves = Games("saved.txt", "g8 a1 h8\n");
  EXPECT_EQ(moves["format"], "moves");
  EXPECT_EQ(moves["games"][0]["moves"], "g8 a1 h8");
}

TEST(RecordApiTest, BadBodiesAre400NamingTheField) {
  struct Case {
    std::string body;
    const char* field;
    const char* reason;
  };
  for (const Case& c : std::vector<Case>{
           {"{", "", "malformed JSON"},
           {R"({"text": 1e999})", "", "a number in the body is out of range"},
           {"[]", "", "JSON object"},
           {R"({"name": "a.psq"})", "text", "missing"},
           {R"({"text": "h8", "format": "psq"})", "format", "unknown field"},
           {R"({"text": 5})", "text", "expected a string"},
           {R"({"name": "a.psq", "text": "Piskvorky 15x15\n99,1\n"})", "text",
            "a.psq: "},
           {R"j({"name": "a.sgf", "text": "(;GM[1])"})j", "text", "a.sgf: "},
           {R"({"name": "a.txt", "text": "  \n"})", "text", "no game"},
       }) {
    const RecordsAnswer answer = RecordsJson(c.body);
    EXPECT_EQ(answer.status, 400) << c.body;
    EXPECT_EQ(answer.json["field"], c.field) << c.body << " " << answer.json;
    EXPECT_NE(answer.json["error"].get<std::string>().find(c.reason),
              std::string::npos)
        << c.reason << " not in " << answer.json;
  }
}

// A RIF opening (h8 h9 j10, swap, i10, offer g7 j7, j7 kept), then white
// k8; the stones are the game's first five moves.
const std::vector<std::string> kRifActions = {
    "Place(h8)",  "Place(h9)",         "Place(j10)",     "Swap",
    "Place(i10)", "OfferFifth(g7 j7)", "ChooseFifth(j7)"};
constexpr char kRifMoves[] = "h8 h9 j10 i10 j7 k8";

// A 200 answer to a save body.
Json Saved(const Json& body) {
  const RecordsAnswer answer = SaveRecordJson(body.dump());
  EXPECT_EQ(answer.status, 200) << body << " -> " << answer.json;
  return Json::parse(answer.json.dump());
}

// The one game the saved answer's text reads back as, through /api/records
// (records/record_text.h's readers, chosen by the saved name's extension).
Json ReadBack(const Json& saved) {
  const Json games = Games(saved["name"], saved["text"]);
  EXPECT_EQ(games["format"], saved["format"]);
  EXPECT_EQ(games["games"].size(), 1u) << saved;
  return games["games"][0];
}

TEST(RecordApiTest, SavesEachFormatAndReadsItBack) {
  const std::string moves = "h8 h9 i10 g8 j11 k12 i9 i8 j10 k11 j9";
  struct Case {
    const char* format;
    const char* name;
    bool keeps_rule;
    bool keeps_result;
  };
  for (const Case& c : std::vector<Case>{
           {"moves", "renju-game.txt", false, true},
           {"psq", "renju-game.psq", false, false},
           {"sgf", "renju-game.sgf", true, true},
           {"rif", "renju-game.rif", true, true},
           {"jsonl", "renju-game.jsonl", true, true},
       }) {
    SCOPED_TRACE(c.format);
    const Json saved = Saved({{"format", c.format},
                              {"moves", moves},
                              {"rule", "standard"},
                              {"result", "white"}});
    EXPECT_EQ(saved["name"], c.name);
    Json dropped = Json::array();
    if (!c.keeps_rule) dropped.push_back("rule");
    if (!c.keeps_result) dropped.push_back("result");
    EXPECT_EQ(saved["dropped"], dropped);
    const Json game = ReadBack(saved);
    EXPECT_EQ(game["moves"], moves);
    EXPECT_EQ(game["size"], 15);
    EXPECT_EQ(game["rule"], c.keeps_rule ? Json("standard") : Json());
    EXPECT_EQ(game["result"], c.keeps_result ? Json("white") : Json());
  }
  // The readers the formats have beyond /api/records: RenjuNet's tables and
  // one JSON object per line.
  absl::StatusOr<std::vector<RifGame>> rif = ReadRif(
      Saved({{"format", "rif"}, {"moves", "h8 i9"}, {"result", "draw"}})["text"]
          .get<std::string>());
  ASSERT_TRUE(rif.ok()) << rif.status();
  ASSERT_EQ(rif->size(), 1u);
  EXPECT_EQ((*rif)[0].rule, "renju");
  EXPECT_EQ((*rif)[0].record.variant, Variant::kRenju);
  EXPECT_EQ((*rif)[0].record.result, GameResult::kDraw);
  EXPECT_EQ((*rif)[0].record.moves.size(), 2u);
  const std::string line =
      Saved({{"format", "jsonl"}, {"moves", "h8 pass i9"}})["text"];
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);  // one line
  absl::StatusOr<GameRecord> record = GameFromJson(Json::parse(line));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->moves.size(), 3u);
  EXPECT_TRUE(record->moves[1].is_pass());
  EXPECT_FALSE(record->result.has_value());
}

TEST(RecordApiTest, SavesPassesWhereTheFormatHasThemAndOtherBoardSizes) {
  for (const char* format : {"moves", "sgf", "jsonl"}) {
    SCOPED_TRACE(format);
    EXPECT_EQ(
        ReadBack(Saved({{"format", format}, {"moves", "h8 pass i9"}}))["moves"],
        "h8 pass i9");
  }
  // An empty board is a game of no moves, not an empty file.
  for (const char* format : {"moves", "psq", "sgf", "rif", "jsonl"}) {
    SCOPED_TRACE(format);
    EXPECT_EQ(ReadBack(Saved({{"format", format}, {"moves", ""}}))["moves"],
              "");
  }
  // .psq, SGF and JSON Lines state the size.
  for (const char* format : {"psq", "sgf", "jsonl"}) {
    SCOPED_TRACE(format);
    const Json game = ReadBack(Saved({{"format", format},
                                      {"moves", "a1 m13 g7"},
                                      {"rule", "freestyle"},
                                      {"size", 13}}));
    EXPECT_EQ(game["size"], 13);
    EXPECT_EQ(game["moves"], "a1 m13 g7");
  }
}

TEST(RecordApiTest, OpeningActionsRoundTripInJsonLines) {
  const Json saved = Saved({{"format", "jsonl"},
                            {"moves", kRifMoves},
                            {"rule", "renju"},
                            {"result", "white"},
                            {"opening_rule", "rif"},
                            {"opening_actions", kRifActions}});
  EXPECT_EQ(saved["dropped"], Json::array());
  const Json game = ReadBack(saved);
  EXPECT_EQ(game["moves"], kRifMoves);
  EXPECT_EQ(game["opening_rule"], "rif");
  EXPECT_EQ(game["opening_actions"], Json(kRifActions));
  EXPECT_EQ(game["result"], "white");

  // The actions as one string, as /api/position takes them, save the same.
  std::string actions;
  for (const std::string& a : kRifActions) actions += a + " ";
  EXPECT_EQ(Saved({{"format", "jsonl"},
                   {"moves", kRifMoves},
                   {"rule", "renju"},
                   {"result", "white"},
                   {"opening_rule", "rif"},
                   {"opening_actions", actions}})["text"],
            saved["text"]);

  // An opening in progress saves to be taken up later: its stones only.
  const std::vector<std::string> begun(kRifActions.begin(),
                                       kRifActions.begin() + 4);
  const Json in_progress = ReadBack(Saved({{"format", "jsonl"},
                                           {"moves", "h8 h9 j10"},
                                           {"opening_rule", "rif"},
                                           {"opening_actions", begun}}));
  EXPECT_EQ(in_progress["opening_actions"], Json(begun));

  // The other formats keep the moves and say what they left out.
  for (const char* format : {"moves", "psq", "sgf", "rif"}) {
    SCOPED_TRACE(format);
    const Json other = Saved({{"format", format},
                              {"moves", kRifMoves},
                              {"opening_rule", "rif"},
                              {"opening_actions", kRifActions}});
    EXPECT_EQ(other["dropped"], Json({"opening_rule", "opening_actions"}));
    const Json game = ReadBack(other);
    EXPECT_EQ(game["moves"], kRifMoves);
    EXPECT_TRUE(game["opening_rule"].is_null());
    EXPECT_EQ(game["opening_actions"], Json::array());
  }
  // Null opening fields, as /api/records answers a record without them.
  EXPECT_EQ(Saved({{"format", "jsonl"},
                   {"moves", "h8"},
                   {"opening_rule", nullptr},
                   {"opening_actions", nullptr}})["text"],
            "{\"moves\":[\"h8\"],\"rule\":\"renju\",\"size\":15}\n");
}

TEST(RecordApiTest, BadSaveBodiesAre400NamingTheField) {
  struct Case {
    Json body;
    const char* field;
    const char* reason;
  };
  const Json rif_opening = {{"format", "jsonl"},
                            {"opening_rule", "rif"},
                            {"opening_actions", kRifActions}};
  auto with = [](Json body, const char* key, Json value) {
    body[key] = std::move(value);
    return body;
  };
  for (const Case& c : std::vector<Case>{
           {Json(), "", "JSON object"},
           {{{"moves", "h8"}}, "format", "missing; expected one of moves, psq"},
           {{{"format", "png"}}, "format", "unknown format \"png\""},
           {{{"format", 5}}, "format", "expected a string"},
           {{{"format", "psq"}, {"name", "a.psq"}}, "name", "unknown field"},
           {{{"format", "psq"}, {"moves", "h8 z99"}}, "moves", "z99"},
           {{{"format", "psq"}, {"moves", "h8 h8"}},
            "moves",
            "move 2 (h8) is occupied"},
           {{{"format", "psq"}, {"moves", "h8 a1 h9 a2 h10 a3 h11 a4 h12 a5"}},
            "moves",
            "move 10 (a5) is after the end"},
           {{{"format", "psq"}, {"moves", 5}}, "moves", "expected a string"},
           {{{"format", "psq"}, {"rule", "go"}}, "rule", "go"},
           {{{"format", "psq"}, {"result", "ongoing"}},
            "result",
            "unknown result"},
           {{{"format", "psq"}, {"result", 1}}, "result", "expected a string"},
           {{{"format", "psq"}, {"size", 30}}, "size", "board size in 5..20"},
           {{{"format", "psq"}, {"size", 13}}, "size", "15"},
           {{{"format", "psq"}, {"opening_actions", {"Place(h8)"}}},
            "opening_actions",
            "need an \"opening_rule\""},
           {with(rif_opening, "opening_rule", "chess"), "opening_rule",
            "chess"},
           {with(with(rif_opening, "rule", "freestyle"), "size", 13),
            "opening_rule", "15"},
           {with(rif_opening, "opening_actions", "Place(h8) Jump"),
            "opening_actions", "Jump"},
           {with(rif_opening, "opening_actions", {"Place(h8)", 3}),
            "opening_actions", "entry 2 is not a string"},
           {with(rif_opening, "opening_actions", {"Place(h8)", "Swap"}),
            "opening_actions", "opening action 2 of 2 (Swap)"},
           {with(rif_opening, "moves", "h8 h9 j10 i10 g7"), "moves",
            "move 5 is g7 but the opening actions placed j7"},
           {with(with(rif_opening, "opening_actions",
                      {"Place(h8)", "Place(h9)"}),
                 "moves", "h8 h9 j10"),
            "moves", "move 3 comes before the opening is over"},
           {{{"format", "psq"}, {"moves", "h8 pass"}},
            "format",
            ".psq cannot hold this game: move 2 is a pass"},
           {{{"format", "rif"}, {"moves", "h8 pass"}},
            "format",
            ".rif cannot hold this game: move 2 is a pass"},
           {{{"format", "rif"}, {"rule", "freestyle"}, {"size", 13}},
            "format",
            "15x15"},
           {{{"format", "moves"}, {"rule", "freestyle"}, {"size", 13}},
            "format",
            "a move list cannot hold this game"},
       }) {
    const RecordsAnswer answer = SaveRecordJson(c.body.dump());
    EXPECT_EQ(answer.status, 400) << c.body;
    EXPECT_EQ(answer.json["field"], c.field) << c.body << " " << answer.json;
    EXPECT_NE(answer.json["error"].get<std::string>().find(c.reason),
              std::string::npos)
        << c.reason << " not in " << answer.json;
  }
  EXPECT_EQ(SaveRecordJson("{\"format\":").json["field"], "");
  EXPECT_EQ(SaveRecordJson(R"({"size": 1e999})").json["field"], "");
}

}  // namespace
}  // namespace renju
