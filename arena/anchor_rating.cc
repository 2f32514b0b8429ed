#include "arena/anchor_rating.h"

#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arena/anchors.h"
#include "arena/gating.h"
#include "config/config.h"

namespace renju {
namespace {

// Plays A against anchor `index` of `anchors`; the match's result with A as
// generation 0 (ComputeRatings rates generations; no generation of a run
// is involved here).
absl::StatusOr<MatchResult> PlayAnchor(const pb::RunConfig& anchors, int index,
                                       ArenaOptions options, ArenaPlayer& a,
                                       const std::atomic<bool>* stop,
                                       const AnchorRatingCallbacks& callbacks) {
  const pb::AnchorPlayer& anchor = anchors.arena().anchors(index);
  absl::StatusOr<std::unique_ptr<ArenaPlayer>> b =
      MakeAnchorPlayer(anchors, index, options.seed);
  if (!b.ok()) return b.status();
  if (!options.out_dir.empty()) {
    options.out_dir = (std::filesystem::path(options.out_dir) /
                       absl::StrCat("vs-", anchor.name()))
                          .string();
  }
  if (callbacks.on_start) callbacks.on_start(anchor);
  CheckpointMatchOptions save;
  save.out_dir = options.out_dir;
  save.seed = options.seed;
  save.stop = stop;
  if (callbacks.on_pair) {
    save.on_pair = [&](const ArenaSummary& s) { callbacks.on_pair(anchor, s); };
  }
  absl::StatusOr<ArenaSummary> summary = RunMatchAndSave(options, a, **b, save);
  if (!summary.ok()) return summary.status();
  if (callbacks.on_end) callbacks.on_end(anchor, *summary);
  return AnchorMatchResultFromSummary(*summary, 0, anchor.name(), 0);
}

}  // namespace

absl::StatusOr<pb::RunConfig> LoadAnchorConfig(const pb::RunConfig& config,
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

ArenaOptions AnchorMatchOptions(ArenaOptions match,
                                const pb::RunConfig& anchors,
                                bool games_given) {
  if (!games_given) match.max_games = anchors.arena().anchor_games();
  match.sprt.reset();
  return match;
}

absl::StatusOr<Rating> RateOnAnchors(const pb::RunConfig& anchors,
                                     const ArenaOptions& options,
                                     ArenaPlayer& player,
                                     const std::atomic<bool>* stop,
                                     const AnchorRatingCallbacks& callbacks) {
  std::vector<MatchResult> results;
  for (int i = 0;
       i < anchors.arena().anchors_size() && (stop == nullptr || !*stop); ++i) {
    const pb::AnchorPlayer& anchor = anchors.arena().anchors(i);
    if (!anchor.has_elo()) {
      if (callbacks.on_skip) callbacks.on_skip(anchor);
      continue;
    }
    absl::StatusOr<MatchResult> result =
        PlayAnchor(anchors, i, options, player, stop, callbacks);
    if (!result.ok()) return result.status();
    results.push_back(*result);
  }
  RatingOptions rating;
  rating.anchors = RatingAnchorsOf(anchors.arena());
  absl::StatusOr<RatingTable> table = ComputeRatings(results, rating);
  if (!table.ok()) return table.status();
  if (table->ratings.empty()) {
    return absl::FailedPreconditionError("arena: no anchor game finished");
  }
  return table->ratings.front();
}

}  // namespace renju
