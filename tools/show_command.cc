// `renju show --moves "h8 h9 ..."`: a position for people.
#include <algorithm>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command_util.h"
#include "rules/canonical_openings.h"
#include "rules/diagram.h"
#include "rules/forbidden.h"
#include "rules/game.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

std::string LinesText(uint8_t lines) {
  std::vector<std::string> names;
  for (int d = 0; d < kNumDirections; ++d) {
    if (lines & (1 << d)) {
      names.emplace_back(DirectionName(static_cast<Direction>(d)));
    }
  }
  return absl::StrJoin(names, ", ");
}

std::string ShowGame(Game& game) {
  std::vector<ForbiddenPoint> forbidden;
  if (!game.over()) forbidden = ForbiddenPoints(game.mutable_board());
  std::sort(forbidden.begin(), forbidden.end(),
            [](const ForbiddenPoint& a, const ForbiddenPoint& b) {
              return a.point < b.point;
            });
  std::vector<Point> marks;
  for (const ForbiddenPoint& f : forbidden) marks.push_back(f.point);
  std::optional<Point> last;
  if (!game.moves().empty() && !game.moves().back().is_pass()) {
    last = game.moves().back().point();
  }

  std::string out = absl::StrCat("rule: ", VariantName(game.variant()), ", ",
                                 game.size(), "x", game.size(), "\n");
  absl::StrAppend(&out, RenderBoard(game.board(), marks, last));
  absl::StrAppend(&out, "moves: ", game.ply());
  if (game.ply() > 0)
    absl::StrAppend(&out, " (", MoveListString(game.moves()), ")");
  absl::StrAppend(&out, "\n");
  if (game.over()) {
    absl::StrAppend(&out, "result: ", GameResultName(game.result()), " by ",
                    EndReasonName(game.end_reason()), "\n");
  } else {
    absl::StrAppend(&out, "side to move: ", ColorName(game.side_to_move()),
                    "\nresult: ongoing\n");
  }
  if (game.variant() == Variant::kRenju && game.size() == kRenjuBoardSize) {
    if (auto opening = RecognizeOpening(game.moves())) {
      const CanonicalOpening& o = CanonicalOpenings()[opening->index];
      absl::StrAppend(&out, "opening: ", o.name, " (", o.chinese, ", ",
                      o.direct ? "direct" : "indirect", ")\n");
    }
  }
  for (const ForbiddenMoveRecord& f : game.forbidden_played()) {
    absl::StrAppend(&out, "forbidden move played: ", f.ply, ". ",
                    PointName(f.point), " (", ForbiddenKindName(f.kind), ")\n");
  }
  if (game.variant() == Variant::kRenju && !game.over()) {
    absl::StrAppend(&out, "forbidden points for black: ");
    if (forbidden.empty()) absl::StrAppend(&out, "none");
    for (size_t i = 0; i < forbidden.size(); ++i) {
      const ForbiddenPoint& f = forbidden[i];
      absl::StrAppend(&out, i ? "; " : "", PointName(f.point), " ",
                      ForbiddenKindName(f.kind), " (", LinesText(f.lines), ")");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace

int Show(const Argv& argv) {
  Args args("show",
            "Prints a position: the board (X black, O white, * forbidden for "
            "black), side to move, result, the opening's name if it is one of "
            "the 26 canonical openings, and black's forbidden points with "
            "their kinds and lines.");
  args.AddString("moves", "", "moves in play order, e.g. \"h8 h9 i10\"");
  args.AddString("rule", "renju", "renju, standard or freestyle");
  args.AddInt("size", kRenjuBoardSize, kMinBoardSize, kMaxBoardSize,
              "board size (renju: 15 only)");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;

  absl::StatusOr<Variant> variant = ParseVariant(args.GetString("rule"));
  if (!variant.ok()) return Fail(variant.status());
  const int size = static_cast<int>(args.GetInt("size"));
  absl::StatusOr<Game> game = Game::Create(*variant, size);
  if (!game.ok()) return Fail(game.status());
  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList(args.GetString("moves"), size);
  if (!moves.ok()) return Fail(moves.status());
  for (Move m : *moves) {
    if (absl::Status s = game->Play(m); !s.ok()) return Fail(s);
  }
  std::fputs(ShowGame(*game).c_str(), stdout);
  return 0;
}

}  // namespace renju::commands
