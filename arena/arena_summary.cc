#include "arena/arena_summary.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"

namespace renju {
namespace {

using Json = nlohmann::ordered_json;

Json ColourJson(const ColourRecord& r) {
  return Json{{"wins", r.wins}, {"draws", r.draws}, {"losses", r.losses}};
}

Json FaultsJson(const std::array<int64_t, kNumEngineFaults>& faults) {
  Json out = Json::object();
  for (int i = 1; i < kNumEngineFaults; ++i) {
    std::string name(EngineFaultName(static_cast<EngineFault>(i)));
    std::replace(name.begin(), name.end(), ' ', '_');  // "timed_out"
    out[name] = faults[i];
  }
  return out;
}

int64_t TotalFaults(const std::array<int64_t, kNumEngineFaults>& faults) {
  int64_t total = 0;
  for (int i = 1; i < kNumEngineFaults; ++i) total += faults[i];
  return total;
}

std::string FaultText(const std::array<int64_t, kNumEngineFaults>& faults) {
  std::string text;
  for (int i = 1; i < kNumEngineFaults; ++i) {
    if (faults[i] == 0) continue;
    absl::StrAppend(&text, text.empty() ? "" : ", ",
                    EngineFaultName(static_cast<EngineFault>(i)), " ",
                    faults[i]);
  }
  return text.empty() ? "none" : text;
}

Json SwapJson(const SwapCount& c) {
  return Json{{"options", c.options},
              {"swaps", c.swaps},
              {"fallback_games", c.fallback_games}};
}

std::string RecordText(const ColourRecord& r) {
  return absl::StrFormat("+%d =%d -%d", r.wins, r.draws, r.losses);
}

}  // namespace

double ArenaSummary::a_points() const {
  return a_black.wins + a_white.wins + 0.5 * (a_black.draws + a_white.draws);
}

double ArenaSummary::a_score() const {
  return games > 0 ? a_points() / games : 0.5;
}

std::string ArenaSummaryJson(const ArenaSummary& s) {
  Json json;
  json["player_a"] = s.player_a;
  json["player_b"] = s.player_b;
  json["games"] = s.games;
  json["max_games"] = s.max_games;
  json["a_as_black"] = ColourJson(s.a_black);
  json["a_as_white"] = ColourJson(s.a_white);
  json["score"] = s.a_score();
  json["pentanomial"] = s.pentanomial.counts;
  json["elo"] = s.elo.elo;
  // An unbounded side is null, and so is the half-width then.
  const bool bounded = !s.elo.low_unbounded && !s.elo.high_unbounded;
  json["elo_error"] = bounded ? Json(s.elo.elo_error) : Json(nullptr);
  json["elo_low"] = s.elo.low_unbounded ? Json(nullptr) : Json(s.elo.elo_low);
  json["elo_high"] =
      s.elo.high_unbounded ? Json(nullptr) : Json(s.elo.elo_high);
  json["elo_interval"] = s.elo.conservative ? "small_sample" : "pentanomial";
  json["los"] = s.elo.los;
  if (s.sprt.has_value()) {
    json["sprt"] = Json{{"elo0", s.sprt->elo0},
                        {"elo1", s.sprt->elo1},
                        {"alpha", s.sprt->alpha},
                        {"beta", s.sprt->beta},
                        {"llr", s.llr},
                        {"lower_bound", s.sprt->lower_bound()},
                        {"upper_bound", s.sprt->upper_bound()},
                        {"decision", SprtDecisionName(s.decision)}};
  }
  if (!s.opening_rule.empty()) {
    json["opening_rule"] = s.opening_rule;
    json["swaps"] =
        Json{{"a", SwapJson(s.swaps_a)}, {"b", SwapJson(s.swaps_b)}};
  }
  json["faults"] =
      Json{{"a", FaultsJson(s.faults_a)}, {"b", FaultsJson(s.faults_b)}};
  json["end_reasons"] = s.end_reasons;
  json["discarded_games"] = s.discarded_games;
  json["stop_reason"] = s.stop_reason;
  json["elapsed_seconds"] = s.elapsed_seconds;
  return json.dump(2) + "\n";
}

std::string ArenaProgressLine(const ArenaSummary& s) {
  std::string line = absl::StrFormat(
      "games %d/%d | A %.1f/%d (%.1f%%) | elo %s", s.games, s.max_games,
      s.a_points(), s.games, 100 * s.a_score(), EloIntervalText(s.elo, 0));
  if (s.sprt.has_value()) {
    absl::StrAppendFormat(&line, " | LLR %.2f [%.2f, %.2f]", s.llr,
                          s.sprt->lower_bound(), s.sprt->upper_bound());
  }
  const int64_t faults = TotalFaults(s.faults_a) + TotalFaults(s.faults_b);
  if (faults > 0) absl::StrAppend(&line, " | faults ", faults);
  return line;
}

std::string ArenaReport(const ArenaSummary& s) {
  std::string text = absl::StrFormat("A: %s\nB: %s\n", s.player_a, s.player_b);
  absl::StrAppendFormat(
      &text, "games %d (%s), A scored %.1f (%.1f%%): black %s, white %s\n",
      s.games, s.stop_reason, s.a_points(), 100 * s.a_score(),
      RecordText(s.a_black), RecordText(s.a_white));
  const auto& c = s.pentanomial.counts;
  absl::StrAppendFormat(&text, "pairs %d, pentanomial [%d, %d, %d, %d, %d]\n",
                        s.pentanomial.pairs(), c[0], c[1], c[2], c[3], c[4]);
  const std::string low = s.elo.low_unbounded
                              ? std::string("unbounded")
                              : absl::StrFormat("%+.1f", s.elo.elo_low);
  const std::string high = s.elo.high_unbounded
                               ? std::string("unbounded")
                               : absl::StrFormat("%+.1f", s.elo.elo_high);
  absl::StrAppendFormat(&text, "elo A-B %s (95%%%s: %s .. %s), LOS %.1f%%\n",
                        EloIntervalText(s.elo, 1),
                        s.elo.conservative ? ", small sample" : "", low, high,
                        100 * s.elo.los);
  if (s.sprt.has_value()) {
    absl::StrAppendFormat(
        &text,
        "SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.2f [%.2f, %.2f] %s\n",
        s.sprt->elo0, s.sprt->elo1, s.sprt->alpha, s.sprt->beta, s.llr,
        s.sprt->lower_bound(), s.sprt->upper_bound(),
        SprtDecisionName(s.decision));
  }
  if (!s.opening_rule.empty()) {
    absl::StrAppendFormat(
        &text, "opening rule %s: A swapped %d of %d times, B %d of %d\n",
        s.opening_rule, s.swaps_a.swaps, s.swaps_a.options, s.swaps_b.swaps,
        s.swaps_b.options);
    for (const auto& [name, count] :
         {std::pair{"A", &s.swaps_a}, std::pair{"B", &s.swaps_b}}) {
      if (count->fallback_games == 0) continue;
      absl::StrAppendFormat(
          &text,
          "%s took the %s defaults in %d games: it does not know the "
          "protocol's command (SWAP2BOARD)\n",
          name, s.opening_rule, count->fallback_games);
    }
  }
  absl::StrAppendFormat(&text, "faults: A %s; B %s\n", FaultText(s.faults_a),
                        FaultText(s.faults_b));
  std::string ends;
  for (const auto& [reason, n] : s.end_reasons) {
    absl::StrAppend(&ends, ends.empty() ? "" : ", ", reason, " ", n);
  }
  absl::StrAppend(&text, "endings: ", ends.empty() ? "none" : ends, "\n");
  if (s.discarded_games > 0) {
    absl::StrAppendFormat(&text, "discarded unpaired games: %d\n",
                          s.discarded_games);
  }
  return text;
}

}  // namespace renju
