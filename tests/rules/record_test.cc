// Game records: coordinates of each format on known positions, write -> read
// round trips, the exact error text of malformed input, and the replay with
// forgiven forbidden moves and the first illegal move.
#include "rules/record.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::Moves;
using testing::Pt;

std::string ErrorOf(const absl::Status& status) {
  return status.ok() ? "(ok)" : std::string(status.message());
}

// --- Renju-notation tokens -------------------------------------------------

TEST(RecordMoveTest, ReadsRowsFromTheBottomAndAnyColumnLetter) {
  EXPECT_EQ(ParseRecordMove("h8")->point(), Point(7, 7));
  EXPECT_EQ(ParseRecordMove("A1")->point(), Point(0, 0));
  EXPECT_EQ(ParseRecordMove("o15")->point(), Point(14, 14));
  // Off a 15 x 15 board, but well formed: the replay reports it.
  EXPECT_EQ(ParseRecordMove("p8")->point(), Point(15, 7));
  EXPECT_TRUE(ParseRecordMove("pass")->is_pass());
  EXPECT_TRUE(ParseRecordMove("--")->is_pass());
}

TEST(RecordMoveTest, RejectsMalformedTokens) {
  for (const char* token : {"h0", "h", "8h", "h100", "h08", "hh", "h+8", ""}) {
    EXPECT_EQ(ErrorOf(ParseRecordMove(token).status()),
              absl::StrCat("bad move '", token,
                           "': expected a column letter and a row number, "
                           "like h8, or pass"));
  }
}

// --- Plain move lists --------------------------------------------------------

TEST(MoveListTest, OneGamePerLineWithOptionalResultWord) {
  absl::StatusOr<std::vector<GameRecord>> games = ReadMoveLists(
      "# comment\n"
      "h8 h9 i10\r\n"
      "\n"
      " , ;\n"
      "white h8,h9;i10 --\n"
      "UNKNOWN h8\n");
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 3u);
  EXPECT_EQ((*games)[0].moves, Moves("h8 h9 i10"));
  EXPECT_EQ((*games)[0].line, 2);
  EXPECT_FALSE((*games)[0].result.has_value());
  EXPECT_FALSE((*games)[0].variant.has_value());
  EXPECT_EQ((*games)[1].moves, Moves("h8 h9 i10 pass"));
  EXPECT_EQ((*games)[1].result, GameResult::kWhiteWin);
  EXPECT_EQ((*games)[1].line, 5);
  EXPECT_FALSE((*games)[2].result.has_value());
}

TEST(MoveListTest, ErrorNamesLineAndMove) {
  EXPECT_EQ(ErrorOf(ReadMoveLists("h8 h9\nblack h8 h9 z\n").status()),
            "line 2: move 3: bad move 'z': expected a column letter and a "
            "row number, like h8, or pass");
}

// --- Piskvork .psq -----------------------------------------------------------

// The example of the research note: a diagonal five for the first player,
// 1-based x,y from the top-left corner.
constexpr char kPsqExample[] =
    "Piskvorky 15x15, 11:11, 0\n"
    "8,8,0\n9,8,1203\n9,9,950\n10,10,1811\n7,7,640\n"
    "10,8,702\n6,6,455\n8,10,1210\n5,5,312\n"
    "pbrain-A.exe\npbrain-B.exe\n0\n";

TEST(PsqTest, CoordinatesAreOneBasedFromTheTop) {
  absl::StatusOr<GameRecord> record = ReadPsq(kPsqExample);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->size, 15);
  EXPECT_FALSE(record->variant.has_value());
  EXPECT_FALSE(record->result.has_value());
  // psq 8,8 is the centre; 9,8 one column right; 9,9 one row further DOWN.
  EXPECT_EQ(record->moves, Moves("h8 i8 i7 j6 g9 j8 f10 h6 e11"));
  absl::StatusOr<ReplayedGame> replay =
      ReplayRecord(*record, Variant::kFreestyle);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(replay->game.result(), GameResult::kBlackWin);
  EXPECT_EQ(replay->game.end_reason(), EndReason::kFive);
}

TEST(PsqTest, CornersAndGomocupTrailer) {
  absl::StatusOr<GameRecord> record = ReadPsq(
      "\xEF\xBB\xBFPiskvorky 15x15, 11:11, 1\r\n1,1\r\n15,15,3\r\n1,15\r\n"
      "RAPFI25.zip\r\nJAX25.zip\r\n-1\r\n0,Freestyle15_1\r\n");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->moves, Moves("a15 o1 a1"));
}

TEST(PsqTest, RoundTripsOn15And20) {
  for (int size : {15, 20}) {
    GameRecord record;
    record.size = size;
    record.moves =
        Moves(size == 15 ? "h8 a1 o15 a15 o1 i9" : "k10 a1 t20 t1", size);
    absl::StatusOr<std::string> text = WritePsq(record);
    ASSERT_TRUE(text.ok()) << text.status();
    absl::StatusOr<GameRecord> back = ReadPsq(*text);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << *text;
    EXPECT_EQ(back->size, size);
    EXPECT_EQ(back->moves, record.moves);
  }
  GameRecord record;
  record.moves = Moves("h8 i9");
  EXPECT_EQ(*WritePsq(record), "Piskvorky 15x15, 0:0, 0\n8,8,0\n9,7,0\n0\n");
}

TEST(PsqTest, MalformedInputErrors) {
  const std::string header_error =
      ": expected 'Piskvorky WxH, o1:o2, h' with a square board of 5..20";
  EXPECT_EQ(ErrorOf(ReadPsq("").status()),
            "line 1: bad psq header ''" + header_error);
  EXPECT_EQ(ErrorOf(ReadPsq("8,8\n").status()),
            "line 1: bad psq header '8,8'" + header_error);
  EXPECT_EQ(ErrorOf(ReadPsq("Piskvorky 15x20, 0:0, 0\n").status()),
            "line 1: bad psq header 'Piskvorky 15x20, 0:0, 0'" + header_error);
  EXPECT_EQ(ErrorOf(ReadPsq("Piskvorky 30x30, 0:0, 0\n").status()),
            "line 1: bad psq header 'Piskvorky 30x30, 0:0, 0'" + header_error);
  EXPECT_EQ(ErrorOf(ReadPsq("Piskvorky 15x15, 0:0, 0\n8,8\n16,1\n").status()),
            "line 3: psq move 2 (16,1) is off the 15x15 board (psq "
            "coordinates run 1..15)");
  EXPECT_EQ(ErrorOf(ReadPsq("Piskvorky 15x15, 0:0, 0\n0,0,5\n").status()),
            "line 2: psq move 1 (0,0) is off the 15x15 board (psq "
            "coordinates run 1..15)");
  GameRecord with_pass;
  with_pass.moves = Moves("h8 pass");
  EXPECT_EQ(ErrorOf(WritePsq(with_pass).status()),
            "move 2 is a pass: psq has no passes");
  GameRecord off_board;
  off_board.moves = {Move::At(Point(15, 7))};
  EXPECT_EQ(ErrorOf(WritePsq(off_board).status()),
            "move 1 (p8) is off the 15x15 board");
}

// --- SGF ---------------------------------------------------------------------

TEST(SgfTest, LettersCountRowsFromTheTop) {
  absl::StatusOr<std::vector<GameRecord>> games =
      ReadSgf("(;GM[4]FF[4]SZ[15];B[hh];W[ii];B[ig];W[aa];B[ao])");
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0].moves, Moves("h8 i7 i9 a15 a1"));
}

TEST(SgfTest, ReadsPropertiesMainLineAndCollections) {
  absl::StatusOr<std::vector<GameRecord>> games = ReadSgf(
      "(;FF[4]GM[4]SZ[15]RU[RIF]PB[X]PW[Y]RE[W+R]C[a \\] (tricky; comment]\n"
      " ;B[hh](;W[ig];B[gi](;W[ii])(;W[jj]))(;W[ii]))\n"
      "(;GM[4]SZ[20]RU[freestyle]RE[0];B[jj];W[];B[tt];W[tt])\n"
      "(;SZ[15]RU[something else]RE[?];B[hh];W[tt])\n");
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 3u);
  const GameRecord& first = (*games)[0];
  EXPECT_EQ(first.moves, Moves("h8 i9 g7 i7"));
  EXPECT_EQ(first.variant, Variant::kRenju);
  EXPECT_EQ(first.result, GameResult::kWhiteWin);
  EXPECT_EQ(first.line, 1);
  const GameRecord& second = (*games)[1];
  EXPECT_EQ(second.line, 3);
  EXPECT_EQ(second.size, 20);
  EXPECT_EQ(second.variant, Variant::kFreestyle);
  EXPECT_EQ(second.result, GameResult::kDraw);
  // On 20 x 20 "tt" is the corner t1, not a pass.
  EXPECT_EQ(second.moves, Moves("j11 pass t1 t1", 20));
  const GameRecord& third = (*games)[2];
  EXPECT_FALSE(third.variant.has_value());
  EXPECT_FALSE(third.result.has_value());
  EXPECT_EQ(third.moves, Moves("h8 pass"));
}

TEST(SgfTest, RoundTripsRenjuAndFreestyle20) {
  GameRecord renju;
  renju.variant = Variant::kRenju;
  renju.result = GameResult::kBlackWin;
  renju.moves = Moves("h8 i9 j10 a1 o15 pass a15");
  GameRecord freestyle;
  freestyle.variant = Variant::kFreestyle;
  freestyle.size = 20;
  freestyle.result = GameResult::kDraw;
  freestyle.moves = Moves("k10 t20 a1 pass t1 a20", 20);
  GameRecord bare;
  bare.size = 7;
  bare.moves = Moves("d4 e5", 7);
  for (const GameRecord& record : {renju, freestyle, bare}) {
    absl::StatusOr<std::string> text = WriteSgf(record);
    ASSERT_TRUE(text.ok()) << text.status();
    absl::StatusOr<std::vector<GameRecord>> back = ReadSgf(*text);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << *text;
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ((*back)[0].moves, record.moves) << *text;
    EXPECT_EQ((*back)[0].size, record.size);
    EXPECT_EQ((*back)[0].variant, record.variant);
    EXPECT_EQ((*back)[0].result, record.result);
  }
  EXPECT_EQ(*WriteSgf(renju),
            "(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[renju]RE[B+];B[hh];W[ig];B[jf];"
            "W[ao];B[oa];W[];B[aa])\n");
}

TEST(SgfTest, MalformedInputErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "line 1: SGF: no game tree: expected '(;'"},
      {"x", "line 1: SGF: unexpected 'x': expected '(' to start a game tree"},
      {"(;GM[1]SZ[19])",
       "line 1: SGF: GM[1] is not gomoku or renju: "
       "expected GM[4]"},
      {"(;B[hh]", "line 1: SGF: unexpected end: a game tree is not closed"},
      {"(;\n\nC[open", "line 3: SGF: a property value '[' is not closed"},
      {"(;B[hh];B[ii])",
       "line 1: SGF: move 2 is B[ii] but white is to move "
       "(one move per node, black first, alternating)"},
      {"(;W[hh])",
       "line 1: SGF: move 1 is W[hh] but black is to move (one "
       "move per node, black first, alternating)"},
      {"(;AB[hh][ii])",
       "line 1: SGF: setup stones (AB) are not supported: a "
       "record must be a sequence of moves from the empty "
       "board"},
      {"(;B[hz])",
       "line 1: SGF: move 1: bad point B[hz]: expected two "
       "letters a..o (column, then row from the top) on the "
       "15x15 board"},
      {"(;SZ[25])", "line 1: SGF: SZ[25]: expected a square board of 5..20"},
      {"(;SZ[15:19])",
       "line 1: SGF: SZ[15:19]: expected a square board of "
       "5..20"},
      {"(;B[hh]SZ[15])", "line 1: SGF: SZ comes after the first move"},
      {"(;RE[Black])",
       "line 1: SGF: RE[Black]: expected B+..., W+..., 0, "
       "Draw, Void or ?"},
      {"(;B)", "line 1: SGF: property B has no value"},
      {"(;B[hh]\n(;W[ii])\n;B[jj])",
       "line 3: SGF: unexpected ';': expected "
       "';', '(' or ')'"},
      {"(;B[hh](;W[ii])(;W[jj]",
       "line 1: SGF: unexpected end: a variation "
       "is not closed"},
  };
  for (const auto& [text, error] : cases) {
    EXPECT_EQ(ErrorOf(ReadSgf(text).status()), error) << text;
  }
  GameRecord off_board;
  off_board.moves = {Move::At(Point(3, 15))};
  EXPECT_EQ(ErrorOf(WriteSgf(off_board).status()),
            "move 1 (d16) is off the 15x15 board");
}

TEST(SgfTest, DeepNestingDoesNotRecurse) {
  const std::string text = "(;GM[4]" + std::string(100000, '(') + ";B[hh]" +
                           std::string(100000, ')') + ")";
  absl::StatusOr<std::vector<GameRecord>> games = ReadSgf(text);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ((*games)[0].moves, Moves("h8"));
}

TEST(RuleNameTest, MapsRuleNamesToVariants) {
  EXPECT_EQ(VariantFromRuleName("Renju"), Variant::kRenju);
  EXPECT_EQ(VariantFromRuleName("RIF"), Variant::kRenju);
  EXPECT_EQ(VariantFromRuleName("Yamaguchi"), Variant::kRenju);
  EXPECT_EQ(VariantFromRuleName("Taraguchi-10"), Variant::kRenju);
  EXPECT_EQ(VariantFromRuleName("4"), Variant::kRenju);
  EXPECT_EQ(VariantFromRuleName("freestyle"), Variant::kFreestyle);
  EXPECT_EQ(VariantFromRuleName("0"), Variant::kFreestyle);
  EXPECT_EQ(VariantFromRuleName("Gomoku"), Variant::kStandard);
  EXPECT_EQ(VariantFromRuleName("1"), Variant::kStandard);
  EXPECT_EQ(VariantFromRuleName("Japanese"), std::nullopt);
}

// --- Replay ------------------------------------------------------------------

ReplayedGame Replay(const std::string& moves,
                    Variant variant = Variant::kRenju) {
  GameRecord record;
  for (absl::string_view token : absl::StrSplit(moves, ' ')) {
    absl::StatusOr<Move> m = ParseRecordMove(token);
    EXPECT_TRUE(m.ok()) << m.status();
    if (m.ok()) record.moves.push_back(*m);
  }
  absl::StatusOr<ReplayedGame> replay = ReplayRecord(record, variant);
  EXPECT_TRUE(replay.ok()) << replay.status();
  return replay.ok() ? std::move(*replay) : ReplayedGame{Game(), {}, {}};
}

TEST(ReplayTest, ChecksARecordedOpeningAndOlderRecordsNeedNone) {
  GameRecord record;
  record.moves = *ParseMoveList("h8 h9 j10 i10 j7 k8", kRenjuBoardSize);
  // Without an opening rule (every record before them): nothing to check.
  absl::StatusOr<ReplayedGame> plain = ReplayRecord(record, Variant::kRenju);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->illegal_opening.has_value());

  record.opening_rule = *ParseOpeningRule("rif");
  for (const char* text :
       {"Place(h8)", "Place(h9)", "Place(j10)", "Swap", "Place(i10)",
        "OfferFifth(g7 j7)", "ChooseFifth(j7)"}) {
    record.opening_actions.push_back(*ParseOpeningAction(text));
  }
  absl::StatusOr<ReplayedGame> fair = ReplayRecord(record, Variant::kRenju);
  ASSERT_TRUE(fair.ok());
  EXPECT_FALSE(fair->illegal_opening.has_value()) << *fair->illegal_opening;

  record.opening_actions[5] = *ParseOpeningAction("OfferFifth(g7 k11)");
  absl::StatusOr<ReplayedGame> forged = ReplayRecord(record, Variant::kRenju);
  ASSERT_TRUE(forged.ok());
  ASSERT_TRUE(forged->illegal_opening.has_value());
  EXPECT_NE(forged->illegal_opening->find("opening action 6 of 7"),
            std::string::npos)
      << *forged->illegal_opening;
  EXPECT_EQ(forged->game.ply(), 6);  // the moves are replayed all the same
}

TEST(ReplayTest, UnclaimedForbiddenMoveIsFlaggedAndPlayGoesOn) {
  // Black h8 makes the cross double-three of RULES.md §4; white plays on.
  const ReplayedGame replay = Replay("h9 a1 g8 a3 i8 a5 h7 a7 h8 a9 o15");
  EXPECT_FALSE(replay.illegal.has_value());
  EXPECT_EQ(replay.game.ply(), 11);
  EXPECT_EQ(replay.game.result(), GameResult::kOngoing);
  ASSERT_EQ(replay.game.forbidden_played().size(), 1u);
  const ForbiddenMoveRecord& f = replay.game.forbidden_played()[0];
  EXPECT_EQ(f.ply, 9);
  EXPECT_EQ(f.point, Pt("h8"));
  EXPECT_EQ(f.kind, ForbiddenKind::kDoubleThree);
  // The same moves under freestyle flag nothing.
  EXPECT_TRUE(Replay("h9 a1 g8 a3 i8 a5 h7 a7 h8 a9 o15", Variant::kFreestyle)
                  .game.forbidden_played()
                  .empty());
}

TEST(ReplayTest, FiveFirstBeatsAnOverlineMadeByTheSameMove) {
  // h8 completes d8-h8 (exactly five) and h6-h11 (six): black wins.
  const ReplayedGame replay =
      Replay("d8 a1 e8 a3 f8 a5 g8 a7 h9 a9 h10 a11 h11 a13 h7 a15 h6 c15 h8");
  EXPECT_EQ(replay.game.result(), GameResult::kBlackWin);
  EXPECT_EQ(replay.game.end_reason(), EndReason::kFive);
  EXPECT_TRUE(replay.game.forbidden_played().empty());
}

TEST(ReplayTest, StopsAtTheFirstIllegalMove) {
  struct Case {
    const char* moves;
    int ply;
    const char* move;
    IllegalReason reason;
  };
  for (const Case& c : {
           Case{"h8 h9 h8 p8", 3, "h8", IllegalReason::kOccupied},
           Case{"h8 p8 h8", 2, "p8", IllegalReason::kOffBoard},
           Case{"h8 h16", 2, "h16", IllegalReason::kOffBoard},
           Case{"h8 a1 i8 a2 j8 a3 k8 a4 l8 a5 a6", 10, "a5",
                IllegalReason::kAfterEnd},
           Case{"pass pass h8", 3, "h8", IllegalReason::kAfterEnd},
       }) {
    const ReplayedGame replay = Replay(c.moves);
    ASSERT_TRUE(replay.illegal.has_value()) << c.moves;
    EXPECT_EQ(replay.illegal->ply, c.ply) << c.moves;
    EXPECT_EQ(MoveName(replay.illegal->move), c.move) << c.moves;
    EXPECT_EQ(replay.illegal->reason, c.reason) << c.moves;
    EXPECT_EQ(replay.game.ply(), c.ply - 1) << c.moves;
  }
  EXPECT_EQ(IllegalReasonName(IllegalReason::kAfterEnd), "after the end");
}

TEST(ReplayTest, RejectsRenjuOffFifteen) {
  GameRecord record;
  record.size = 20;
  EXPECT_EQ(ErrorOf(ReplayRecord(record, Variant::kRenju).status()),
            "renju is played on 15 x 15 only, not 20 x 20");
  EXPECT_TRUE(ReplayRecord(record, Variant::kFreestyle).ok());
}

}  // namespace
}  // namespace renju
