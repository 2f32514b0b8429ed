#include "records/replay.h"

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "records/record_text.h"
#include "rules/record.h"

namespace renju {
namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson ResultJson(const std::optional<GameResult>& result) {
  if (!result.has_value()) return nullptr;
  return std::string(GameResultName(*result));
}

// Counts over all games. The two consistency checks:
//  - disagreements: the game ended ON THE BOARD (a five, a full board, two
//    passes, no five possible) and the record claims a different result. A game
//    with no result on the board (resignation, time, a claimed forbidden move)
//    cannot disagree, whatever it records.
//  - forbidden_last_move: games whose last move played is a flagged
//    forbidden move, by recorded result. "white" is white claiming it at
//    once (consistent); "black" credits black with a game whose last move
//    was forbidden, e.g. a black overline scored as a win: a likely label
//    or rule anomaly (it is forgiven only if white resigned instead of
//    claiming).
class Summary {
 public:
  void Add(const GameRecord& record, const ReplayedGame& replay) {
    ++games_;
    moves_ += record.moves.size();
    if (replay.illegal.has_value()) ++illegal_;
    if (record.opening_rule.has_value()) ++openings_;
    if (replay.illegal_opening.has_value()) ++illegal_openings_;
    const Game& game = replay.game;
    ++result_[std::string(GameResultName(replay.result()))];
    if (replay.played_on_after_no_five()) ++played_on_;
    ++recorded_[RecordedKey(record.result)];
    const auto& forbidden = game.forbidden_played();
    if (!forbidden.empty()) ++forbidden_games_;
    for (const ForbiddenMoveRecord& f : forbidden) {
      ++kinds_[std::string(ForbiddenKindName(f.kind))];
    }
    if (!forbidden.empty() && forbidden.back().ply == game.ply()) {
      ++forbidden_last_[RecordedKey(record.result)];
    }
    if (replay.result() != GameResult::kOngoing && record.result.has_value() &&
        *record.result != replay.result()) {
      ++disagreements_;
    }
  }

  OrderedJson ToJson() const {
    OrderedJson s;
    s["games"] = games_;
    s["moves"] = moves_;
    s["illegal"] = illegal_;
    if (openings_ > 0) s["illegal_openings"] = illegal_openings_;
    s["result"] = Counts(result_, {"black", "white", "draw", "ongoing"});
    s["recorded_result"] =
        Counts(recorded_, {"black", "white", "draw", "null"});
    int moves = 0;
    for (const auto& [kind, n] : kinds_) moves += n;
    s["forbidden_games"] = forbidden_games_;
    s["forbidden_moves"] = moves;
    s["forbidden_kinds"] =
        Counts(kinds_, {"double-three", "double-four", "overline"});
    s["forbidden_last_move"] =
        Counts(forbidden_last_, {"black", "white", "draw", "null"});
    s["disagreements"] = disagreements_;
    s["played_on_after_no_five"] = played_on_;
    return {{"summary", s}};
  }

 private:
  static std::string RecordedKey(const std::optional<GameResult>& r) {
    return r.has_value() ? std::string(GameResultName(*r)) : "null";
  }
  static OrderedJson Counts(const std::map<std::string, int>& counts,
                            std::initializer_list<const char*> keys) {
    OrderedJson out = OrderedJson::object();
    for (const char* key : keys) {
      const auto it = counts.find(key);
      out[key] = it == counts.end() ? 0 : it->second;
    }
    return out;
  }

  int games_ = 0;
  int64_t moves_ = 0;
  int illegal_ = 0;
  int openings_ = 0;  // games with an opening rule
  int illegal_openings_ = 0;
  int forbidden_games_ = 0;
  int disagreements_ = 0;
  int played_on_ = 0;
  std::map<std::string, int> result_, recorded_, kinds_, forbidden_last_;
};

OrderedJson GameJson(int index, const GameRecord& record,
                     const ReplayedGame& replay) {
  OrderedJson moves = OrderedJson::array();
  for (Move m : record.moves) moves.push_back(MoveName(m));
  OrderedJson illegal = nullptr;
  if (replay.illegal.has_value()) {
    illegal = {
        {"ply", replay.illegal->ply},
        {"move", MoveName(replay.illegal->move)},
        {"reason", std::string(IllegalReasonName(replay.illegal->reason))}};
  }
  OrderedJson no_five_ply = nullptr;
  if (replay.game.no_five_ply() > 0) no_five_ply = replay.game.no_five_ply();
  OrderedJson forbidden = OrderedJson::array();
  for (const ForbiddenMoveRecord& f : replay.game.forbidden_played()) {
    forbidden.push_back({{"ply", f.ply},
                         {"move", PointName(f.point)},
                         {"kind", std::string(ForbiddenKindName(f.kind))}});
  }
  OrderedJson out = {{"game", index},
                     {"moves", std::move(moves)},
                     {"result", std::string(GameResultName(replay.result()))},
                     {"recorded_result", ResultJson(record.result)},
                     {"illegal", std::move(illegal)},
                     {"forbidden_played", std::move(forbidden)},
                     {"no_five_ply", no_five_ply}};
  if (record.opening_rule.has_value()) {
    OrderedJson actions = OrderedJson::array();
    for (const OpeningAction& a : record.opening_actions) {
      actions.push_back(a.ToString());
    }
    out["opening_rule"] = OpeningRuleName(*record.opening_rule);
    out["opening_actions"] = std::move(actions);
    out["illegal_opening"] = replay.illegal_opening.has_value()
                                 ? OrderedJson(*replay.illegal_opening)
                                 : OrderedJson(nullptr);
  }
  return out;
}

std::string GameText(int index, const GameRecord& record,
                     const ReplayedGame& replay) {
  const Game& game = replay.game;
  std::string out = absl::StrCat("game ", index, " (");
  if (record.line > 0) absl::StrAppend(&out, "line ", record.line, ", ");
  absl::StrAppend(&out, VariantName(game.variant()), "): ", record.moves.size(),
                  " moves: ", MoveListString(record.moves),
                  "\n  result: ", GameResultName(replay.result()));
  if (replay.result() != GameResult::kOngoing) {
    absl::StrAppend(&out, " by ", EndReasonName(replay.end_reason()));
  }
  absl::StrAppend(&out, "; recorded: ",
                  record.result ? GameResultName(*record.result) : "none",
                  "\n");
  if (record.opening_rule.has_value()) {
    absl::StrAppend(&out, "  opening ", OpeningRuleName(*record.opening_rule),
                    ":");
    for (const OpeningAction& a : record.opening_actions) {
      absl::StrAppend(&out, " ", a.ToString());
    }
    absl::StrAppend(&out, "\n");
  }
  if (replay.illegal_opening.has_value()) {
    absl::StrAppend(&out, "  illegal opening: ", *replay.illegal_opening, "\n");
  }
  for (const ForbiddenMoveRecord& f : game.forbidden_played()) {
    absl::StrAppend(&out, "  forbidden move played: ", f.ply, ". ",
                    PointName(f.point), " (", ForbiddenKindName(f.kind), ")\n");
  }
  if (replay.played_on_after_no_five()) {
    absl::StrAppend(
        &out, "  the game was already drawn at move ", game.no_five_ply(),
        " (no five possible); the record plays on to move ", game.ply(), "\n");
  }
  if (replay.illegal.has_value()) {
    absl::StrAppend(&out, "  illegal: move ", replay.illegal->ply, ". ",
                    MoveName(replay.illegal->move), " (",
                    IllegalReasonName(replay.illegal->reason), ")\n");
  }
  return out;
}

// The rule a record is replayed under.
Variant VariantOf(const GameRecord& record, std::optional<Variant> rule) {
  return rule.value_or(record.variant.value_or(Variant::kRenju));
}

// Reads every record of `path`, checking each game's board size before any
// output, so a bad file never gives a partial report.
absl::StatusOr<std::vector<GameRecord>> ReadCheckedRecords(
    const std::string& path, std::optional<Variant> rule) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<GameRecord>> records = ReadRecordText(path, *text);
  if (!records.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", records.status().message()));
  }
  for (size_t i = 0; i < records->size(); ++i) {
    const GameRecord& record = (*records)[i];
    if (absl::Status s =
            ValidateBoardSize(VariantOf(record, rule), record.size);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": line ", record.line, ": game ", i + 1, ": ",
                       s.message(), " (pass --rule)"));
    }
  }
  return records;
}

}  // namespace

absl::Status ReplayFile(const std::string& path, std::optional<Variant> rule,
                        bool jsonl) {
  absl::StatusOr<std::vector<GameRecord>> records =
      ReadCheckedRecords(path, rule);
  if (!records.ok()) return records.status();
  std::ios::sync_with_stdio(false);
  Summary summary;
  for (size_t i = 0; i < records->size(); ++i) {
    const GameRecord& record = (*records)[i];
    absl::StatusOr<ReplayedGame> replay =
        ReplayRecord(record, VariantOf(record, rule));
    if (!replay.ok()) return replay.status();  // checked above
    summary.Add(record, *replay);
    if (jsonl) {
      std::cout << GameJson(i + 1, record, *replay).dump() << '\n';
    } else {
      std::cout << GameText(i + 1, record, *replay);
    }
  }
  const OrderedJson totals = summary.ToJson();
  std::cout << (jsonl ? totals.dump() : "summary: " + totals["summary"].dump())
            << '\n';
  std::cout.flush();
  return absl::OkStatus();
}

}  // namespace renju
