// `renju replay`: every game of ../shared/data/renju-games.jsonl, the JSON
// Lines interface key by key, each record format, and the errors for bad
// files and flags. The first case runs the binary; the rest call the
// command in-process (run_command.h says why).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

using testing::RunCommand;
using testing::RunRenju;
using testing::SharedData;
using testing::Stderr;

using testing::Lines;

// Writes `content` to a file named `name` in the test's temporary folder.
std::string WriteTemp(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "replay_test_" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string SampleRif() {
  return std::string(RENJU_SOURCE_DIR) + "/tests/data/sample.rif";
}

TEST(ReplayCommandTest, ReplaysEverySharedGameWithoutAnIllegalMove) {
  const std::string path = SharedData("renju-games.jsonl");
  std::ifstream file(path);
  ASSERT_TRUE(file.good()) << "missing " << path;
  std::vector<nlohmann::ordered_json> inputs;
  for (std::string line; std::getline(file, line);) {
    inputs.push_back(nlohmann::ordered_json::parse(line));
  }
  ASSERT_EQ(inputs.size(), 20000u);

  // How fast is a benchmark's question (BENCHMARKS.md, "replay"), not this
  // test's.
  const testing::CommandResult result =
      RunRenju("replay --jsonl '" + path + "'");
  ASSERT_EQ(result.exit_code, 0);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), inputs.size() + 1);

  const std::vector<std::string> keys = {"game",       "moves",
                                         "result",     "recorded_result",
                                         "illegal",    "forbidden_played",
                                         "no_five_ply"};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const nlohmann::ordered_json game = nlohmann::ordered_json::parse(lines[i]);
    std::vector<std::string> got_keys;
    for (const auto& item : game.items()) got_keys.push_back(item.key());
    ASSERT_EQ(got_keys, keys) << lines[i];
    ASSERT_EQ(game["game"], i + 1);
    ASSERT_EQ(game["moves"], inputs[i]["moves"]) << lines[i];
    ASSERT_TRUE(game["illegal"].is_null()) << lines[i];
    const std::string recorded = inputs[i]["result"];
    if (recorded == "unknown") {
      ASSERT_TRUE(game["recorded_result"].is_null()) << lines[i];
    } else {
      ASSERT_EQ(game["recorded_result"], recorded) << lines[i];
    }
  }
  // The README's "black overline scored for black" (source line 76671):
  // k13 makes an overline on its column and an exact five on a diagonal,
  // so five first (RULES.md §4) makes it a black win, not a forbidden move.
  const nlohmann::json five_first = nlohmann::json::parse(lines[15207]);
  EXPECT_EQ(inputs[15207]["line"], 76671);
  EXPECT_EQ(five_first["result"], "black");
  EXPECT_EQ(five_first["recorded_result"], "black");
  EXPECT_TRUE(five_first["forbidden_played"].empty());

  // Games, moves and recorded results are the README's counts; the board
  // results match its list of games ending in a five (1,156 + 1 black,
  // 625 + 11 white). The forbidden-move counts are this replay's: every
  // flagged forbidden move is the game's last move, scored for white.
  const nlohmann::json expected = nlohmann::json::parse(R"({"summary":{
      "games":20000,"moves":614297,"illegal":0,
      "result":{"black":1157,"white":636,"draw":0,"ongoing":18207},
      "recorded_result":{"black":9861,"white":8923,"draw":0,"null":1216},
      "forbidden_games":606,"forbidden_moves":606,
      "forbidden_kinds":{"double-three":472,"double-four":116,"overline":18},
      "forbidden_last_move":{"black":0,"white":606,"draw":0,"null":0},
      "disagreements":0,"played_on_after_no_five":0}})");
  EXPECT_EQ(nlohmann::json::parse(lines.back()), expected) << lines.back();
}

// One game per line: a forgiven double-three, a disagreement, the three
// kinds of illegal move and a claimed overline.
constexpr char kMoveLists[] =
    "# replay_command_test\n"
    "h9 a1 g8 a3 i8 a5 h7 a7 h8 a9 o15\n"
    "white h8 a1 i8 a2 j8 a3 k8 a4 l8\n"
    "black h8 a1 i8 a2 j8 a3 k8 a4 l8 a5\n"
    "h8 h9 h8\n"
    "h8 p8\n"
    "white f8 a1 g8 a3 i8 a5 j8 a7 k8 a9 h8\n";

TEST(ReplayCommandTest, JsonlReportsEachGameAndTheSummary) {
  const std::string path = WriteTemp("games.txt", kMoveLists);
  const testing::CommandResult result =
      RunCommand(commands::Replay, {"--jsonl", path});
  ASSERT_EQ(result.exit_code, 0);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), 7u) << result.out;
  EXPECT_EQ(lines[0],
            R"({"game":1,"moves":["h9","a1","g8","a3","i8","a5","h7","a7",)"
            R"("h8","a9","o15"],"result":"ongoing","recorded_result":null,)"
            R"("illegal":null,"forbidden_played":[{"ply":9,"move":"h8",)"
            R"("kind":"double-three"}],"no_five_ply":null})");
  EXPECT_EQ(lines[1],
            R"({"game":2,"moves":["h8","a1","i8","a2","j8","a3","k8","a4",)"
            R"("l8"],"result":"black","recorded_result":"white",)"
            R"("illegal":null,"forbidden_played":[],"no_five_ply":null})");
  const auto illegal = [&](int i) {
    return nlohmann::json::parse(lines[i])["illegal"].dump();
  };
  EXPECT_EQ(illegal(2), R"({"move":"a5","ply":10,"reason":"after the end"})");
  EXPECT_EQ(nlohmann::json::parse(lines[2])["result"], "black");
  EXPECT_EQ(illegal(3), R"({"move":"h8","ply":3,"reason":"occupied"})");
  EXPECT_EQ(illegal(4), R"({"move":"p8","ply":2,"reason":"off the board"})");
  EXPECT_EQ(nlohmann::json::parse(lines[5])["forbidden_played"].dump(),
            R"([{"kind":"overline","move":"h8","ply":11}])");
  EXPECT_EQ(lines[6],
            R"({"summary":{"games":6,"moves":46,"illegal":3,)"
            R"("result":{"black":2,"white":0,"draw":0,"ongoing":4},)"
            R"("recorded_result":{"black":1,"white":2,"draw":0,"null":3},)"
            R"("forbidden_games":2,"forbidden_moves":2,)"
            R"("forbidden_kinds":{"double-three":1,"double-four":0,)"
            R"("overline":1},"forbidden_last_move":{"black":0,"white":1,)"
            R"("draw":0,"null":0},"disagreements":1,)"
            R"("played_on_after_no_five":0}})");
}

TEST(ReplayCommandTest, TextReportsForPeople) {
  const std::string path = WriteTemp("games_text.txt", kMoveLists);
  const testing::CommandResult result = RunCommand(commands::Replay, {path});
  ASSERT_EQ(result.exit_code, 0);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(
      lines[0],
      "game 1 (line 2, renju): 11 moves: h9 a1 g8 a3 i8 a5 h7 a7 h8 a9 o15");
  EXPECT_EQ(lines[1], "  result: ongoing; recorded: none");
  EXPECT_EQ(lines[2], "  forbidden move played: 9. h8 (double-three)");
  EXPECT_EQ(lines[3],
            "game 2 (line 3, renju): 9 moves: h8 a1 i8 a2 j8 a3 k8 a4 l8");
  EXPECT_EQ(lines[4], "  result: black by five; recorded: white");
  EXPECT_NE(result.out.find("  illegal: move 10. a5 (after the end)\n"),
            std::string::npos);
  EXPECT_NE(result.out.find("\"disagreements\":1"), std::string::npos);
}

// The research note's psq example: a diagonal five for black at move 9.
constexpr char kPsq[] =
    "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,1203\n9,9,950\n10,10,1811\n"
    "7,7,640\n10,8,702\n6,6,455\n8,10,1210\n5,5,312\npbrain-A.exe\n"
    "pbrain-B.exe\n0\n";

nlohmann::json FirstGame(commands::Argv args) {
  args.insert(args.begin(), "--jsonl");
  const testing::CommandResult result = RunCommand(commands::Replay, args);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  const std::vector<std::string> lines = Lines(result.out);
  return lines.size() < 2 ? nlohmann::json() : nlohmann::json::parse(lines[0]);
}

TEST(ReplayCommandTest, ReadsEveryFormatByExtensionOrContent) {
  nlohmann::json game = FirstGame({WriteTemp("game.psq", kPsq)});
  EXPECT_EQ(game["moves"].dump(),
            R"(["h8","i8","i7","j6","g9","j8","f10","h6","e11"])");
  EXPECT_EQ(game["result"], "black");
  EXPECT_TRUE(game["recorded_result"].is_null());
  EXPECT_EQ(FirstGame({WriteTemp("psq_no_extension", kPsq)})["result"],
            "black");

  const std::string sgf = "(;GM[4]SZ[15]RE[W+];B[hh];W[ig];B[gi];W[ii])";
  game = FirstGame({WriteTemp("game.sgf", sgf)});
  EXPECT_EQ(game["moves"].dump(), R"(["h8","i9","g7","i7"])");
  EXPECT_EQ(game["recorded_result"], "white");
  EXPECT_EQ(FirstGame({WriteTemp("sgf_no_extension", sgf)})["moves"],
            game["moves"]);

  game = FirstGame({SampleRif()});
  EXPECT_EQ(game["result"], "black");
  EXPECT_EQ(game["recorded_result"], "black");

  const std::string jsonl =
      R"({"moves":["h8","i9"],"result":"unknown","rule":"renju"})";
  game = FirstGame({WriteTemp("game.jsonl", jsonl)});
  EXPECT_EQ(game["moves"].dump(), R"(["h8","i9"])");
  EXPECT_EQ(FirstGame({WriteTemp("jsonl_no_extension", jsonl)})["moves"],
            game["moves"]);
}

// A 5x5 freestyle record filling the board in rows XXOOX / OOXXO: no five
// is possible long before the last move (RULES.md §5), but the record plays
// on. The replay plays every move and says where the game had ended.
constexpr char kPlayedOn[] =
    R"({"moves":"a1 c1 b1 d1 e1 a2 c2 b2 d2 e2 a3 c3 b3 d3 e3 a4 c4 b4 d4 )"
    R"(e4 a5 c5 b5 d5 e5","result":"draw","rule":"freestyle","size":5})"
    "\n";
// After c5 every row, column and diagonal of five holds both colours.
constexpr int kPlayedOnNoFivePly = 22;

TEST(ReplayCommandTest, SaysWhereAGameThatPlayedOnWasAlreadyDrawn) {
  const std::string path = WriteTemp("played_on.jsonl", kPlayedOn);
  const nlohmann::json game = FirstGame({path});
  EXPECT_EQ(game["result"], "draw");
  EXPECT_TRUE(game["illegal"].is_null());
  EXPECT_EQ(game["no_five_ply"], kPlayedOnNoFivePly);

  const testing::CommandResult text = RunCommand(commands::Replay, {path});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find(absl::StrCat(
                "  result: draw by no five possible; recorded: draw\n"
                "  the game was already drawn at move ",
                kPlayedOnNoFivePly,
                " (no five possible); the record plays on to move 25\n")),
            std::string::npos)
      << text.out;
  const testing::CommandResult jsonl =
      RunCommand(commands::Replay, {"--jsonl", path});
  const std::vector<std::string> lines = Lines(jsonl.out);
  ASSERT_EQ(lines.size(), 2u);
  const nlohmann::json summary = nlohmann::json::parse(lines[1])["summary"];
  EXPECT_EQ(summary["played_on_after_no_five"], 1);
  EXPECT_EQ(summary["disagreements"], 0);
}

TEST(ReplayCommandTest, RuleComesFromTheRecordUnlessOverridden) {
  // A black overline: forgiven and flagged under renju, a win in freestyle.
  const std::string overline =
      WriteTemp("overline.txt", "f8 a1 g8 a3 i8 a5 j8 a7 k8 a9 h8\n");
  EXPECT_EQ(FirstGame({overline})["result"], "ongoing");
  EXPECT_EQ(FirstGame({"--rule", "freestyle", overline})["result"], "black");
  EXPECT_EQ(FirstGame({"--rule", "standard", overline})["result"], "ongoing");
  const std::string sgf = WriteTemp(
      "overline.sgf",
      "(;GM[4]RU[freestyle];B[fh];W[ao];B[gh];W[am];B[ih];W[ak];B[jh];W[ai];"
      "B[kh];W[ag];B[hh])");
  EXPECT_EQ(FirstGame({sgf})["result"], "black");
  EXPECT_EQ(FirstGame({"--rule", "renju", sgf})["result"], "ongoing");

  // Renju is 15 x 15 only: a 20 x 20 psq needs a rule.
  const std::string psq20 =
      WriteTemp("big.psq", "Piskvorky 20x20, 0:0, 0\n1,1\n20,20\n0\n");
  const testing::CommandResult result =
      RunCommand(commands::Replay, {psq20}, Stderr::kCaptured);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "error: " + psq20 +
                            ": line 1: game 1: renju is played on 15 x 15 "
                            "only, not 20 x 20 (pass --rule)\n");
  EXPECT_EQ(FirstGame({"--rule", "freestyle", psq20})["moves"].dump(),
            R"(["a20","t1"])");
}

TEST(ReplayCommandTest, BadFilesAndFlagsNameTheProblem) {
  const auto run = [](const commands::Argv& args) {
    return RunCommand(commands::Replay, args, Stderr::kCaptured);
  };
  testing::CommandResult result = run({"/nonexistent/games.psq"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "error: cannot read /nonexistent/games.psq\n");

  const std::string moves = WriteTemp("bad_moves.txt", "h8 h9\nh8 x\n");
  result = run({moves});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "error: " + moves +
                            ": line 2: move 2: bad move 'x': expected a "
                            "column letter and a row number, like h8, or "
                            "pass\n");

  const std::string jsonl =
      WriteTemp("bad.jsonl", "{\"moves\":[\"h8\"]}\n{\"moves\":[\"h8\",7]}\n");
  result = run({jsonl});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "error: " + jsonl +
                            ": line 2: \"moves\" entry 2 is not a string: 7\n");

  const std::vector<std::pair<std::string, std::string>> jsonl_errors = {
      {"not json", "line 1: not valid JSON"},
      {"[1]", "line 1: not a JSON object"},
      {"{}", "line 1: \"moves\" is missing"},
      {"{\"moves\":5}", "line 1: \"moves\" is not a list of moves or a string"},
      {"{\"moves\":\"h8 h0\"}",
       "line 1: \"moves\" entry 2: bad move 'h0': expected a column letter "
       "and a row number, like h8, or pass"},
      {"{\"moves\":[],\"result\":\"won\"}",
       "line 1: \"result\" unknown result 'won': expected black, white, draw "
       "or unknown"},
      {"{\"moves\":[],\"result\":1}", "line 1: \"result\" is not a string"},
      {"{\"moves\":[],\"rule\":\"go\"}",
       "line 1: \"rule\" unknown rule 'go': expected renju, standard or "
       "freestyle"},
      {"{\"moves\":[],\"size\":99}",
       "line 1: \"size\" is not a board size in 5..20"},
  };
  for (const auto& [line, error] : jsonl_errors) {
    const std::string path = WriteTemp("error.jsonl", line + "\n");
    result = run({path});
    EXPECT_EQ(result.exit_code, 1) << line;
    EXPECT_EQ(result.out, "error: " + path + ": " + error + "\n") << line;
  }

  const std::string sgf = WriteTemp("bad.sgf", "(;GM[4]\n;B[hh];W[zz])");
  result = run({sgf});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "error: " + sgf +
                ": line 2: SGF: move 2: bad point W[zz]: expected two letters "
                "a..o (column, then row from the top) on the 15x15 board\n");

  EXPECT_EQ(run({}).exit_code, 2);
  EXPECT_EQ(run({"--rule", "go", moves}).exit_code, 2);
  EXPECT_EQ(run({"a", "b"}).exit_code, 2);
}

}  // namespace
}  // namespace renju
