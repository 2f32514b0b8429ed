// What an arena match found, as it goes and at the end: results by colour,
// pair results (pentanomial), Elo with its 95% interval, the SPRT state,
// engine faults and how games ended; as JSON for files and the model
// registry, and as text for progress lines and reports.
#ifndef RENJU_ARENA_ARENA_SUMMARY_H_
#define RENJU_ARENA_ARENA_SUMMARY_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "arena/match_stats.h"
#include "gomocup/gomocup_client.h"

namespace renju {

// Wins, draws and losses of one player with one colour.
struct ColourRecord {
  int64_t wins = 0;
  int64_t draws = 0;
  int64_t losses = 0;
  int64_t games() const { return wins + draws + losses; }
};

// Under an opening rule: how often a player could swap colours (a swap
// option of RULES.md §6, Taraguchi's branch choice included) and how often
// it did, in the rule's terms: a swap2 first player who keeps black after
// five stones did not swap, though the Gomocup answer is "SWAP"
// (gomocup/swap2.h).
struct SwapCount {
  int64_t options = 0;
  int64_t swaps = 0;
  // Games in which the player, an engine, answered the rule's protocol
  // command (SWAP2BOARD) with ERROR or UNKNOWN and took the rule's default
  // actions instead (GamePlayer::OpeningFallback).
  int64_t fallback_games = 0;
};

inline constexpr int kNumEngineFaults = 6;  // EngineFault kNone..kRefused

// Everything is from player A's view and counts only the games of
// completed pairs (both colours of an opening), so the pentanomial, the
// colour records and the game count always agree.
struct ArenaSummary {
  std::string player_a;
  std::string player_b;
  int64_t games = 0;
  int64_t max_games = 0;
  ColourRecord a_black;  // A's results with black
  ColourRecord a_white;
  Pentanomial pentanomial;
  EloEstimate elo;  // A minus B
  std::optional<SprtParams> sprt;
  double llr = 0;
  SprtDecision decision = SprtDecision::kContinue;
  // The opening rule of the games (rules/opening.h OpeningRuleName); empty
  // when they started from placed openings.
  std::string opening_rule;
  SwapCount swaps_a;  // A's swap options and swaps
  SwapCount swaps_b;
  // Games lost by each player's faults, indexed by EngineFault.
  std::array<int64_t, kNumEngineFaults> faults_a{};
  std::array<int64_t, kNumEngineFaults> faults_b{};
  // How the games ended: "five", "forbidden_move", "full_board",
  // "two_passes", "no_five_possible", "timeout", "resignation" (a fault
  // other than a timeout) and "move_cap".
  std::map<std::string, int64_t> end_reasons;
  // Finished games left out because the match stopped before their pair
  // partner finished.
  int64_t discarded_games = 0;
  // "running", "completed" (max games), "sprt" or "interrupted".
  std::string stop_reason = "running";
  double elapsed_seconds = 0;

  // A's points (wins + draws / 2) and mean score per game (0.5 when none).
  double a_points() const;
  double a_score() const;
};

// One JSON object (pretty-printed): players, games, "a_as_black" and
// "a_as_white" {wins, draws, losses}, score, pentanomial [5], elo,
// elo_error, elo_low, elo_high (null on an unbounded side, elo_error then
// too), elo_interval ("pentanomial" or "small_sample"), los, sprt {elo0, elo1,
// alpha, beta, llr, lower_bound, upper_bound, decision} (absent without SPRT),
// under an opening rule "opening_rule" and "swaps" {a, b} each {options, swaps,
// fallback_games},
// faults {a, b}
// each {crashed, timed_out, garbage_reply, illegal_move, refused},
// end_reasons, discarded_games, stop_reason, elapsed_seconds.
std::string ArenaSummaryJson(const ArenaSummary& summary);

// One line for progress: "games 12/40 | A 7.5/12 (62.5%) | elo +88 ± 120 |
// LLR 0.52 [-2.94, 2.94]" ("elo >= -113" when the interval is unbounded
// above).
std::string ArenaProgressLine(const ArenaSummary& summary);
// A few lines for the end of a match: players, results by colour,
// pentanomial, Elo and interval ("elo A-B +14.1 ± 16.7 (95%: -2.6 ..
// +30.8), LOS 95.1%"; one won pair: "elo A-B >= -113.4 (95%, small sample:
// -113.4 .. unbounded), LOS 92.1%"), SPRT, swaps under an opening rule,
// faults.
std::string ArenaReport(const ArenaSummary& summary);

}  // namespace renju

#endif  // RENJU_ARENA_ARENA_SUMMARY_H_
