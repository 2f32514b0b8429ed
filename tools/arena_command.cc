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
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "arena/anchors.h"
#include "arena/arena.h"
#include "arena/gating.h"
#include "arena/ratings.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "launcher/progress.h"
#include "tools/command_util.h"

namespace renju::commands {
namespace {

// Builds the players of a match; models with the same checkpoint share one
// evaluator.
class PlayerFactory {
 public:
  PlayerFactory(const pb::RunConfig& config, const Args& args)
      : config_(config), args_(args) {}

  absl::StatusOr<std::unique_ptr<ArenaPlayer>> Make(const std::string& spec) {
    if (spec == "random") return std::make_unique<RandomPlayer>();
    if (spec == "tactical") return std::make_unique<TacticalPlayer>();
    if (absl::StartsWith(spec, "model:")) {
      const std::string path(absl::StripPrefix(spec, "model:"));
      return MakeModel(path, path.empty() ? "model:fresh" : spec);
    }
    if (absl::StartsWith(spec, "engine:")) return MakeEngine(spec);
    return absl::InvalidArgumentError(
        absl::StrCat("arena: player '", spec,
                     "' is not model:PATH, engine:COMMAND LINE, tactical or "
                     "random"));
  }

 private:
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeModel(
      const std::string& path, const std::string& name) {
    std::shared_ptr<EvaluatorStack>& stack = stacks_[path];
    if (stack == nullptr) {
      absl::StatusOr<std::unique_ptr<EvaluatorStack>> created =
          CreateEvaluatorStack(config_, config_.selfplay().evaluator(), path,
                               static_cast<uint64_t>(args_.GetInt("seed")));
      if (!created.ok()) {
        return absl::Status(
            created.status().code(),
            absl::StrCat("arena: ", name, ": ", created.status().message()));
      }
      stack = std::move(*created);
    }
    pb::SearchConfig search = config_.arena().search();
    if (args_.IsSet("visits")) search.set_visits(args_.GetInt("visits"));
    if (args_.IsSet("time-ms")) search.set_time_ms(args_.GetInt("time-ms"));
    if (args_.IsSet("opening-visits")) {
      search.set_opening_candidate_visits(args_.GetInt("opening-visits"));
    }
    const SearchParams params = ToSearchParams(search);
    if (absl::Status s = params.Validate(); !s.ok()) return s;
    const OpeningParams opening = ToOpeningParams(search);
    if (absl::Status s = opening.Validate(); !s.ok()) return s;
    return std::make_unique<ModelPlayer>(name, stack, params, opening);
  }

  absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeEngine(
      const std::string& spec) {
    GomocupClientOptions options;
    options.turn_time_ms = args_.GetInt("engine-turn-ms");
    if (options.turn_time_ms == 0) {
      const int64_t time_ms = config_.arena().search().time_ms();
      options.turn_time_ms = time_ms > 0 ? time_ms : 1000;
    }
    options.max_nodes = args_.GetInt("engine-max-nodes");
    options.startup_ms = args_.GetInt("engine-startup-ms");
    options.discard_stderr = !args_.GetBool("engine-stderr");
    absl::StatusOr<std::unique_ptr<EnginePlayer>> engine = MakeEnginePlayer(
        spec, absl::StripPrefix(spec, "engine:"), std::move(options));
    if (!engine.ok()) {
      return absl::Status(engine.status().code(),
                          absl::StrCat("arena: ", engine.status().message()));
    }
    return *std::move(engine);
  }

  const pb::RunConfig& config_;
  const Args& args_;
  std::map<std::string, std::shared_ptr<EvaluatorStack>> stacks_;
};

absl::StatusOr<std::vector<ArenaOpening>> Openings(const pb::RunConfig& config,
                                                   const Args& args,
                                                   uint64_t seed) {
  const std::string source = args.GetString("openings");
  if (source == "canonical") {
    return CanonicalArenaOpenings(seed, config.board_size());
  }
  OpeningFormat format;
  absl::StatusOr<OpeningNotation> notation =
      ParseOpeningNotation(args.GetString("notation"));
  if (!notation.ok()) return notation.status();
  format.notation = *notation;
  const std::string rows = args.GetString("pos-rows");
  if (rows != "top" && rows != "bottom") {
    return absl::InvalidArgumentError(
        absl::StrCat("arena: --pos-rows '", rows, "' must be top or bottom"));
  }
  format.pos_rows = rows == "top" ? PosRows::kFromTop : PosRows::kFromBottom;
  format.variant = VariantOf(config);
  format.size = config.board_size();
  return ArenaOpeningsFromFile(source, format);
}

// How RunMatchAndSave saves and reports a match of `options`, stopped by
// an interrupt.
CheckpointMatchOptions SaveOptions(
    const ArenaOptions& options,
    std::function<void(const ArenaSummary&)> on_pair) {
  CheckpointMatchOptions save;
  save.out_dir = options.out_dir;
  save.seed = options.seed;
  save.stop = &interrupted;
  save.on_pair = std::move(on_pair);
  return save;
}

// "" = no SPRT; "config" = the config's; "elo0,elo1" with its alpha, beta.
absl::StatusOr<std::optional<SprtParams>> Sprt(const pb::RunConfig& config,
                                               const std::string& text) {
  if (text.empty()) return std::nullopt;
  SprtParams sprt;
  sprt.elo0 = config.arena().sprt_elo0();
  sprt.elo1 = config.arena().sprt_elo1();
  sprt.alpha = config.arena().sprt_alpha();
  sprt.beta = config.arena().sprt_beta();
  if (text != "config") {
    const std::vector<std::string> parts = absl::StrSplit(text, ',');
    if (parts.size() != 2 || !absl::SimpleAtod(parts[0], &sprt.elo0) ||
        !absl::SimpleAtod(parts[1], &sprt.elo1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("arena: --sprt '", text,
                       "' must be ELO0,ELO1 (e.g. 0,35) or config"));
    }
  }
  if (absl::Status s = sprt.Validate(); !s.ok()) return s;
  return sprt;
}

absl::StatusOr<ArenaOptions> MatchOptions(const pb::RunConfig& config,
                                          const Args& args) {
  ArenaOptions options;
  options.seed = static_cast<uint64_t>(args.GetInt("seed"));
  options.variant = VariantOf(config);
  options.board_size = config.board_size();
  absl::StatusOr<std::vector<ArenaOpening>> openings =
      Openings(config, args, options.seed);
  if (!openings.ok()) return openings.status();
  options.openings = *std::move(openings);
  options.max_games =
      args.IsSet("games") ? args.GetInt("games") : config.arena().games();
  options.concurrent_games = static_cast<int>(
      args.IsSet("concurrent") ? args.GetInt("concurrent")
                               : config.arena().concurrent_games());
  options.max_plies =
      static_cast<int>(args.IsSet("max-plies") ? args.GetInt("max-plies")
                                               : config.selfplay().max_plies());
  absl::StatusOr<std::optional<SprtParams>> sprt =
      Sprt(config, args.GetString("sprt"));
  if (!sprt.ok()) return sprt.status();
  options.sprt = *sprt;
  options.out_dir = args.GetString("out");
  if (const std::string rule = args.GetString("opening-rule"); !rule.empty()) {
    absl::StatusOr<OpeningRule> parsed = ParseOpeningRule(rule);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("arena: --opening-rule: ", parsed.status().message()));
    }
    options.opening_rule = *parsed;
  }
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return options;
}

int RunMatch(const pb::RunConfig& config, const Args& args) {
  absl::StatusOr<ArenaOptions> options = MatchOptions(config, args);
  if (!options.ok()) return Fail(options.status());
  PlayerFactory factory(config, args);
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> a =
      factory.Make(args.GetString("a"));
  if (!a.ok()) return Fail(a.status());
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> b =
      factory.Make(args.GetString("b"));
  if (!b.ok()) return Fail(b.status());

  ProgressLine progress;
  auto on_pair = [&](const ArenaSummary& s) {
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
      RunMatchAndSave(*options, **a, **b, SaveOptions(*options, on_pair));
  if (!summary.ok()) return Fail(summary.status());
  progress.Finish(ArenaProgressLine(*summary));
  std::printf("%s", ArenaReport(*summary).c_str());
  if (!options->out_dir.empty()) {
    std::printf("games and summary.json in %s\n", options->out_dir.c_str());
  }
  return summary->stop_reason == "interrupted" ? 130 : 0;
}

// The anchors' config: valid, with anchors, for the same game as `config`,
// its checkpoints present.
absl::StatusOr<pb::RunConfig> LoadAnchors(const pb::RunConfig& config,
                                          const std::string& path) {
  absl::StatusOr<pb::RunConfig> anchors = LoadRunConfig(path);
  if (!anchors.ok()) return anchors.status();
  if (anchors->arena().anchors_size() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("arena: --anchors-from ", path, " has no arena.anchors"));
  }
  if (anchors->variant() != config.variant() ||
      anchors->board_size() != config.board_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "arena: --anchors-from ", path, " plays ", anchors->variant(), " on ",
        anchors->board_size(), " x ", anchors->board_size(),
        "; the --config plays ", config.variant(), " on ", config.board_size(),
        " x ", config.board_size()));
  }
  if (absl::Status s = CheckAnchorFiles(anchors->arena()); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("arena: --anchors-from ", path,
                                               ": ", s.message()));
  }
  return anchors;
}

// Plays A against anchor `index` of `anchors`; the match's result with A as
// generation 0 (ComputeRatings rates generations; no generation of a run
// is involved here).
absl::StatusOr<MatchResult> PlayAnchor(const pb::RunConfig& anchors, int index,
                                       ArenaOptions options, ArenaPlayer& a,
                                       uint64_t seed) {
  const pb::AnchorPlayer& anchor = anchors.arena().anchors(index);
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> b =
      MakeAnchorPlayer(anchors, index, seed);
  if (!b.ok()) return b.status();
  if (!options.out_dir.empty()) {
    options.out_dir = (std::filesystem::path(options.out_dir) /
                       absl::StrCat("vs-", anchor.name()))
                          .string();
  }
  ProgressLine progress(stdout);  // its final line is the match's result
  const std::string prefix =
      absl::StrFormat("vs %s (elo %+.0f): ", anchor.name(), anchor.elo());
  auto on_pair = [&](const ArenaSummary& s) {
    // The last pair's line is the final one, written once by Finish.
    if (s.games < s.max_games) progress.Update(prefix + ArenaProgressLine(s));
  };
  absl::StatusOr<ArenaSummary> summary =
      RunMatchAndSave(options, a, **b, SaveOptions(options, on_pair));
  if (!summary.ok()) return summary.status();
  progress.Finish(prefix + ArenaProgressLine(*summary));
  return AnchorMatchResultFromSummary(*summary, 0, anchor.name(), 0);
}

int RateAgainstAnchors(const pb::RunConfig& config, const Args& args) {
  const std::string path = args.GetString("anchors-from");
  absl::StatusOr<pb::RunConfig> anchors = LoadAnchors(config, path);
  if (!anchors.ok()) return Fail(anchors.status());
  absl::StatusOr<ArenaOptions> options = MatchOptions(config, args);
  if (!options.ok()) return Fail(options.status());
  if (!args.IsSet("games")) {
    options->max_games = anchors->arena().anchor_games();
  }
  // Every anchor match plays its full length, as the trainer's do: an SPRT
  // stop would rate A on fewer games against one anchor than another.
  options->sprt.reset();
  PlayerFactory factory(config, args);
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> a =
      factory.Make(args.GetString("a"));
  if (!a.ok()) return Fail(a.status());

  std::vector<MatchResult> results;
  for (int i = 0; i < anchors->arena().anchors_size() && !interrupted; ++i) {
    const pb::AnchorPlayer& anchor = anchors->arena().anchors(i);
    if (!anchor.has_elo()) {
      std::printf(
          "skipping anchor %s: without a fixed elo its games cannot "
          "place A\n",
          anchor.name().c_str());
      continue;
    }
    absl::StatusOr<MatchResult> result =
        PlayAnchor(*anchors, i, *options, **a, options->seed);
    if (!result.ok()) return Fail(result.status());
    results.push_back(*result);
  }
  RatingOptions rating;
  rating.anchors = RatingAnchorsOf(anchors->arena());
  absl::StatusOr<RatingTable> table = ComputeRatings(results, rating);
  if (!table.ok()) return Fail(table.status());
  if (table->ratings.empty()) {
    return Fail(
        absl::FailedPreconditionError("arena: no anchor game finished"));
  }
  const Rating& rated = table->ratings.front();
  std::printf(
      "%s: elo %+.0f ± %.0f (95%%) on the anchors' scale of %s, "
      "%lld games, %.1f%% of the points\n",
      (*a)->name().c_str(), rated.elo, rated.elo_error, path.c_str(),
      static_cast<long long>(rated.games),
      100 * rated.points / std::max<int64_t>(1, rated.games));
  if (!options->out_dir.empty()) {
    std::printf("games and summary.json in %s/vs-<anchor>\n",
                options->out_dir.c_str());
  }
  return interrupted ? 130 : 0;
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
