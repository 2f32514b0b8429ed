#include "trainer/publisher.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arena/anchors.h"
#include "arena/gating.h"
#include "base/logging.h"
#include "base/run_folder.h"
#include "rpc/sha256.h"
#include "trainer/plots.h"
#include "trainer/ratings.h"

namespace renju {

namespace fs = std::filesystem;

absl::Status Publisher::Publish(int64_t generation, const std::string& path,
                                int64_t step, int64_t games_seen) {
  absl::StatusOr<std::string> sha = Sha256OfFile(path);
  if (!sha.ok()) return sha.status();
  absl::StatusOr<std::optional<ModelEntry>> best = store_->BestModel();
  if (!best.ok()) return best.status();
  ModelEntry model;
  model.generation = generation;
  model.parent_generation = best->has_value() ? (*best)->generation : -1;
  model.training_step = step;
  model.games_seen = games_seen;
  model.path = path;
  model.sha256 = *sha;
  std::error_code size_error;
  const uintmax_t size = fs::file_size(path, size_error);
  if (size_error) {
    return absl::UnavailableError(absl::StrCat(
        "model ", path, ": cannot read its size: ", size_error.message()));
  }
  model.size_bytes = static_cast<int64_t>(size);
  model.created_unix_ms = NowUnixMs();
  model.status = best->has_value() ? "candidate" : "best";
  if (absl::Status s = RegisterOnce(model); !s.ok()) return s;
  if (!best->has_value()) {
    RENJU_LOG(INFO) << "generation " << generation << " registered as best";
    return absl::OkStatus();
  }

  // The match rates the generation and, with gating on, decides it.
  const bool play =
      config_.arena().gating() || config_.arena().rate_generations();
  if (play) {
    RENJU_LOG(INFO) << "generation " << generation << " plays generation "
                    << (*best)->generation << " (" << config_.arena().games()
                    << " games)";
    CheckpointMatchOptions options;
    options.out_dir = RunFolder{run_dir_}
                          .match(absl::StrCat("gen", generation, "-vs-gen",
                                              (*best)->generation))
                          .string();
    options.seed = config_.seed() + static_cast<uint64_t>(generation);
    options.stop = stop_;
    absl::StatusOr<ArenaSummary> summary =
        RunCheckpointMatch(config_, path, (*best)->path, options);
    if (!summary.ok()) return summary.status();
    GateResult gate;
    if (config_.arena().gating()) {
      gate = GateDecision(*summary, config_.arena());
    } else {
      gate.played = true;
      gate.reason = "gating off: always promote";
      gate.summary = *summary;
      gate.summary_json = ArenaSummaryJson(*summary);
    }
    if (absl::StatusOr<int64_t> id = matches_->AddMatch(MatchResultFromSummary(
            *summary, generation, (*best)->generation, NowUnixMs()));
        !id.ok()) {
      return id.status();
    }
    model.status = gate.promote ? "best" : "rejected";
    model.match_summary = GateResultJson(gate);
    RENJU_LOG(INFO) << "generation " << generation << " "
                    << (gate.promote ? "promoted" : "rejected") << " by "
                    << GateRuleName(gate.rule) << ": " << gate.reason;
  } else {
    model.status = "best";
  }
  // Before the verdict is stored: the launcher stops the run once the last
  // generation is decided.
  PlayAnchorMatches();
  if (absl::Status s = store_->UpdateModel(model); !s.ok()) return s;
  RefreshRatings();
  return absl::OkStatus();
}

absl::Status Publisher::RegisterOnce(const ModelEntry& model) {
  // The training loop retries a publish that met a full disk; the attempt
  // before may have registered the generation and failed later (in its
  // match). The same file is registered once; a different one is an error.
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return models.status();
  for (const ModelEntry& m : *models) {
    if (m.generation != model.generation) continue;
    if (m.sha256 == model.sha256) return absl::OkStatus();
    return absl::AlreadyExistsError(absl::StrCat(
        "generation ", model.generation, " is registered with sha256 ",
        m.sha256, ", not ", model.sha256));
  }
  return store_->RegisterModel(model);
}

void Publisher::PlayAnchorMatches() {
  const pb::ArenaConfig& arena = config_.arena();
  if (arena.anchors_size() == 0) return;
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  absl::StatusOr<std::vector<MatchResult>> matches = matches_->Matches();
  if (!models.ok() || !matches.ok()) {
    RENJU_LOG(WARNING) << "anchor matches skipped: "
                       << (models.ok() ? matches.status() : models.status());
    return;
  }
  std::set<std::pair<int64_t, std::string>> played;
  for (const MatchResult& m : *matches) {
    if (!m.anchor_b.empty()) played.insert({m.generation_a, m.anchor_b});
  }
  // Built when first needed, then shared by every generation.
  std::vector<std::unique_ptr<ArenaPlayer>> anchors(arena.anchors_size());
  for (const ModelEntry& model : *models) {
    if (!AnchorsDue(arena, model.generation)) continue;
    std::unique_ptr<ModelPlayer> player;
    for (int i = 0; i < arena.anchors_size(); ++i) {
      const std::string& name = arena.anchors(i).name();
      if (played.count({model.generation, name})) continue;
      if (failed_anchors_.count(name)) continue;
      if (stop_ != nullptr && stop_->load()) return;
      absl::Status s = PlayAnchorMatch(model, i, player, anchors[i]);
      if (!s.ok() && !(stop_ != nullptr && stop_->load())) {
        failed_anchors_.insert(name);
        RENJU_LOG(WARNING) << "generation " << model.generation
                           << " did not play anchor " << name << ": " << s
                           << "; this trainer will not try " << name
                           << " again until it restarts";
      }
    }
  }
}

absl::Status Publisher::PlayAnchorMatch(const ModelEntry& model, int index,
                                        std::unique_ptr<ModelPlayer>& player,
                                        std::unique_ptr<ArenaPlayer>& anchor) {
  const uint64_t seed =
      config_.seed() + static_cast<uint64_t>(model.generation);
  if (player == nullptr) {
    absl::StatusOr<std::unique_ptr<ModelPlayer>> loaded =
        MakeCheckpointPlayer(config_, model.path, seed);
    if (!loaded.ok()) return loaded.status();
    player = *std::move(loaded);
  }
  if (anchor == nullptr) {
    absl::StatusOr<std::unique_ptr<ArenaPlayer>> made =
        MakeAnchorPlayer(config_, index, config_.seed());
    if (!made.ok()) return made.status();
    anchor = *std::move(made);
  }
  const std::string& name = config_.arena().anchors(index).name();
  RENJU_LOG(INFO) << "generation " << model.generation << " plays anchor "
                  << name << " (" << config_.arena().anchor_games()
                  << " games)";
  CheckpointMatchOptions options;
  options.out_dir =
      RunFolder{run_dir_}
          .match(absl::StrCat("gen", model.generation, "-vs-", name))
          .string();
  options.seed = seed;
  options.stop = stop_;
  absl::StatusOr<ArenaSummary> summary =
      RunAnchorMatch(config_, *player, *anchor, options);
  if (!summary.ok()) return summary.status();
  if (summary->stop_reason == "interrupted") return absl::OkStatus();
  RENJU_LOG(INFO) << "generation " << model.generation << " vs " << name << ": "
                  << ArenaProgressLine(*summary);
  return matches_
      ->AddMatch(AnchorMatchResultFromSummary(*summary, model.generation, name,
                                              NowUnixMs()))
      .status();
}

void Publisher::RefreshRatings() {
  RatingOptions options;
  options.anchors = RatingAnchorsOf(config_.arena());
  absl::StatusOr<RatingTable> table =
      UpdateRatings(*store_, *matches_, run_dir_, options);
  if (!table.ok()) {
    RENJU_LOG(WARNING) << "ratings not updated: " << table.status();
    return;
  }
  // One line: the whole table every generation grew the log by megabytes
  // an hour; it is in ratings.csv and on the run page.
  RENJU_LOG(INFO) << "ratings: " << RatingsSummary(*table) << " ("
                  << RunFolder{run_dir_}.ratings_csv().string() << ")";
  absl::StatusOr<std::vector<std::string>> plots =
      WritePlots(run_dir_, *table, RunFolder{run_dir_}.training_csv().string());
  if (!plots.ok()) RENJU_LOG(WARNING) << "plots not drawn: " << plots.status();
}

}  // namespace renju
