// `renju arena`: a match between two players, each a model checkpoint with
// search (model:PATH), an external Gomocup engine (engine:COMMAND LINE),
// the built-in tactical brain (tactical) or a random legal mover (random).
// Openings are the 26 canonical ones or a Gomocup opening file, each played
// twice with colours swapped, or, with --opening-rule, every game is played
// under that opening rule with each player taking its own opening actions
// (the report counts each side's swaps); many games run at once sharing one
// batched evaluator per model. Prints a progress line (score, Elo and interval,
// LLR), then a report; writes each game as .game and .psq and the summary
// as summary.json into --out.
//
// With --anchors-from CONFIG instead of --b, player A plays each anchor of
// that config with a fixed elo (arena.anchors) in turn, and its Elo on the
// anchors' scale is fitted from those matches (arena/ratings.h), the
// scale a run with those anchors rates its generations on.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/anchor_rating.h"
#include "arena/arena.h"
#include "arena/gating.h"
#include "arena/match_setup.h"
#include "cli/command_util.h"
#include "config/config.h"
#include "launcher/progress.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

std::optional<int64_t> IntIfSet(const Args& args, const std::string& name) {
  if (!args.IsSet(name)) return std::nullopt;
  return args.GetInt(name);
}

PlayerOptions PlayerOptionsOf(const Args& args) {
  PlayerOptions options;
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  options.visits = IntIfSet(args, "visits");
  options.time_ms = IntIfSet(args, "time-ms");
  options.opening_visits = IntIfSet(args, "opening-visits");
  options.engine_turn_ms = args.GetInt("engine-turn-ms");
  options.engine_max_nodes = args.GetInt("engine-max-nodes");
  options.engine_startup_ms = args.GetInt("engine-startup-ms");
  options.engine_stderr = args.GetBool("engine-stderr");
  return options;
}

absl::StatusOr<ArenaOptions> MatchOptions(const pb::RunConfig& config,
                                          const Args& args) {
  MatchSetup setup;
  setup.seed = static_cast<uint64_t>(args.GetInt("seed"));
  setup.openings = args.GetString("openings");
  setup.notation = args.GetString("notation");
  setup.pos_rows = args.GetString("pos-rows");
  setup.games = IntIfSet(args, "games");
  setup.concurrent_games = IntIfSet(args, "concurrent");
  setup.max_plies = IntIfSet(args, "max-plies");
  setup.sprt = args.GetString("sprt");
  setup.opening_rule = args.GetString("opening-rule");
  setup.out_dir = args.GetString("out");
  return MatchOptionsFromSetup(config, setup);
}

int RunMatch(const pb::RunConfig& config, const Args& args) {
  absl::StatusOr<ArenaOptions> options = MatchOptions(config, args);
  if (!options.ok()) return Fail(options.status());
  PlayerFactory factory(config, PlayerOptionsOf(args));
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> a =
      factory.Make(args.GetString("a"));
  if (!a.ok()) return Fail(a.status());
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> b =
      factory.Make(args.GetString("b"));
  if (!b.ok()) return Fail(b.status());

  ProgressLine progress;
  CheckpointMatchOptions save;
  save.out_dir = options->out_dir;
  save.seed = options->seed;
  save.stop = &interrupted;
  save.on_pair = [&](const ArenaSummary& s) {
    const double seconds = progress.elapsed_seconds();
    std::string line =
        absl::StrCat(ArenaProgressLine(s), " | ", FormatDuration(seconds));
    // The SPRT may end the match sooner than this estimate.
    if (s.games > 0 && s.max_games > s.games) {
      absl::StrAppend(
          &line, " (eta ",
          FormatDuration(seconds * (s.max_games - s.games) / s.games), ")");
    }
    progress.Update(line);
  };
  absl::StatusOr<ArenaSummary> summary =
      RunMatchAndSave(*options, **a, **b, save);
  if (!summary.ok()) return Fail(summary.status());
  progress.Finish(ArenaProgressLine(*summary));
  std::printf("%s", ArenaReport(*summary).c_str());
  if (!options->out_dir.empty()) {
    std::printf("games and summary.json in %s\n", options->out_dir.c_str());
  }
  return summary->stop_reason == "interrupted" ? 130 : 0;
}

// Each anchor match on a progress line of its own, whose final line is the
// match's result.
AnchorRatingCallbacks AnchorProgress(std::optional<ProgressLine>& progress) {
  auto prefix = [](const pb::AnchorPlayer& anchor) {
    return absl::StrFormat("vs %s (elo %+.0f): ", anchor.name(), anchor.elo());
  };
  AnchorRatingCallbacks callbacks;
  callbacks.on_skip = [](const pb::AnchorPlayer& anchor) {
    std::printf(
        "skipping anchor %s: without a fixed elo its games cannot "
        "place A\n",
        anchor.name().c_str());
  };
  callbacks.on_start = [&](const pb::AnchorPlayer&) {
    progress.emplace(stdout);
  };
  callbacks.on_pair = [&, prefix](const pb::AnchorPlayer& anchor,
                                  const ArenaSummary& s) {
    // The last pair's line is the final one, written once by on_end.
    if (s.games < s.max_games)
      progress->Update(prefix(anchor) + ArenaProgressLine(s));
  };
  callbacks.on_end = [&, prefix](const pb::AnchorPlayer& anchor,
                                 const ArenaSummary& s) {
    progress->Finish(prefix(anchor) + ArenaProgressLine(s));
    progress.reset();
  };
  return callbacks;
}

int RateAgainstAnchors(const pb::RunConfig& config, const Args& args) {
  const std::string path = args.GetString("anchors-from");
  absl::StatusOr<pb::RunConfig> anchors = LoadAnchorConfig(config, path);
  if (!anchors.ok()) return Fail(anchors.status());
  absl::StatusOr<ArenaOptions> options = MatchOptions(config, args);
  if (!options.ok()) return Fail(options.status());
  PlayerFactory factory(config, PlayerOptionsOf(args));
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> a =
      factory.Make(args.GetString("a"));
  if (!a.ok()) return Fail(a.status());

  std::optional<ProgressLine> progress;
  absl::StatusOr<Rating> rated = RateOnAnchors(
      *anchors, AnchorMatchOptions(*options, *anchors, args.IsSet("games")),
      **a, &interrupted, AnchorProgress(progress));
  progress.reset();  // a failed match's line ends before the error
  if (!rated.ok()) return Fail(rated.status());
  std::printf(
      "%s: elo %+.0f ± %.0f (95%%) on the anchors' scale of %s, "
      "%lld games, %.1f%% of the points\n",
      (*a)->name().c_str(), rated->elo, rated->elo_error, path.c_str(),
      static_cast<long long>(rated->games),
      100 * rated->points / std::max<int64_t>(1, rated->games));
  if (!options->out_dir.empty()) {
    std::printf("games and summary.json in %s/vs-<anchor>\n",
                options->out_dir.c_str());
  }
  return interrupted ? 130 : 0;
}

void AddArenaFlags(Args& args) {
  args.AddString("config", "configs/tiny.textproto",
                 "run config: network shape, arena.search, evaluator");
  args.AddString("a", "", "player A (Elo is A minus B)");
  args.AddString("b", "", "player B");
  args.AddString("anchors-from", "",
                 "rate A against the anchors (arena.anchors) of this config "
                 "instead of playing --b");
  args.AddInt("games", 0, 2, 1000000,
              "games, even (default arena.games; per anchor "
              "arena.anchor_games of --anchors-from)");
  args.AddInt("concurrent", 0, 1, 4096,
              "games at once (default arena.concurrent_games)");
  args.AddString("openings", "canonical", "canonical, or an opening file");
  args.AddString("opening-rule", "",
                 "play every game from the empty board under this opening "
                 "rule (rif, yamaguchi, tarannikov, taraguchi<N>, swap1, "
                 "swap3, swap2; RULES.md §6) instead of --openings: game 2p "
                 "has A as the first player, and each player takes its own "
                 "opening actions (tactical and random: the rule's "
                 "defaults; engines too, except under swap2, where they "
                 "answer Gomocup's SWAP2BOARD, or take the defaults when "
                 "they do not know it, as the report says)");
  args.AddInt("opening-visits", 0, 1, 1000000,
              "model visits per candidate an opening decision values "
              "(default arena.search.opening_candidate_visits)");
  args.AddString("notation", "offset", "opening file notation: offset or pos");
  args.AddString("pos-rows", "top",
                 "pos notation: numbers count rows from the top or bottom");
  args.AddString("sprt", "",
                 "ELO0,ELO1 (alpha, beta from the config), config, or empty "
                 "for none");
  args.AddInt("visits", 0, 0, 10000000,
              "model visits per move (default "
              "arena.search.visits)");
  args.AddInt("time-ms", 0, 0, 3600000,
              "model time per move (default "
              "arena.search.time_ms)");
  args.AddInt("engine-turn-ms", 0, 0, 3600000,
              "engine time per move (0: arena.search.time_ms, else 1000)");
  args.AddInt("engine-max-nodes", 0, 0, 1000000000,
              "engine nodes (visits) per move, sent as INFO max_node (0: "
              "none); with a long --engine-turn-ms, a match at equal visits");
  args.AddInt("engine-startup-ms", 30000, 0, 3600000,
              "extra time for a launched engine's first move (start-up)");
  args.AddBool("engine-stderr", "show the engines' stderr");
  args.AddInt("max-plies", 0, 1, 1000,
              "move cap, a draw (default selfplay.max_plies)");
  args.AddString("out", "arena-games",
                 "folder for games and summary.json "
                 "(empty: keep nothing)");
  args.AddInt("seed", 1, 0, INT64_MAX, "seed of openings and move choice");
}

}  // namespace

int Arena(const Argv& argv) {
  Args args("arena",
            "Plays a match between two players: model:PATH (a checkpoint; "
            "an empty PATH is a fresh network), engine:COMMAND LINE (a "
            "Gomocup engine), tactical (the built-in tactical brain) or "
            "random. Each opening is played twice with colours swapped; "
            "results are W/D/L by colour, Elo with a 95% interval over game "
            "pairs, and an optional SPRT. With --anchors-from instead of "
            "--b, A plays each anchor with a fixed elo of that config and "
            "gets an Elo on the anchors' scale.");
  AddArenaFlags(args);
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  const bool anchors = !args.GetString("anchors-from").empty();
  if (args.GetString("a").empty() || args.GetString("b").empty() == !anchors) {
    std::fprintf(stderr, "arena: give --a and either --b or --anchors-from\n%s",
                 args.Usage().c_str());
    return 2;
  }
  absl::StatusOr<pb::RunConfig> config =
      LoadRunConfig(args.GetString("config"));
  if (!config.ok()) return Fail(config.status());
  StopOnSignals();
  return anchors ? RateAgainstAnchors(*config, args) : RunMatch(*config, args);
}

}  // namespace renju::commands
