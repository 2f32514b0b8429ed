#include "trainer/run_page.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/file_util.h"
#include "base/run_folder.h"
#include "http/http_server.h"
#include "proto/game.pb.h"
#include "rpc/game_record.h"
#include "rules/game.h"
#include "trainer/plots.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// How far back the live games-per-minute figure looks, and how long the
// page must have watched before it gives one.
constexpr int64_t kRateWindowMs = 5 * 60 * 1000;
constexpr int64_t kMinRateSpanMs = 10 * 1000;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Games per minute between two registry rows; null when the times do not
// allow it.
OrderedJson GamesPerMinute(int64_t games, int64_t ms) {
  if (ms <= 0 || games < 0) return nullptr;
  return games * 60000.0 / static_cast<double>(ms);
}

// ratings.json's generations, unrated generations and anchors into `out`.
void AddRatings(const fs::path& file, OrderedJson& out,
                std::vector<std::string>& problems) {
  out["generations"] = OrderedJson::array();
  out["unrated"] = OrderedJson::array();
  out["anchors"] = OrderedJson::array();
  absl::StatusOr<std::string> text = ReadFile(file.string());
  if (!text.ok()) {
    if (fs::exists(file))
      problems.push_back(std::string(text.status().message()));
    return;  // no match played yet
  }
  try {
    const Json ratings = Json::parse(*text);
    std::vector<Json> rows(ratings.at("ratings").begin(),
                           ratings.at("ratings").end());
    std::sort(rows.begin(), rows.end(), [](const Json& a, const Json& b) {
      return a.at("generation").get<int64_t>() <
             b.at("generation").get<int64_t>();
    });
    const Json* previous = nullptr;
    for (const Json& r : rows) {
      OrderedJson row = {
          {"generation", r.at("generation").get<int64_t>()},
          {"elo", r.at("elo").get<double>()},
          {"elo_error", r.at("elo_error").get<double>()},
          {"games", r.at("games").get<int64_t>()},
          {"points", r.at("points").get<double>()},
          {"status", r.value("status", "")},
          {"decided_by", r.value("decided_by", "")},
          {"training_step", r.value("training_step", int64_t{0})},
          {"created_unix_ms", r.value("created_unix_ms", int64_t{0})},
          {"games_seen", r.value("games_seen", int64_t{0})},
          {"games_per_minute", nullptr}};
      if (previous != nullptr && row["created_unix_ms"] > 0 &&
          previous->value("created_unix_ms", int64_t{0}) > 0) {
        row["games_per_minute"] =
            GamesPerMinute(row["games_seen"].get<int64_t>() -
                               previous->value("games_seen", int64_t{0}),
                           row["created_unix_ms"].get<int64_t>() -
                               previous->value("created_unix_ms", int64_t{0}));
      }
      out["generations"].push_back(std::move(row));
      previous = &r;
    }
    for (const Json& g : ratings.at("unrated")) {
      out["unrated"].push_back(g.get<int64_t>());
    }
    for (const Json& a : ratings.at("anchors")) {
      out["anchors"].push_back({{"name", a.at("name").get<std::string>()},
                                {"elo", a.at("elo").get<double>()},
                                {"elo_error", a.at("elo_error").get<double>()},
                                {"games", a.at("games").get<int64_t>()},
                                {"points", a.at("points").get<double>()},
                                {"fixed", a.at("fixed").get<bool>()}});
    }
  } catch (const Json::exception& e) {
    out["generations"] = OrderedJson::array();
    out["unrated"] = OrderedJson::array();
    out["anchors"] = OrderedJson::array();
    problems.push_back(absl::StrCat(file.string(), ": ", e.what()));
  }
}

// training.csv's losses, thinned to kMaxLossPoints.
void AddLosses(const fs::path& file, OrderedJson& out,
               std::vector<std::string>& problems) {
  out["losses"] = OrderedJson::array();
  if (!fs::exists(file)) return;  // no step logged yet
  absl::StatusOr<std::vector<LossRow>> rows = ReadLossCsv(file.string());
  if (!rows.ok()) {
    problems.push_back(std::string(rows.status().message()));
    return;
  }
  const size_t n = rows->size();
  const size_t stride =
      n <= kMaxLossPoints ? 1 : (n + kMaxLossPoints - 1) / kMaxLossPoints;
  for (size_t i = 0; i < n; i += stride) {
    // The newest row always goes: it is what the page shows as "now".
    const LossRow& row = (*rows)[i + stride >= n ? n - 1 : i];
    out["losses"].push_back({{"step", row.step},
                             {"policy_loss", row.policy_loss},
                             {"value_loss", row.value_loss}});
  }
}

// A match folder's name: gen<N>-vs-<opponent>, with N and the opponent
// read back; false for any other name.
bool ParseMatchName(const std::string& name, int64_t& generation,
                    std::string& opponent) {
  if (name.empty() || name.size() > 200 || !absl::StartsWith(name, "gen")) {
    return false;
  }
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  const size_t vs = name.find("-vs-");
  if (vs == std::string::npos || vs + 4 >= name.size() ||
      !absl::SimpleAtoi(name.substr(3, vs - 3), &generation) ||
      generation < 0 ||
      name.substr(vs + 4).find_first_not_of('.') == std::string::npos) {
    return false;
  }
  opponent = name.substr(vs + 4);
  return true;
}

// The .game files of a match folder, in game order.
std::vector<fs::path> MatchGames(const fs::path& dir) {
  std::vector<fs::path> games;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, "game-") && absl::EndsWith(name, ".game")) {
      games.push_back(entry.path());
    }
  }
  std::sort(games.begin(), games.end());
  return games;
}

void AddMatches(const fs::path& dir, OrderedJson& out) {
  struct Match {
    std::string name;
    int64_t generation;
    std::string opponent;
    size_t games;
  };
  std::vector<Match> matches;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    Match m;
    m.name = entry.path().filename().string();
    if (!entry.is_directory(error) ||
        !ParseMatchName(m.name, m.generation, m.opponent)) {
      continue;
    }
    m.games = MatchGames(entry.path()).size();
    matches.push_back(std::move(m));
  }
  // Newest first; a generation's rating match (against a generation)
  // before its anchor matches.
  auto rating_match = [](const Match& m) {
    int64_t g = 0;
    return absl::StartsWith(m.opponent, "gen") &&
           absl::SimpleAtoi(m.opponent.substr(3), &g);
  };
  std::sort(matches.begin(), matches.end(),
            [&](const Match& a, const Match& b) {
              if (a.generation != b.generation) {
                return a.generation > b.generation;
              }
              if (rating_match(a) != rating_match(b)) return rating_match(a);
              return a.name < b.name;
            });
  out["matches"] = OrderedJson::array();
  for (const Match& m : matches) {
    out["matches"].push_back({{"name", m.name},
                              {"generation", m.generation},
                              {"opponent", m.opponent},
                              {"games", m.games}});
  }
}

// "FORBIDDEN_MOVE" -> "forbidden move", as the rules name end reasons.
std::string EndReasonText(pb::EndReason reason) {
  if (reason == pb::END_REASON_UNSPECIFIED) return "none";
  return absl::StrReplaceAll(absl::AsciiStrToLower(pb::EndReason_Name(reason)),
                             {{"_", " "}});
}

std::string ResultText(pb::GameResult result) {
  switch (result) {
    case pb::BLACK_WIN:
      return "black";
    case pb::WHITE_WIN:
      return "white";
    case pb::DRAW:
      return "draw";
    default:
      return "unknown";
  }
}

// The live games-per-minute figure: samples of the stored game count as
// the page asks, over the last kRateWindowMs.
class GameRate {
 public:
  std::optional<double> Add(int64_t now_ms, int64_t games) {
    std::lock_guard<std::mutex> lock(mutex_);
    samples_.emplace_back(now_ms, games);
    while (samples_.size() > 2 && now_ms - samples_[1].first >= kRateWindowMs) {
      samples_.pop_front();
    }
    const int64_t span = now_ms - samples_.front().first;
    if (span < kMinRateSpanMs) return std::nullopt;
    return (games - samples_.front().second) * 60000.0 /
           static_cast<double>(span);
  }

 private:
  std::mutex mutex_;
  std::deque<std::pair<int64_t, int64_t>> samples_;  // (unix ms, games)
};

}  // namespace

OrderedJson RunJson(const std::string& run_dir, const RunLiveStatus* live) {
  const fs::path root(run_dir);
  std::vector<std::string> problems;
  OrderedJson out;
  out["run"] = fs::absolute(root).lexically_normal().filename().string();
  if (out["run"] == "") out["run"] = run_dir;
  out["live"] = nullptr;
  if (live != nullptr) {
    const pb::TrainerStatus& s = live->status;
    out["live"] = {{"total_games", s.total_games()},
                   {"total_positions", s.total_positions()},
                   {"window_positions", s.window_positions()},
                   {"training_step", s.training_step()},
                   {"policy_loss", s.policy_loss()},
                   {"value_loss", s.value_loss()},
                   {"games_per_minute", nullptr}};
    if (live->games_per_minute.has_value()) {
      out["live"]["games_per_minute"] = *live->games_per_minute;
    }
  }
  const RunFolder run{root};
  AddRatings(run.ratings_json(), out, problems);
  AddLosses(run.training_csv(), out, problems);
  AddMatches(run.matches(), out);
  out["problems"] = problems;
  return out;
}

absl::StatusOr<OrderedJson> MatchJson(const std::string& run_dir,
                                      const std::string& name) {
  int64_t generation = 0;
  std::string opponent;
  if (!ParseMatchName(name, generation, opponent)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "\"", name,
        "\" is not a match name (gen<N>-vs-<opponent>: letters, digits, "
        "'-', '_', '.')"));
  }
  const fs::path dir = RunFolder{run_dir}.match(name);
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    return absl::NotFoundError(
        absl::StrCat("the run has no match ", name, " (see /api/run)"));
  }
  const std::string a = absl::StrCat("gen", generation);
  OrderedJson out = {{"name", name}, {"a", a}, {"b", opponent}};
  out["games"] = OrderedJson::array();
  for (const fs::path& file : MatchGames(dir)) {
    absl::StatusOr<std::string> bytes = ReadFile(file.string());
    pb::GameRecord proto;
    if (!bytes.ok() || !proto.ParseFromString(*bytes)) {
      return absl::DataLossError(
          absl::StrCat(file.string(), ": not a readable game record"));
    }
    absl::StatusOr<GameRecord> record = RecordFromProto(proto);
    if (!record.ok()) {
      return absl::DataLossError(
          absl::StrCat(file.string(), ": ", record.status().message()));
    }
    int64_t index = 0;
    const std::string stem = file.stem().string();  // game-00003
    (void)absl::SimpleAtoi(stem.substr(5), &index);
    OrderedJson moves = OrderedJson::array();
    for (Move m : record->moves) moves.push_back(MoveName(m));
    // Player A plays black in the even games; under an opening rule the
    // colours came out of the opening and the record does not say.
    const bool colours_known = proto.opening_rule().empty();
    const bool a_black = index % 2 == 0;
    out["games"].push_back(
        {{"index", index},
         {"size", record->size},
         {"black", colours_known ? (a_black ? a : opponent) : "black"},
         {"white", colours_known ? (a_black ? opponent : a) : "white"},
         {"moves", moves},
         {"result", ResultText(proto.result())},
         {"end_reason", EndReasonText(proto.end_reason())}});
  }
  return out;
}

void AddRunPageRoutes(httplib::Server& server, RunPageOptions options) {
  auto shared = std::make_shared<RunPageOptions>(std::move(options));
  auto rate = std::make_shared<GameRate>();
  server.Get("/api/run", [shared, rate](const httplib::Request&,
                                        httplib::Response& response) {
    if (!shared->status) {
      ReplyJson(response, 200, RunJson(shared->run_dir, nullptr));
      return;
    }
    RunLiveStatus live;
    live.status = shared->status();
    live.games_per_minute = rate->Add(NowMs(), live.status.total_games());
    ReplyJson(response, 200, RunJson(shared->run_dir, &live));
  });
  server.Get("/api/run/match", [shared](const httplib::Request& request,
                                        httplib::Response& response) {
    if (!request.has_param("name")) {
      ReplyJsonError(response, 400, "name",
                     "missing ?name=<match>; /api/run lists the matches");
      return;
    }
    absl::StatusOr<OrderedJson> match =
        MatchJson(shared->run_dir, request.get_param_value("name"));
    if (match.ok()) {
      ReplyJson(response, 200, *match);
    } else if (absl::IsInvalidArgument(match.status())) {
      ReplyJsonError(response, 400, "name",
                     std::string(match.status().message()));
    } else if (absl::IsNotFound(match.status())) {
      ReplyJsonError(response, 404, "name",
                     std::string(match.status().message()));
    } else {
      ReplyJsonError(response, 500, "", std::string(match.status().message()));
    }
  });
}

}  // namespace renju
