// `renju replay [--jsonl] [--rule R] FILE`: replays every game of a record
// file through the rules and reports, per game, the moves, the result by the
// rules, the recorded result, the first illegal move and the forbidden moves
// that were played and forgiven (RULES.md §4, referee detail).
//
// FILE is a move list, .psq, .rif, SGF, the JSON Lines game format
// (records/game_jsonl.h) or a stored .game (a serialized pb::GameRecord, as
// self-play and `renju arena --out` write them), told apart by the
// extension, else by the content.
//
// --jsonl writes one object per game, keys in this order:
//   game              1-based index of the game in the file (for every
//                     format, so it never depends on optional ids)
//   moves             the recorded moves as a list of strings ("h8", "pass")
//   result            by the rules after the replay: black, white, draw,
//                     ongoing (a game that ended by resignation, time or a
//                     claim is "ongoing" on the board)
//   recorded_result   black, white, draw, or null when the record says none
//   illegal           null or {"ply":N,"move":"h8","reason":"occupied"}
//   forbidden_played  [{"ply":N,"move":"j9","kind":"double-three"}, ...]
//   no_five_ply       null, or the move after which neither side could make
//                     a five: the game was drawn there (RULES.md §5), and
//                     "result" says draw even if the record played on
// and, for a record played under an opening rule (RULES.md §6):
//   opening_rule      "rif", "taraguchi10", ...
//   opening_actions   ["Place(h8)", "Swap", "OfferFifth(j9 g7)", ...]
//   illegal_opening   null, or why the actions do not fit the rule: the
//                     first illegal action by number, an opening left
//                     unfinished, or a move that is not the placed stone
// then {"summary":{...}} (see SummaryJson; "illegal_openings" only when a
// game has an opening rule). Exit code 0 when the file was
// read, whatever the games hold; 1 when it could not be read (the message
// names the file and line); 2 for bad flags.
#include <iostream>
#include <optional>

#include "cli/command_util.h"
#include "records/replay.h"
#include "rules/types.h"
#include "tools/commands.h"

namespace renju::commands {

int Replay(const Argv& argv) {
  Args args("replay",
            "Replays each game of FILE (move list, .psq, .rif, SGF, JSON "
            "Lines games or a .game record) and reports its moves, the result "
            "by the rules, the recorded result, the first illegal move (off "
            "the board, occupied, after the end), the first illegal opening "
            "action under the record's opening rule and the forbidden moves "
            "played. The "
            "summary's 'disagreements' counts games that ended on the board "
            "(five, full board, two passes, no five possible) with a different "
            "recorded result; 'played_on_after_no_five' counts games that "
            "went on after neither side could make a five (each game's "
            "no_five_ply says where); 'forbidden_last_move' counts, by "
            "recorded result, games "
            "whose last move is a flagged forbidden move.");
  args.AddBool("jsonl", "one JSON object per game, then {\"summary\":...}");
  args.AddString("rule", "",
                 "renju, standard or freestyle; overrides the record's rule "
                 "(default: the record's, else renju)");
  args.AllowPositional(1, "FILE");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  std::optional<Variant> rule;
  if (args.IsSet("rule")) {
    absl::StatusOr<Variant> v = ParseVariant(args.GetString("rule"));
    if (!v.ok()) {
      std::cerr << "replay: --rule: " << v.status().message() << "\n";
      return 2;
    }
    rule = *v;
  }
  if (args.positional().empty()) {
    std::cerr << "replay: name a record file\n" << args.Usage();
    return 2;
  }
  if (absl::Status s =
          ReplayFile(args.positional()[0], rule, args.GetBool("jsonl"));
      !s.ok()) {
    return Fail(s);
  }
  return 0;
}

}  // namespace renju::commands
