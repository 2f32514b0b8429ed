// The definition of a valid game record: what the trainer stores.
#include "rpc/game_record.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace renju {
namespace {

int P(const char* name) { return PointIndex(*ParsePoint(name, 15), 15); }

// A black win by five: h8 a1 i8 a2 j8 a3 k8 a4 l8, every ply searched.
pb::GameRecord FiveGame() {
  pb::GameRecord r;
  r.set_uid("w-1");
  r.set_variant(pb::RENJU);
  r.set_board_size(15);
  for (const char* m : {"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"}) {
    pb::GamePly* ply = r.add_plies();
    ply->set_move(P(m));
    pb::SearchTarget* t = ply->mutable_target();
    t->add_policy_points(P(m));
    t->add_policy_probs(1.0f);
    t->set_root_win(0.5f);
    t->set_root_draw(0.2f);
    t->set_root_loss(0.3f);
    t->set_visits(10);
    t->set_full_search(true);
  }
  r.set_result(pb::BLACK_WIN);
  r.set_end_reason(pb::FIVE);
  return r;
}

// A RIF game: the opening h8 h9 j10, swap, i10, offer g7 j7, j7 kept;
// then white k8 and black resigns. Built through the state machine.
pb::GameRecord RifGame() {
  OpeningState state = *OpeningState::Create(*ParseOpeningRule("rif"));
  for (const char* text :
       {"Place(h8)", "Place(h9)", "Place(j10)", "Swap", "Place(i10)",
        "OfferFifth(g7 j7)", "ChooseFifth(j7)"}) {
    EXPECT_TRUE(state.Apply(*ParseOpeningAction(text)).ok()) << text;
  }
  pb::GameRecord r;
  r.set_uid("arena-1");
  r.set_variant(pb::RENJU);
  r.set_board_size(15);
  SetOpening(state, 15, r);
  for (Move m : state.game().moves()) r.add_plies()->set_move(MoveIndex(m, 15));
  r.add_plies()->set_move(P("k8"));
  r.set_result(pb::WHITE_WIN);
  r.set_end_reason(pb::RESIGNATION);
  return r;
}

TEST(GameRecordTest, OpeningActionsAreCheckedAgainstTheRule) {
  const pb::GameRecord fair = RifGame();
  EXPECT_EQ(fair.opening_rule(), "rif");
  EXPECT_EQ(fair.opening_actions_size(), 7);
  EXPECT_EQ(fair.opening_plies(), 5);
  ASSERT_TRUE(ValidateGameRecord(fair).ok())
      << ValidateGameRecord(fair).status();

  // White keeps a 5th move black never offered.
  pb::GameRecord forged = fair;
  forged.mutable_opening_actions(6)->set_points(0, P("k11"));
  forged.mutable_plies(4)->set_move(P("k11"));
  EXPECT_EQ(ValidateGameRecord(forged).status().message(),
            "opening rule rif: opening action 7 of 7 (ChooseFifth(k11)): k11 "
            "is not one of the offered 5th moves (g7 j7); RIF expects white "
            "(the first player) to choose one of the 2 offered 5th moves (g7 "
            "j7)");

  // The stones do not follow the actions.
  forged = fair;
  forged.mutable_plies(4)->set_move(P("g7"));
  EXPECT_EQ(ValidateGameRecord(forged).status().message(),
            "opening rule rif: move 5 is g7 but the opening actions placed j7");

  forged = fair;
  forged.set_opening_plies(3);
  EXPECT_EQ(ValidateGameRecord(forged).status().message(),
            "opening_plies is 3 but the rif opening placed 5 stones");

  forged = fair;
  forged.clear_opening_rule();
  EXPECT_EQ(ValidateGameRecord(forged).status().message(),
            "opening actions without an opening rule");

  forged = fair;
  forged.mutable_opening_actions(3)->set_kind(
      static_cast<pb::OpeningActionKind>(42));
  EXPECT_EQ(ValidateGameRecord(forged).status().message(),
            "opening action 4 of 7: kind 42 is not an opening action");

  forged = fair;
  forged.set_opening_rule("speedy");
  EXPECT_TRUE(absl::StartsWith(ValidateGameRecord(forged).status().message(),
                               "unknown opening rule 'speedy'"));
}

TEST(GameRecordTest, RecordFromProtoKeepsTheOpening) {
  absl::StatusOr<GameRecord> record = RecordFromProto(RifGame());
  ASSERT_TRUE(record.ok()) << record.status();
  ASSERT_TRUE(record->opening_rule.has_value());
  EXPECT_EQ(OpeningRuleName(*record->opening_rule), "rif");
  ASSERT_EQ(record->opening_actions.size(), 7u);
  EXPECT_EQ(record->opening_actions[5].ToString(), "OfferFifth(g7 j7)");
  EXPECT_EQ(record->moves.size(), 6u);
  EXPECT_EQ(record->result, GameResult::kWhiteWin);
  // A record from before opening rules has none.
  absl::StatusOr<GameRecord> old = RecordFromProto(FiveGame());
  ASSERT_TRUE(old.ok());
  EXPECT_FALSE(old->opening_rule.has_value());
}

TEST(GameRecordTest, ValidGameReplays) {
  absl::StatusOr<Game> game = ValidateGameRecord(FiveGame());
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->result(), GameResult::kBlackWin);
  EXPECT_EQ(NumTrainingPositions(FiveGame()), 9);
}

TEST(GameRecordTest, RejectsOccupiedAndOffBoardMoves) {
  pb::GameRecord r = FiveGame();
  r.mutable_plies(2)->set_move(P("h8"));
  r.mutable_plies(2)->mutable_target()->set_policy_points(0, P("i8"));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 3: move 3 (h8) is on an occupied point");
  r = FiveGame();
  r.mutable_plies(4)->set_move(225);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 5: point 225 is off the 15x15 board");
}

TEST(GameRecordTest, RejectsForbiddenBlackMove) {
  pb::GameRecord r;
  r.set_uid("w-2");
  r.set_variant(pb::RENJU);
  for (const char* m : {"h9", "a1", "g8", "a2", "i8", "a3", "h7", "a4", "h8"}) {
    r.add_plies()->set_move(P(m));
  }
  r.set_result(pb::WHITE_WIN);
  r.set_end_reason(pb::FORBIDDEN_MOVE);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 9: black played h8, a forbidden point (double-three)");
}

TEST(GameRecordTest, RejectsMovesAfterTheEnd) {
  pb::GameRecord r = FiveGame();
  r.add_plies()->set_move(P("o15"));
  EXPECT_NE(ValidateGameRecord(r).status().message().find(
                "ply 10: move 10 (o15) comes after the end"),
            std::string::npos)
      << ValidateGameRecord(r).status();
}

TEST(GameRecordTest, RejectsResultsTheBoardContradicts) {
  pb::GameRecord r = FiveGame();
  r.set_result(pb::WHITE_WIN);
  EXPECT_EQ(
      ValidateGameRecord(r).status().message(),
      "recorded result WHITE_WIN by FIVE but the board says black by five");
  r = FiveGame();
  r.mutable_plies()->RemoveLast();
  r.set_end_reason(pb::FIVE);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "recorded end FIVE but the board shows no finished game after 8 "
            "moves");
  r.set_end_reason(pb::RESIGNATION);
  r.set_result(pb::WHITE_WIN);
  EXPECT_TRUE(ValidateGameRecord(r).ok());
  r.set_end_reason(pb::MOVE_CAP);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "a move-cap game must be a draw");
  // Found by game_record_fuzzer: an enum number outside GameResult on the
  // wire was stored as a resignation's result.
  r.set_end_reason(pb::RESIGNATION);
  r.set_result(static_cast<pb::GameResult>(7));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "result 7 is not a known result (black win, white win, draw)");
}

// A 5x5 freestyle game filling the board in rows XXOOX / OOXXO, played
// only until neither side can make a five (RULES.md §5): drawn there.
pb::GameRecord NoFiveGame() {
  const char* rows[5] = {"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"};
  std::vector<Point> stones[2];
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x)
      stones[rows[y][x] == 'X' ? 0 : 1].push_back(Point(x, y));
  }
  pb::GameRecord r;
  r.set_uid("w-nofive");
  r.set_variant(pb::FREESTYLE);
  r.set_board_size(5);
  Game game(Variant::kFreestyle, 5);
  for (int i = 0; !game.over(); ++i) {
    const Point p = stones[i % 2][i / 2];
    EXPECT_TRUE(game.Play(Move::At(p)).ok());
    r.add_plies()->set_move(PointIndex(p, 5));
  }
  EXPECT_EQ(game.end_reason(), EndReason::kNoFivePossible);
  EXPECT_LT(game.ply(), 25);
  r.set_result(pb::DRAW);
  r.set_end_reason(pb::NO_FIVE_POSSIBLE);
  return r;
}

TEST(GameRecordTest, NoFivePossibleIsADrawClaimedOnlyWhereItHappened) {
  const pb::GameRecord good = NoFiveGame();
  absl::StatusOr<Game> game = ValidateGameRecord(good);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->end_reason(), EndReason::kNoFivePossible);
  EXPECT_EQ(ToProto(EndReason::kNoFivePossible), pb::NO_FIVE_POSSIBLE);
  EXPECT_EQ(pb::EndReason_Name(pb::NO_FIVE_POSSIBLE), "NO_FIVE_POSSIBLE");

  // The old name for such a game is now a false claim.
  pb::GameRecord r = good;
  r.set_end_reason(pb::FULL_BOARD);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "recorded result DRAW by FULL_BOARD but the board says draw by "
            "no five possible");
  // Claimed one move early, while a five was still possible.
  r = good;
  r.mutable_plies()->RemoveLast();
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            absl::StrCat("recorded end NO_FIVE_POSSIBLE but the board shows "
                         "no finished game after ",
                         r.plies_size(), " moves"));
  // Claimed in a won game.
  r = FiveGame();
  r.set_result(pb::DRAW);
  r.set_end_reason(pb::NO_FIVE_POSSIBLE);
  EXPECT_FALSE(ValidateGameRecord(r).ok());
  // Played on past the draw.
  r = good;
  const int ply = r.plies_size() + 1;
  for (int i = 0; i < 25; ++i) {
    bool used = false;
    for (const pb::GamePly& p : r.plies()) used |= p.move() == i;
    if (!used) {
      r.add_plies()->set_move(i);
      break;
    }
  }
  EXPECT_TRUE(absl::StrContains(ValidateGameRecord(r).status().message(),
                                absl::StrCat("ply ", ply, ": move ", ply)))
      << ValidateGameRecord(r).status();
  EXPECT_TRUE(absl::StrContains(ValidateGameRecord(r).status().message(),
                                "after the end of the game (draw by no five "
                                "possible)"));
}

TEST(GameRecordTest, StoredGamesThatPlayedOnPastNoFiveStillLoad) {
  // As a worker before the rule recorded it: on to the full board.
  pb::GameRecord r = NoFiveGame();
  std::vector<bool> used(25, false);
  for (const pb::GamePly& p : r.plies()) used[p.move()] = true;
  // Black and white alternate over the rest of the pattern (see NoFiveGame).
  const char* rows[5] = {"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"};
  std::vector<int> rest[2];
  for (int i = 0; i < 25; ++i) {
    if (!used[i]) rest[rows[i / 5][i % 5] == 'X' ? 0 : 1].push_back(i);
  }
  while (r.plies_size() < 25) {
    const int color = r.plies_size() % 2;
    r.add_plies()->set_move(rest[color].front());
    rest[color].erase(rest[color].begin());
  }
  r.set_end_reason(pb::FULL_BOARD);
  EXPECT_FALSE(ValidateGameRecord(r).ok());
  absl::StatusOr<Game> game = ValidateGameRecord(r, NoFivePolicy::kPlaysOn);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->end_reason(), EndReason::kFullBoard);
  // And a game recorded under the rule loads the same way.
  EXPECT_TRUE(ValidateGameRecord(NoFiveGame(), NoFivePolicy::kPlaysOn).ok());
}

TEST(GameRecordTest, RejectsMalformedTargets) {
  pb::GameRecord r = FiveGame();
  r.mutable_plies(1)->mutable_target()->set_policy_probs(0, 0.5f);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 2: policy target sums to 0.5, not 1");
  r = FiveGame();
  r.mutable_plies(1)->mutable_target()->set_policy_points(0, P("h8"));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 2: policy target on h8, which is not a legal move");
  r = FiveGame();
  r.mutable_plies(0)->mutable_target()->set_root_win(0.9f);
  EXPECT_NE(ValidateGameRecord(r).status().message().find(
                "ply 1: root win+draw+loss is"),
            std::string::npos);
  r = FiveGame();
  r.mutable_plies(0)->mutable_target()->add_policy_points(P("a1"));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 1: policy points and probabilities differ in length");
  r = FiveGame();
  r.set_variant(static_cast<pb::Variant>(17));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "unknown rule variant 17");
  r = FiveGame();
  r.mutable_plies(0)->mutable_target()->set_policy_probs(0, 0.5f);
  r.mutable_plies(0)->mutable_target()->add_policy_points(P("h8"));
  r.mutable_plies(0)->mutable_target()->add_policy_probs(0.5f);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "ply 1: policy target names h8 twice");
  r = FiveGame();
  r.set_uid("../../etc/passwd");
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "uid may hold only letters, digits, '-', '_' and '.', and may not "
            "start with '.'");
  r = FiveGame();
  r.set_opening(std::string(101, 'x'));
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "opening name of 101 characters; at most 100");
  r = FiveGame();
  r.set_board_size(19);
  EXPECT_EQ(ValidateGameRecord(r).status().message(),
            "renju is played on 15 x 15 only, not 19 x 19");
}

TEST(GameRecordTest, PositionsFromMovesOrStones) {
  pb::Position moves;
  moves.set_variant(pb::RENJU);
  for (const char* m : {"h8", "h9", "i8"}) moves.add_moves(P(m));
  absl::StatusOr<Game> game = GameFromPosition(moves);
  ASSERT_TRUE(game.ok());
  EXPECT_EQ(game->side_to_move(), Color::kWhite);

  pb::Position stones;
  stones.set_variant(pb::RENJU);
  stones.add_black(P("h8"));
  stones.add_white(P("h9"));
  stones.set_side_to_move(pb::BLACK);
  game = GameFromPosition(stones);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->board().num_stones(), 2);
  EXPECT_EQ(game->side_to_move(), Color::kBlack);

  stones.add_white(P("h8"));
  EXPECT_EQ(GameFromPosition(stones).status().message(),
            "white stone on h8: the point is already occupied");
  pb::Position both = moves;
  both.add_black(P("a1"));
  EXPECT_FALSE(GameFromPosition(both).ok());
  pb::Position forbidden;
  forbidden.set_variant(pb::RENJU);
  for (const char* m : {"h9", "a1", "g8", "a2", "i8", "a3", "h7", "a4", "h8"}) {
    forbidden.add_moves(P(m));
  }
  EXPECT_EQ(GameFromPosition(forbidden).status().message(),
            "move 9 (h8) is forbidden for black (double-three)");
  pb::Position five;
  five.set_variant(pb::RENJU);
  for (const char* m : {"h8", "i8", "j8", "k8", "l8"}) five.add_black(P(m));
  for (const char* m : {"a1", "a2", "a3", "a4"}) five.add_white(P(m));
  five.set_side_to_move(pb::WHITE);
  EXPECT_EQ(GameFromPosition(five).status().message(),
            "black already has five in a row");
}

}  // namespace
}  // namespace renju
