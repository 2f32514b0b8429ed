#include "arena/gating.h"

#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_util.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "nlohmann/json.hpp"

namespace renju {
namespace {

std::string PlayerName(const std::string& checkpoint) {
  return absl::StrCat("model:", checkpoint.empty() ? "fresh" : checkpoint);
}

absl::StatusOr<std::shared_ptr<EvaluatorStack>> LoadStack(
    const pb::RunConfig& config, const std::string& checkpoint, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack = CreateEvaluatorStack(
      config, config.selfplay().evaluator(), checkpoint, seed);
  if (!stack.ok()) {
    return absl::Status(stack.status().code(),
                        absl::StrCat("arena: loading ", PlayerName(checkpoint),
                                     ": ", stack.status().message()));
  }
  return std::shared_ptr<EvaluatorStack>(std::move(*stack));
}

}  // namespace

ArenaOptions ArenaOptionsFrom(const pb::RunConfig& config, uint64_t seed) {
  const pb::ArenaConfig& arena = config.arena();
  ArenaOptions options;
  options.variant = VariantOf(config);
  options.board_size = config.board_size();
  options.openings = CanonicalArenaOpenings(seed, config.board_size());
  options.max_games = arena.games();
  options.concurrent_games = arena.concurrent_games();
  options.max_plies = config.selfplay().max_plies();
  SprtParams sprt;
  sprt.elo0 = arena.sprt_elo0();
  sprt.elo1 = arena.sprt_elo1();
  sprt.alpha = arena.sprt_alpha();
  sprt.beta = arena.sprt_beta();
  options.sprt = sprt;
  options.seed = seed;
  return options;
}

absl::StatusOr<ArenaSummary> RunCheckpointMatch(
    const pb::RunConfig& config, const std::string& a, const std::string& b,
    const CheckpointMatchOptions& options) {
  absl::StatusOr<std::shared_ptr<EvaluatorStack>> stack_a =
      LoadStack(config, a, options.seed);
  if (!stack_a.ok()) return stack_a.status();
  std::shared_ptr<EvaluatorStack> stack_b = *stack_a;
  if (b != a) {
    absl::StatusOr<std::shared_ptr<EvaluatorStack>> loaded =
        LoadStack(config, b, options.seed + 1);
    if (!loaded.ok()) return loaded.status();
    stack_b = *std::move(loaded);
  }
  const SearchParams search = ToSearchParams(config.arena().search());
  ModelPlayer player_a(PlayerName(a), *stack_a, search);
  ModelPlayer player_b(PlayerName(b), stack_b, search);
  return RunMatchAndSave(ArenaOptionsFrom(config, options.seed), player_a,
                         player_b, options);
}

absl::StatusOr<std::unique_ptr<ModelPlayer>> MakeCheckpointPlayer(
    const pb::RunConfig& config, const std::string& path, uint64_t seed) {
  absl::StatusOr<std::shared_ptr<EvaluatorStack>> stack =
      LoadStack(config, path, seed);
  if (!stack.ok()) return stack.status();
  return std::make_unique<ModelPlayer>(PlayerName(path), *std::move(stack),
                                       ToSearchParams(config.arena().search()));
}

absl::StatusOr<ArenaSummary> RunMatchAndSave(
    ArenaOptions arena, ArenaPlayer& a, ArenaPlayer& b,
    const CheckpointMatchOptions& options) {
  arena.out_dir = options.out_dir;
  ArenaCallbacks callbacks;
  callbacks.on_pair = options.on_pair;
  absl::StatusOr<ArenaSummary> summary =
      RunArenaMatch(arena, a, b, callbacks, options.stop);
  if (!summary.ok() || options.out_dir.empty()) return summary;
  const std::string path =
      (std::filesystem::path(options.out_dir) / "summary.json").string();
  if (absl::Status s = WriteFileAtomically(path, ArenaSummaryJson(*summary));
      !s.ok()) {
    return s;
  }
  return summary;
}

GateResult GateDecision(const ArenaSummary& summary,
                        const pb::ArenaConfig& arena) {
  GateResult result;
  result.played = true;
  result.summary = summary;
  result.summary_json = ArenaSummaryJson(summary);
  const double upper = summary.sprt ? summary.sprt->upper_bound() : 0;
  const double lower = summary.sprt ? summary.sprt->lower_bound() : 0;
  if (summary.stop_reason == "interrupted") {
    result.promote = false;
    result.rule = GateRule::kInterrupted;
    result.reason = "match interrupted";
  } else if (summary.decision == SprtDecision::kAcceptH1) {
    result.promote = true;
    result.rule = GateRule::kSprt;
    result.reason = absl::StrFormat("SPRT accepted H1 (LLR %.2f >= %.2f)",
                                    summary.llr, upper);
  } else if (summary.decision == SprtDecision::kAcceptH0) {
    result.promote = false;
    result.rule = GateRule::kSprt;
    result.reason = absl::StrFormat("SPRT accepted H0 (LLR %.2f <= %.2f)",
                                    summary.llr, lower);
  } else {
    result.promote = summary.a_score() >= arena.promote_score();
    result.rule = GateRule::kPromoteScore;
    result.reason = absl::StrFormat(
        "no SPRT decision in %d games (LLR %.2f in (%.2f, %.2f)): score "
        "%.3f %s promote_score %.3f",
        summary.games, summary.llr, lower, upper, summary.a_score(),
        result.promote ? ">=" : "<", arena.promote_score());
  }
  return result;
}

std::string GateRuleName(GateRule rule) {
  switch (rule) {
    case GateRule::kGatingOff:
      return "gating_off";
    case GateRule::kSprt:
      return "sprt";
    case GateRule::kPromoteScore:
      return "promote_score";
    case GateRule::kInterrupted:
      return "interrupted";
  }
  return "?";
}

std::string GateResultJson(const GateResult& result) {
  nlohmann::ordered_json json =
      result.played ? nlohmann::ordered_json::parse(result.summary_json)
                    : nlohmann::ordered_json::object();
  json["gate"] = {{"promote", result.promote},
                  {"rule", GateRuleName(result.rule)},
                  {"reason", result.reason}};
  return json.dump(2) + "\n";
}

absl::Status CheckGatingCanDecide(const pb::ArenaConfig& arena) {
  if (!arena.gating()) return absl::OkStatus();
  const SprtParams sprt{arena.sprt_elo0(), arena.sprt_elo1(),
                        arena.sprt_alpha(), arena.sprt_beta()};
  if (absl::Status s = sprt.Validate(); !s.ok()) return s;
  const int64_t pairs = arena.games() / 2;
  constexpr int64_t kMaxPairs = 50000;  // arena.games up to 100000
  if (SprtMinimumPairs(sprt, pairs) > 0) return absl::OkStatus();
  const auto [won, lost] = SprtLlrExtremes(sprt, pairs);
  const int64_t needed = SprtMinimumPairs(sprt, kMaxPairs);
  const std::string fix =
      needed > 0 ? absl::StrCat("the smallest arena.games that can decide is ",
                                2 * needed)
                 : absl::StrCat("no arena.games up to ", 2 * kMaxPairs,
                                " can; widen sprt_elo0..sprt_elo1 or raise "
                                "sprt_alpha, sprt_beta");
  return absl::InvalidArgumentError(absl::StrFormat(
      "arena.games = %d cannot decide the gating SPRT (arena.sprt_elo0 %g, "
      "sprt_elo1 %g, sprt_alpha %g, sprt_beta %g): every result of %d games "
      "has an LLR in [%.2f, %.2f], inside the bounds [%.2f, %.2f], so "
      "gating would always fall through to promote_score; %s (or set "
      "arena.gating: false)",
      arena.games(), arena.sprt_elo0(), arena.sprt_elo1(), arena.sprt_alpha(),
      arena.sprt_beta(), arena.games(), lost, won, sprt.lower_bound(),
      sprt.upper_bound(), fix));
}

absl::StatusOr<GateResult> RunGatingMatch(
    const pb::RunConfig& config, const std::string& candidate_checkpoint,
    const std::string& best_checkpoint, const CheckpointMatchOptions& options) {
  if (!config.arena().gating()) {
    GateResult result;
    result.reason = "gating off: always promote";
    return result;
  }
  if (absl::Status s = CheckGatingCanDecide(config.arena()); !s.ok()) {
    return s;
  }
  absl::StatusOr<ArenaSummary> summary = RunCheckpointMatch(
      config, candidate_checkpoint, best_checkpoint, options);
  if (!summary.ok()) return summary.status();
  return GateDecision(*summary, config.arena());
}

}  // namespace renju
