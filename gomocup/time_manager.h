// How long the Gomocup engine thinks about one move, from what the manager
// sent (INFO timeout_turn, timeout_match, time_left), the way strong Gomocup
// engines such as dhbloo/rapfi plan it: an optimum time the search aims at
// and a maximum it never passes.
//
//   - A reserve comes off every limit first: the pipes, the process and a
//     playout in flight when the search stops take that long at worst on a
//     busy machine.
//   - No match clock: the turn limit less the reserve is both the optimum
//     and the maximum (a turn's time is lost if not used).
//   - A match clock: the time left, less the reserve, spread over the moves
//     the engine still expects to play is the optimum; the maximum is a
//     few optima, at most a fixed share of the time left, and never more
//     than the turn allows.
// The search may stop before the optimum when its best move cannot change
// (TimeBudgetStopper in search/stoppers.h) and between the two only while
// the choice is open.
#ifndef RENJU_GOMOCUP_TIME_MANAGER_H_
#define RENJU_GOMOCUP_TIME_MANAGER_H_

#include <cstdint>
#include <optional>

namespace renju {

// The manager's clock, in milliseconds.
struct TimeControl {
  int64_t turn_ms = 5000;  // INFO timeout_turn; 0: as fast as possible
  // INFO timeout_match; 0: no match limit (time_left is then ignored);
  // nullopt when not sent.
  std::optional<int64_t> match_ms;
  // INFO time_left; nullopt when not sent or unlimited (2147483647 or more).
  std::optional<int64_t> time_left_ms;
};

struct MoveTime {
  int64_t optimum_ms = 0;
  int64_t maximum_ms = 0;  // >= optimum_ms; 0: as fast as possible
};

// The reserve kept back from a turn limit of `turn_ms`: 50 ms plus 10%.
int64_t TurnReserveMs(int64_t turn_ms);

// The time for the engine's move at 0-based `ply` of the game. Never
// negative; both zero when nothing is left to spend.
MoveTime PlanMoveTime(const TimeControl& control, int ply);

}  // namespace renju

#endif  // RENJU_GOMOCUP_TIME_MANAGER_H_
