#include "trainer/ratings.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/file_util.h"
#include "base/run_folder.h"
#include "nlohmann/json.hpp"

namespace renju {
namespace {

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

int64_t FirstCreated(const RatingTable& table) {
  int64_t first = 0;
  for (const Rating& r : table.ratings) {
    if (r.created_unix_ms > 0 && (first == 0 || r.created_unix_ms < first)) {
      first = r.created_unix_ms;
    }
  }
  return first;
}

// "62.5%" of the points, "-" without games.
std::string Score(const Rating& r) {
  return r.games > 0 ? absl::StrFormat("%.1f%%", 100 * r.points / r.games)
                     : "-";
}

// The "gate" rule of a registry match summary (arena/gating.h
// GateResultJson); "" for none or for text that is not such JSON.
std::string DecidedBy(const std::string& match_summary) {
  if (match_summary.empty()) return "";
  const nlohmann::json json =
      nlohmann::json::parse(match_summary, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("gate")) return "";
  const nlohmann::json& gate = json["gate"];
  return gate.is_object() && gate.contains("rule") && gate["rule"].is_string()
             ? gate["rule"].get<std::string>()
             : "";
}

}  // namespace

void AttachModels(const std::vector<ModelEntry>& models, RatingTable& table) {
  std::set<int64_t> unrated(table.unrated.begin(), table.unrated.end());
  for (const ModelEntry& model : models) {
    auto it = std::find_if(
        table.ratings.begin(), table.ratings.end(),
        [&](const Rating& r) { return r.generation == model.generation; });
    if (it == table.ratings.end()) {
      unrated.insert(model.generation);
      continue;
    }
    it->created_unix_ms = model.created_unix_ms;
    it->training_step = model.training_step;
    it->games_seen = model.games_seen;
    it->status = model.status;
    it->decided_by = DecidedBy(model.match_summary);
  }
  table.unrated.assign(unrated.begin(), unrated.end());
}

absl::Status StoreRatings(GameStore& store, const RatingTable& table) {
  absl::StatusOr<std::vector<ModelEntry>> models = store.Models();
  if (!models.ok()) return models.status();
  for (ModelEntry& model : *models) {
    for (const Rating& r : table.ratings) {
      if (r.generation != model.generation) continue;
      model.elo = r.elo;
      if (absl::Status s = store.UpdateModel(model); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

std::string RatingsText(const RatingTable& table) {
  std::string text =
      absl::StrFormat("%5s %8s %7s %6s %6s %8s %7s  %s\n", "gen", "elo", "±95%",
                      "games", "score", "step", "hours", "status");
  const int64_t first = FirstCreated(table);
  for (const Rating& r : table.ratings) {
    const std::string error = r.generation == table.anchor_generation
                                  ? std::string("anchor")
                                  : absl::StrFormat("%.0f", r.elo_error);
    const std::string hours =
        r.created_unix_ms > 0 && first > 0
            ? absl::StrFormat("%.2f", (r.created_unix_ms - first) / 3.6e6)
            : "-";
    const std::string status =
        r.decided_by.empty() ? r.status
                             : absl::StrCat(r.status, " (", r.decided_by, ")");
    absl::StrAppendFormat(&text, "%5d %+8.0f %7s %6d %6s %8d %7s  %s\n",
                          r.generation, r.elo, error, r.games, Score(r),
                          r.training_step, hours, status);
  }
  if (!table.unrated.empty()) {
    absl::StrAppend(&text, "unrated: ", absl::StrJoin(table.unrated, ", "),
                    "\n");
  }
  if (table.anchors.empty() && table.unrated_anchors.empty()) return text;
  absl::StrAppendFormat(&text, "%-16s %8s %7s %6s %6s\n", "anchor", "elo",
                        "±95%", "games", "score");
  for (const Rating& r : table.anchors) {
    const std::string error =
        r.fixed ? std::string("fixed") : absl::StrFormat("%.0f", r.elo_error);
    absl::StrAppendFormat(&text, "%-16s %+8.0f %7s %6d %6s\n", r.anchor, r.elo,
                          error, r.games, Score(r));
  }
  if (!table.unrated_anchors.empty()) {
    absl::StrAppend(&text, "unrated anchors: ",
                    absl::StrJoin(table.unrated_anchors, ", "), "\n");
  }
  return text;
}

std::string RatingsSummary(const RatingTable& table) {
  auto describe = [&](const Rating& r) {
    return r.generation == table.anchor_generation
               ? absl::StrFormat("%d %+.0f (the scale's anchor)", r.generation,
                                 r.elo)
               : absl::StrFormat("%d %+.0f ± %.0f", r.generation, r.elo,
                                 r.elo_error);
  };
  std::string line = absl::StrCat(table.ratings.size(), " generations rated");
  auto best = std::find_if(table.ratings.begin(), table.ratings.end(),
                           [](const Rating& r) { return r.status == "best"; });
  if (best != table.ratings.end()) {
    absl::StrAppend(&line, ", best ", describe(*best));
  }
  if (!table.ratings.empty()) {
    absl::StrAppend(&line, ", newest ", describe(table.ratings.back()));
  }
  if (!table.unrated.empty()) {
    absl::StrAppend(&line, "; unrated ", absl::StrJoin(table.unrated, ", "));
  }
  if (!table.anchors.empty()) {
    absl::StrAppend(&line, "; ", table.anchors.size(), " anchors");
  }
  return line;
}

std::string RatingsCsv(const RatingTable& table) {
  std::string csv =
      "generation,elo,elo_error,games,points,training_step,created_unix_ms,"
      "status,anchor\n";
  for (const Rating& r : table.ratings) {
    absl::StrAppendFormat(&csv, "%d,%.3f,%.3f,%d,%.1f,%d,%d,%s,\n",
                          r.generation, r.elo, r.elo_error, r.games, r.points,
                          r.training_step, r.created_unix_ms,
                          CsvField(r.status));
  }
  for (const Rating& r : table.anchors) {
    absl::StrAppendFormat(&csv, ",%.3f,%.3f,%d,%.1f,,,%s,%s\n", r.elo,
                          r.elo_error, r.games, r.points, CsvField(r.status),
                          CsvField(r.anchor));
  }
  return csv;
}

std::string RatingsJson(const RatingTable& table) {
  nlohmann::ordered_json json;
  json["anchor_generation"] = nullptr;
  if (table.anchor_generation >= 0) {
    json["anchor_generation"] = table.anchor_generation;
  }
  json["ratings"] = nlohmann::ordered_json::array();
  for (const Rating& r : table.ratings) {
    json["ratings"].push_back({{"generation", r.generation},
                               {"elo", r.elo},
                               {"elo_error", r.elo_error},
                               {"games", r.games},
                               {"points", r.points},
                               {"training_step", r.training_step},
                               {"created_unix_ms", r.created_unix_ms},
                               {"games_seen", r.games_seen},
                               {"status", r.status},
                               {"decided_by", r.decided_by}});
  }
  json["anchors"] = nlohmann::ordered_json::array();
  for (const Rating& r : table.anchors) {
    json["anchors"].push_back({{"name", r.anchor},
                               {"elo", r.elo},
                               {"elo_error", r.elo_error},
                               {"games", r.games},
                               {"points", r.points},
                               {"fixed", r.fixed}});
  }
  json["unrated"] = table.unrated;
  json["unrated_anchors"] = table.unrated_anchors;
  return json.dump(2) + "\n";
}

absl::StatusOr<RatingTable> UpdateRatings(GameStore& store, MatchStore& matches,
                                          const std::string& dir,
                                          const RatingOptions& options) {
  absl::StatusOr<std::vector<MatchResult>> all = matches.Matches();
  if (!all.ok()) return all.status();
  absl::StatusOr<RatingTable> table = ComputeRatings(*all, options);
  if (!table.ok()) return table.status();
  absl::StatusOr<std::vector<ModelEntry>> models = store.Models();
  if (!models.ok()) return models.status();
  AttachModels(*models, *table);
  if (absl::Status s = StoreRatings(store, *table); !s.ok()) return s;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::PermissionDeniedError(
        absl::StrCat("ratings: cannot create ", dir, ": ", error.message()));
  }
  const RunFolder run{dir};
  if (absl::Status s =
          WriteFileAtomically(run.ratings_csv().string(), RatingsCsv(*table));
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          WriteFileAtomically(run.ratings_json().string(), RatingsJson(*table));
      !s.ok()) {
    return s;
  }
  return table;
}

}  // namespace renju
