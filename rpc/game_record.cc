#include "rpc/game_record.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"

namespace renju {
namespace {

// Probabilities arrive as floats summed by a worker; allow rounding.
constexpr double kSumTolerance = 1e-3;

absl::Status PlyError(int ply, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("ply ", ply, ": ", what));
}

absl::Status CheckTarget(const pb::SearchTarget& target, Game& game, int ply) {
  const double wdl =
      target.root_win() + target.root_draw() + target.root_loss();
  for (float v : {target.root_win(), target.root_draw(), target.root_loss()}) {
    if (!(v >= 0 && v <= 1)) {
      return PlyError(ply, absl::StrCat("root value ", v, " is outside 0..1"));
    }
  }
  if (std::abs(wdl - 1) > kSumTolerance) {
    return PlyError(ply,
                    absl::StrCat("root win+draw+loss is ", wdl, ", not 1"));
  }
  if (target.visits() < 0) return PlyError(ply, "negative visits");
  if (target.policy_points_size() != target.policy_probs_size()) {
    return PlyError(ply, "policy points and probabilities differ in length");
  }
  if (target.full_search() && target.policy_points_size() == 0) {
    return PlyError(ply, "a full search without a policy target");
  }
  if (target.policy_points_size() == 0) return absl::OkStatus();
  double sum = 0;
  const int size = game.size();
  // Each point once: the trainer keeps targets in memory, so a target may
  // not be longer than the board.
  std::vector<bool> seen(size * size, false);
  for (int i = 0; i < target.policy_points_size(); ++i) {
    const int index = target.policy_points(i);
    const float prob = target.policy_probs(i);
    if (index < 0 || index >= size * size) {
      return PlyError(
          ply, absl::StrCat("policy point ", index, " is off the board"));
    }
    if (seen[index]) {
      return PlyError(ply,
                      absl::StrCat("policy target names ",
                                   PointName(PointAt(index, size)), " twice"));
    }
    seen[index] = true;
    const Point p = PointAt(index, size);
    if (!game.IsLegal(p)) {
      return PlyError(ply, absl::StrCat("policy target on ", PointName(p),
                                        ", which is not a legal move"));
    }
    if (!(prob >= 0 && prob <= 1)) {
      return PlyError(
          ply, absl::StrCat("policy probability ", prob, " is outside 0..1"));
    }
    sum += prob;
  }
  if (std::abs(sum - 1) > kSumTolerance) {
    return PlyError(ply,
                    absl::StrCat("policy target sums to ", sum, ", not 1"));
  }
  return absl::OkStatus();
}

absl::Status CheckResult(const pb::GameRecord& record, const Game& game) {
  const pb::GameResult recorded = record.result();
  if (recorded == pb::RESULT_UNSPECIFIED) {
    return absl::InvalidArgumentError("the game has no result");
  }
  // proto3 enums are open: the wire may carry any number.
  if (!pb::GameResult_IsValid(recorded)) {
    return absl::InvalidArgumentError(
        absl::StrCat("result ", static_cast<int>(recorded),
                     " is not a known result (black win, white win, draw)"));
  }
  if (game.over()) {
    if (recorded != ToProto(game.result()) ||
        record.end_reason() != ToProto(game.end_reason())) {
      return absl::InvalidArgumentError(
          absl::StrCat("recorded result ", pb::GameResult_Name(recorded),
                       " by ", pb::EndReason_Name(record.end_reason()),
                       " but the board says ", GameResultName(game.result()),
                       " by ", EndReasonName(game.end_reason())));
    }
    return absl::OkStatus();
  }
  switch (record.end_reason()) {
    case pb::RESIGNATION:
    case pb::TIMEOUT:
      if (recorded == pb::DRAW) {
        return absl::InvalidArgumentError("a resignation cannot be a draw");
      }
      return absl::OkStatus();
    case pb::MOVE_CAP:
      if (recorded != pb::DRAW) {
        return absl::InvalidArgumentError("a move-cap game must be a draw");
      }
      return absl::OkStatus();
    case pb::NO_FIVE_POSSIBLE:
      // Reached only under NoFivePolicy::kPlaysOn (otherwise the game is
      // over and checked above).
      if (recorded == pb::DRAW && game.no_five_ply() > 0 &&
          game.no_five_ply() == game.ply()) {
        return absl::OkStatus();
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "recorded end NO_FIVE_POSSIBLE but the board shows no finished game "
          "after ",
          game.ply(), " moves"));
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("recorded end ", pb::EndReason_Name(record.end_reason()),
                       " but the board shows no finished game after ",
                       game.ply(), " moves"));
  }
}

// At most this many opening actions: the longest procedure (Taraguchi's
// branch B) takes 11; a record with more is forged.
constexpr int kMaxOpeningActions = 32;

struct ActionKindPair {
  OpeningActionKind kind;
  pb::OpeningActionKind proto;
};
constexpr ActionKindPair kActionKinds[] = {
    {OpeningActionKind::kPlace, pb::OPENING_PLACE},
    {OpeningActionKind::kSwap, pb::OPENING_SWAP},
    {OpeningActionKind::kKeepColours, pb::OPENING_KEEP_COLOURS},
    {OpeningActionKind::kDeclareCount, pb::OPENING_DECLARE_COUNT},
    {OpeningActionKind::kOfferFifth, pb::OPENING_OFFER_FIFTH},
    {OpeningActionKind::kChooseFifth, pb::OPENING_CHOOSE_FIFTH},
};

// The opening of a record whose opening_rule is set, checked against its
// plies; `moves` are the plies as moves.
absl::Status CheckOpening(const pb::GameRecord& record, Variant variant,
                          int size, const std::vector<Move>& moves) {
  if (record.opening_actions_size() > kMaxOpeningActions) {
    return absl::InvalidArgumentError(
        absl::StrCat(record.opening_actions_size(),
                     " opening actions; no rule takes more "
                     "than ",
                     kMaxOpeningActions));
  }
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(record.opening_rule());
  if (!rule.ok()) return rule.status();
  absl::StatusOr<std::vector<OpeningAction>> actions =
      OpeningActionsFromProto(record.opening_actions(), size);
  if (!actions.ok()) return actions.status();
  absl::StatusOr<OpeningState> opening =
      CheckOpeningRecord(*rule, *actions, moves, variant, size);
  if (!opening.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("opening rule ",
                                                   record.opening_rule(), ": ",
                                                   opening.status().message()));
  }
  if (record.opening_plies() != opening->game().ply()) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening_plies is ", record.opening_plies(), " but the ",
                     record.opening_rule(), " opening placed ",
                     opening->game().ply(), " stones"));
  }
  return absl::OkStatus();
}

}  // namespace

pb::OpeningActionRecord ToProto(const OpeningAction& action, int size) {
  pb::OpeningActionRecord out;
  for (const ActionKindPair& pair : kActionKinds) {
    if (pair.kind == action.kind) out.set_kind(pair.proto);
  }
  switch (action.kind) {
    case OpeningActionKind::kPlace:
    case OpeningActionKind::kChooseFifth:
      out.add_points(PointIndex(action.point, size));
      break;
    case OpeningActionKind::kOfferFifth:
      for (Point p : action.points) out.add_points(PointIndex(p, size));
      break;
    case OpeningActionKind::kDeclareCount:
      out.set_count(action.count);
      break;
    default:
      break;
  }
  return out;
}

absl::StatusOr<OpeningAction> FromProto(const pb::OpeningActionRecord& action,
                                        int size) {
  const ActionKindPair* pair = nullptr;
  for (const ActionKindPair& p : kActionKinds) {
    if (p.proto == action.kind()) pair = &p;
  }
  if (pair == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "kind ", static_cast<int>(action.kind()), " is not an opening action"));
  }
  std::vector<Point> points;
  for (int index : action.points()) {
    if (index < 0 || index >= size * size) {
      return absl::InvalidArgumentError(absl::StrCat(
          "point ", index, " is off the ", size, "x", size, " board"));
    }
    points.push_back(PointAt(index, size));
  }
  const bool one_point = pair->kind == OpeningActionKind::kPlace ||
                         pair->kind == OpeningActionKind::kChooseFifth;
  const bool many_points = pair->kind == OpeningActionKind::kOfferFifth;
  if (one_point ? points.size() != 1 : !many_points && !points.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(pb::OpeningActionKind_Name(action.kind()), " with ",
                     points.size(), " points"));
  }
  if (pair->kind != OpeningActionKind::kDeclareCount && action.count() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(pb::OpeningActionKind_Name(action.kind()),
                     " with a count (", action.count(), ")"));
  }
  OpeningAction out;
  out.kind = pair->kind;
  if (one_point) out.point = points[0];
  if (many_points) out.points = std::move(points);
  out.count = action.count();
  return out;
}

absl::StatusOr<std::vector<OpeningAction>> OpeningActionsFromProto(
    const google::protobuf::RepeatedPtrField<pb::OpeningActionRecord>& actions,
    int size) {
  std::vector<OpeningAction> out;
  for (int i = 0; i < actions.size(); ++i) {
    absl::StatusOr<OpeningAction> action = FromProto(actions[i], size);
    if (!action.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("opening action ", i + 1, " of ", actions.size(), ": ",
                       action.status().message()));
    }
    out.push_back(*std::move(action));
  }
  return out;
}

void SetOpening(const OpeningState& opening, int size, pb::GameRecord& record) {
  record.set_opening_rule(OpeningRuleName(opening.rule()));
  record.clear_opening_actions();
  for (const OpeningAction& action : opening.actions()) {
    *record.add_opening_actions() = ToProto(action, size);
  }
  record.set_opening_plies(opening.game().ply());
}

absl::StatusOr<GameRecord> RecordFromProto(const pb::GameRecord& record) {
  absl::StatusOr<Variant> variant = FromProto(record.variant());
  if (!variant.ok()) return variant.status();
  GameRecord out;
  out.variant = *variant;
  out.size = BoardSizeOf(record.board_size());
  for (const pb::GamePly& ply : record.plies()) {
    const int index = ply.move();
    out.moves.push_back(index < 0 ? Move::Pass()
                                  : Move::At(PointAt(index, out.size)));
  }
  switch (record.result()) {
    case pb::BLACK_WIN:
      out.result = GameResult::kBlackWin;
      break;
    case pb::WHITE_WIN:
      out.result = GameResult::kWhiteWin;
      break;
    case pb::DRAW:
      out.result = GameResult::kDraw;
      break;
    default:
      break;
  }
  if (record.opening_rule().empty()) return out;
  absl::StatusOr<OpeningRule> rule = ParseOpeningRule(record.opening_rule());
  if (!rule.ok()) return rule.status();
  out.opening_rule = *rule;
  absl::StatusOr<std::vector<OpeningAction>> actions =
      OpeningActionsFromProto(record.opening_actions(), out.size);
  if (!actions.ok()) return actions.status();
  out.opening_actions = *std::move(actions);
  return out;
}

int MoveIndex(Move m, int size) {
  return m.is_pass() ? -1 : PointIndex(m.point(), size);
}

pb::Variant ToProto(Variant v) {
  switch (v) {
    case Variant::kRenju:
      return pb::RENJU;
    case Variant::kStandard:
      return pb::STANDARD;
    case Variant::kFreestyle:
      return pb::FREESTYLE;
  }
  return pb::VARIANT_UNSPECIFIED;
}

absl::StatusOr<Variant> FromProto(pb::Variant v) {
  switch (v) {
    case pb::RENJU:
      return Variant::kRenju;
    case pb::STANDARD:
      return Variant::kStandard;
    case pb::FREESTYLE:
      return Variant::kFreestyle;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("unknown rule variant ", static_cast<int>(v)));
  }
}

pb::GameResult ToProto(GameResult r) {
  switch (r) {
    case GameResult::kBlackWin:
      return pb::BLACK_WIN;
    case GameResult::kWhiteWin:
      return pb::WHITE_WIN;
    case GameResult::kDraw:
      return pb::DRAW;
    case GameResult::kOngoing:
      break;
  }
  return pb::RESULT_UNSPECIFIED;
}

pb::EndReason ToProto(EndReason r) {
  switch (r) {
    case EndReason::kFive:
      return pb::FIVE;
    case EndReason::kForbidden:
      return pb::FORBIDDEN_MOVE;
    case EndReason::kFullBoard:
      return pb::FULL_BOARD;
    case EndReason::kTwoPasses:
      return pb::TWO_PASSES;
    case EndReason::kResignation:
      return pb::RESIGNATION;
    case EndReason::kTimeout:
      return pb::TIMEOUT;
    case EndReason::kNoFivePossible:
      return pb::NO_FIVE_POSSIBLE;
    case EndReason::kNone:
      break;
  }
  return pb::END_REASON_UNSPECIFIED;
}

int BoardSizeOf(int proto_size) {
  return proto_size == 0 ? kRenjuBoardSize : proto_size;
}

absl::StatusOr<Game> GameFromPosition(const pb::Position& position) {
  absl::StatusOr<Variant> variant = FromProto(position.variant());
  if (!variant.ok()) return variant.status();
  const int size = BoardSizeOf(position.board_size());
  absl::StatusOr<Game> game = Game::Create(*variant, size);
  if (!game.ok()) return game.status();

  if (position.moves_size() > 0) {
    if (position.black_size() > 0 || position.white_size() > 0) {
      return absl::InvalidArgumentError(
          "position has both moves and stone lists; give one");
    }
    for (int i = 0; i < position.moves_size(); ++i) {
      const int index = position.moves(i);
      if (index < -1 || index >= size * size) {
        return absl::InvalidArgumentError(
            absl::StrCat("move ", i + 1, ": point ", index, " is off the ",
                         size, "x", size, " board"));
      }
      const Move m = index < 0 ? Move::Pass() : Move::At(PointAt(index, size));
      if (absl::Status s = game->Play(m); !s.ok()) return s;
      if (game->end_reason() == EndReason::kForbidden) {
        return absl::InvalidArgumentError(absl::StrCat(
            "move ", i + 1, " (", MoveName(m), ") is forbidden for black (",
            ForbiddenKindName(game->forbidden_played().back().kind), ")"));
      }
    }
    return game;
  }

  // Stones and side to move, without a history.
  std::vector<Point> stones[kNumColors];
  for (const auto& [list, color] :
       {std::pair{&position.black(), Color::kBlack},
        std::pair{&position.white(), Color::kWhite}}) {
    for (int index : *list) {
      if (index < 0 || index >= size * size) {
        return absl::InvalidArgumentError(
            absl::StrCat(ColorName(color), " stone at point ", index,
                         " is off the ", size, "x", size, " board"));
      }
      stones[Index(color)].push_back(PointAt(index, size));
    }
  }
  if (position.side_to_move() == pb::COLOR_UNSPECIFIED &&
      !(stones[0].empty() && stones[1].empty())) {
    return absl::InvalidArgumentError(
        "a position given by stones needs side_to_move");
  }
  const Color side =
      position.side_to_move() == pb::WHITE ? Color::kWhite : Color::kBlack;
  return Game::FromStones(*variant, size, stones[0], stones[1], side);
}

absl::StatusOr<Game> ValidateGameRecord(const pb::GameRecord& record,
                                        NoFivePolicy no_five) {
  if (record.uid().empty() || record.uid().size() > 200) {
    return absl::InvalidArgumentError("uid must be 1..200 characters");
  }
  // UIDs become log text, and file names on workers.
  if (!IsSafeName(record.uid())) {
    return absl::InvalidArgumentError(
        "uid may hold only letters, digits, '-', '_' and '.', and may not "
        "start with '.'");
  }
  if (record.opening().size() > 100) {
    return absl::InvalidArgumentError(absl::StrCat("opening name of ",
                                                   record.opening().size(),
                                                   " characters; at most 100"));
  }
  absl::StatusOr<Variant> variant = FromProto(record.variant());
  if (!variant.ok()) return variant.status();
  const int size = BoardSizeOf(record.board_size());
  absl::StatusOr<Game> game = Game::Create(*variant, size);
  if (!game.ok()) return game.status();
  if (record.opening_plies() < 0 ||
      record.opening_plies() > record.plies_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening_plies ", record.opening_plies(),
                     " is outside 0..", record.plies_size()));
  }
  if (record.opening_rule().empty() && record.opening_actions_size() > 0) {
    return absl::InvalidArgumentError(
        "opening actions without an opening rule");
  }
  std::vector<Move> moves;
  for (int i = 0; i < record.plies_size(); ++i) {
    const int ply = i + 1;
    const pb::GamePly& p = record.plies(i);
    if (p.has_target()) {
      if (absl::Status s = CheckTarget(p.target(), *game, ply); !s.ok())
        return s;
    }
    const int index = p.move();
    if (index < -1 || index >= size * size) {
      return PlyError(ply, absl::StrCat("point ", index, " is off the ", size,
                                        "x", size, " board"));
    }
    const Move m = index < 0 ? Move::Pass() : Move::At(PointAt(index, size));
    moves.push_back(m);
    if (absl::Status s = game->Play(m, ForbiddenMovePolicy::kLoses, no_five);
        !s.ok()) {
      return PlyError(ply, s.message());
    }
    if (game->end_reason() == EndReason::kForbidden) {
      return PlyError(
          ply,
          absl::StrCat("black played ", MoveName(m), ", a forbidden point (",
                       ForbiddenKindName(game->forbidden_played().back().kind),
                       ")"));
    }
  }
  if (!record.opening_rule().empty()) {
    if (absl::Status s = CheckOpening(record, *variant, size, moves); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = CheckResult(record, *game); !s.ok()) return s;
  return game;
}

int NumTrainingPositions(const pb::GameRecord& record) {
  int n = 0;
  for (const pb::GamePly& p : record.plies()) n += p.has_target();
  return n;
}

}  // namespace renju
