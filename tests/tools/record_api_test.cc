// The board page's record files read by the server (tools/record_api.h):
// each format the page can open, and bad bodies.
#include "tools/record_api.h"

#include <string>

#include "gtest/gtest.h"

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

  Json sgf = Games("game.sgf", "(;FF[4]GM[4]SZ[15]RU[renju]RE[B+];B[hh];W[ig])");
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

}  // namespace
}  // namespace renju
