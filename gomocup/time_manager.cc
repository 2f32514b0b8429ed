#include "gomocup/time_manager.h"

#include <algorithm>

namespace renju {
namespace {

// Measured on the loaded 2-core development machine (then by play_time_test,
// now bench/move_time_overrun.sh):
// 30 ms plus 5% let a 200 ms turn run up to 120 ms over; threads waiting
// for a core, not the search, take the time.
constexpr int64_t kReserveMs = 50;
constexpr int64_t kReservePercent = 10;
// A renju game lasts about this many plies; the engine expects at least
// kMinMovesToGo more moves of its own, so that a long game does not run
// the clock down.
constexpr int64_t kExpectedGamePlies = 100;
constexpr int64_t kMinMovesToGo = 12;
// The maximum: this many optima, and at most this share of the time left.
constexpr int64_t kMaxOptima = 4;
constexpr int64_t kMaxShareOfTimeLeft = 5;  // 1/5

}  // namespace

int64_t TurnReserveMs(int64_t turn_ms) {
  return kReserveMs + std::max<int64_t>(turn_ms, 0) * kReservePercent / 100;
}

MoveTime PlanMoveTime(const TimeControl& control, int ply) {
  MoveTime t;
  const int64_t turn =
      std::max<int64_t>(control.turn_ms - TurnReserveMs(control.turn_ms), 0);
  if (control.turn_ms <= 0 || turn == 0) return t;
  const bool match_clock =
      control.time_left_ms.has_value() && control.match_ms != 0;
  if (!match_clock) {
    t.optimum_ms = t.maximum_ms = turn;
    return t;
  }
  const int64_t left = std::max<int64_t>(*control.time_left_ms - kReserveMs, 0);
  const int64_t moves_to_go =
      std::max<int64_t>((kExpectedGamePlies - ply) / 2, kMinMovesToGo);
  t.optimum_ms = std::min(turn, left / moves_to_go);
  t.maximum_ms =
      std::min({turn, left / kMaxShareOfTimeLeft, t.optimum_ms * kMaxOptima});
  t.maximum_ms = std::max(t.maximum_ms, t.optimum_ms);
  return t;
}

}  // namespace renju
