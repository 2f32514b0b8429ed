#include "arena/match_setup.h"

#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "arena/opening_book.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "gomocup/gomocup_client.h"
#include "rules/opening.h"
#include "search/opening_player.h"
#include "search/search_params.h"

namespace renju {
namespace {

absl::StatusOr<std::vector<ArenaOpening>> Openings(const pb::RunConfig& config,
                                                   const MatchSetup& setup) {
  if (setup.openings == "canonical") {
    return CanonicalArenaOpenings(setup.seed, config.board_size());
  }
  OpeningFormat format;
  absl::StatusOr<OpeningNotation> notation =
      ParseOpeningNotation(setup.notation);
  if (!notation.ok()) return notation.status();
  format.notation = *notation;
  const std::string& rows = setup.pos_rows;
  if (rows != "top" && rows != "bottom") {
    return absl::InvalidArgumentError(
        absl::StrCat("arena: --pos-rows '", rows, "' must be top or bottom"));
  }
  format.pos_rows = rows == "top" ? PosRows::kFromTop : PosRows::kFromBottom;
  format.variant = VariantOf(config);
  format.size = config.board_size();
  return ArenaOpeningsFromFile(setup.openings, format);
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

}  // namespace

absl::StatusOr<std::unique_ptr<ArenaPlayer>> PlayerFactory::Make(
    const std::string& spec) {
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

absl::StatusOr<std::unique_ptr<ArenaPlayer>> PlayerFactory::MakeModel(
    const std::string& path, const std::string& name) {
  std::shared_ptr<EvaluatorStack>& stack = stacks_[path];
  if (stack == nullptr) {
    absl::StatusOr<std::unique_ptr<EvaluatorStack>> created =
        CreateEvaluatorStack(config_, config_.selfplay().evaluator(), path,
                             options_.seed);
    if (!created.ok()) {
      return absl::Status(
          created.status().code(),
          absl::StrCat("arena: ", name, ": ", created.status().message()));
    }
    stack = std::move(*created);
  }
  pb::SearchConfig search = config_.arena().search();
  if (options_.visits.has_value()) search.set_visits(*options_.visits);
  if (options_.time_ms.has_value()) search.set_time_ms(*options_.time_ms);
  if (options_.opening_visits.has_value()) {
    search.set_opening_candidate_visits(*options_.opening_visits);
  }
  const SearchParams params = ToSearchParams(search);
  if (absl::Status s = params.Validate(); !s.ok()) return s;
  const OpeningParams opening = ToOpeningParams(search);
  if (absl::Status s = opening.Validate(); !s.ok()) return s;
  return std::make_unique<ModelPlayer>(name, stack, params, opening);
}

absl::StatusOr<std::unique_ptr<ArenaPlayer>> PlayerFactory::MakeEngine(
    const std::string& spec) {
  GomocupClientOptions options;
  options.turn_time_ms = options_.engine_turn_ms;
  if (options.turn_time_ms == 0) {
    const int64_t time_ms = config_.arena().search().time_ms();
    options.turn_time_ms = time_ms > 0 ? time_ms : 1000;
  }
  options.max_nodes = options_.engine_max_nodes;
  options.startup_ms = options_.engine_startup_ms;
  options.discard_stderr = !options_.engine_stderr;
  absl::StatusOr<std::unique_ptr<EnginePlayer>> engine = MakeEnginePlayer(
      spec, absl::StripPrefix(spec, "engine:"), std::move(options));
  if (!engine.ok()) {
    return absl::Status(engine.status().code(),
                        absl::StrCat("arena: ", engine.status().message()));
  }
  return *std::move(engine);
}

absl::StatusOr<ArenaOptions> MatchOptionsFromSetup(const pb::RunConfig& config,
                                                   const MatchSetup& setup) {
  ArenaOptions options;
  options.seed = setup.seed;
  options.variant = VariantOf(config);
  options.board_size = config.board_size();
  absl::StatusOr<std::vector<ArenaOpening>> openings = Openings(config, setup);
  if (!openings.ok()) return openings.status();
  options.openings = *std::move(openings);
  options.max_games = setup.games.value_or(config.arena().games());
  options.concurrent_games = static_cast<int>(
      setup.concurrent_games.value_or(config.arena().concurrent_games()));
  options.max_plies =
      static_cast<int>(setup.max_plies.value_or(config.selfplay().max_plies()));
  absl::StatusOr<std::optional<SprtParams>> sprt = Sprt(config, setup.sprt);
  if (!sprt.ok()) return sprt.status();
  options.sprt = *sprt;
  options.out_dir = setup.out_dir;
  if (!setup.opening_rule.empty()) {
    absl::StatusOr<OpeningRule> parsed = ParseOpeningRule(setup.opening_rule);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("arena: --opening-rule: ", parsed.status().message()));
    }
    options.opening_rule = *parsed;
  }
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return options;
}

}  // namespace renju
