#include "arena/anchors.h"

#include <filesystem>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "nn/checkpoint.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

std::string FieldPath(int index, const char* field) {
  return absl::StrCat("arena.anchors[", index, "].", field);
}

// The checkpoint's own network shape, so an anchor need not have the run's.
absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeModelAnchor(
    const pb::RunConfig& config, int index, uint64_t seed) {
  const pb::AnchorPlayer& anchor = config.arena().anchors(index);
  const std::string& path = anchor.model().path();
  const std::string where = FieldPath(index, "model.path");
  absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(path);
  if (!checkpoint.ok()) {
    return absl::Status(
        checkpoint.status().code(),
        absl::StrCat(where, ": ", checkpoint.status().message()));
  }
  if (checkpoint->info.config.board_size != config.board_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": ", path, " is a network for ",
        checkpoint->info.config.board_size, " x ",
        checkpoint->info.config.board_size, " boards; the run plays ",
        config.board_size(), " x ", config.board_size()));
  }
  absl::StatusOr<EvaluatorStackOptions> options =
      ToEvaluatorStackOptions(config, config.selfplay().evaluator());
  if (!options.ok()) return options.status();
  options->network = checkpoint->info.config;
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> stack =
      EvaluatorStack::Create(*options, path, seed);
  if (!stack.ok()) {
    return absl::Status(stack.status().code(),
                        absl::StrCat(where, ": ", stack.status().message()));
  }
  pb::SearchConfig search = config.arena().search();
  search.set_visits(anchor.model().visits());
  search.set_time_ms(0);
  return std::make_unique<ModelPlayer>(anchor.name(), *std::move(stack),
                                       ToSearchParams(search));
}

absl::StatusOr<std::unique_ptr<EnginePlayer>> MakeEngineAnchor(
    const pb::AnchorPlayer& anchor) {
  const pb::EngineAnchor& engine = anchor.engine();
  GomocupClientOptions options;
  options.working_dir = engine.working_dir();
  options.turn_time_ms = engine.turn_time_ms();
  options.match_time_ms = engine.match_time_ms();
  options.max_memory_bytes = engine.max_memory_bytes();
  options.startup_ms = engine.startup_ms();
  options.discard_stderr = true;
  return MakeEnginePlayer(anchor.name(), engine.command(), std::move(options));
}

}  // namespace

bool AnchorsDue(const pb::ArenaConfig& arena, int64_t generation) {
  return arena.anchors_size() > 0 &&
         generation % arena.anchor_every_generations() == 0;
}

absl::Status CheckAnchorFiles(const pb::ArenaConfig& arena) {
  for (int i = 0; i < arena.anchors_size(); ++i) {
    if (!arena.anchors(i).has_model()) continue;
    const std::string& path = arena.anchors(i).model().path();
    std::error_code error;
    if (fs::is_regular_file(path, error)) continue;
    return absl::NotFoundError(absl::StrCat(
        FieldPath(i, "model.path"), ": no checkpoint file '", path, "'",
        fs::path(path).is_relative()
            ? absl::StrCat(" (relative to the working directory ",
                           fs::current_path(error).string(), ")")
            : ""));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ArenaPlayer>> MakeAnchorPlayer(
    const pb::RunConfig& config, int index, uint64_t seed) {
  const pb::AnchorPlayer& anchor = config.arena().anchors(index);
  switch (anchor.player_case()) {
    case pb::AnchorPlayer::kTactical:
      return std::make_unique<TacticalPlayer>(anchor.name());
    case pb::AnchorPlayer::kModel:
      return MakeModelAnchor(config, index, seed);
    case pb::AnchorPlayer::kEngine:
      return MakeEngineAnchor(anchor);
    case pb::AnchorPlayer::PLAYER_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "arena.anchors[", index, "]: set one of tactical, model or engine"));
}

absl::StatusOr<ArenaSummary> RunAnchorMatch(
    const pb::RunConfig& config, ArenaPlayer& player, ArenaPlayer& anchor,
    const CheckpointMatchOptions& options) {
  ArenaOptions arena = ArenaOptionsFrom(config, options.seed);
  arena.max_games = config.arena().anchor_games();
  arena.sprt.reset();
  return RunMatchAndSave(std::move(arena), player, anchor, options);
}

}  // namespace renju
