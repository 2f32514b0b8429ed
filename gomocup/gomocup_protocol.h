// The engine side of the Gomocup (Piskvork) pipe protocol, with the cheap
// Yixin-Board extensions. A manager (Piskvork, c-gomoku-cli, Yixin-Board, our
// arena) starts the engine and talks to it one line at a time; the protocol
// document is plastovicka/Piskvork `source/doc/protocl2en.htm`, the
// extensions follow dhbloo/rapfi `Rapfi/command/gomocup.cpp`.
//
// Moving parts:
//   - a reader thread splits the input into lines and queues them; it raises
//     the stop flag the moment YXSTOP, STOP or END arrives (or the input
//     closes), so thinking ends even though commands are handled in order;
//   - the thread that calls GomocupProtocol::Run handles the queued lines one
//     by one, keeps the game, asks the GomocupBrain for moves and writes
//     every reply as one whole line through the caller's writer;
//   - while the brain thinks, a watchdog raises the same stop flag when the
//     move's time budget is spent;
//   - with INFO pondering 1 the brain goes on thinking in the background
//     after each move; the session stops it before handling the next line.
//
// Coordinates: Gomocup writes a point as "x,y", 0-based, x the column from
// the left and y the row counted from the TOP (research note, formats.md
// §0). The rules core counts rows from the bottom (RULES.md §1), so Gomocup
// "x,y" is core Point(x, size - 1 - y): on 15x15 "7,7" is h8 and "8,6" is i9.
//
// Commands understood:
//   START N, RECTSTART N,N (square only), RESTART, BEGIN, TURN x,y,
//   BOARD ... DONE, TAKEBACK x,y, INFO key value, ABOUT, END, and the
//   Yixin-Board extensions YXBOARD ... DONE (set the position, no reply),
//   YXSTOP / STOP (stop thinking), YXSHOWFORBID, INFO max_node, INFO
//   thread_num, INFO pondering (think on the opponent's time: after each
//   move until the next command arrives), and SWAP2BOARD ... DONE, the
//   swap2 opening of Gomocup's experimental tournaments (gomocup/swap2.h;
//   the brain decides by ChooseOpeningAction, within one move's time).
//   Anything else gets `UNKNOWN <what>`; a malformed or impossible command
//   gets `ERROR <why>`. Neither ends the session.
//
// Details managers differ on:
//   - BOARD/YXBOARD lines are x,y,field with field 1 the side to move's
//     stone and 2 the opponent's; the side to move is black when both have
//     as many stones. Renju managers list stones in move order (protocol
//     doc), which we replay as the game's history. Field 3 (a continuous-game
//     stone, a wall for Rapfi) is rejected: we play no continuous games.
//   - START accepts 5..20 whatever the rule; renju on another size is
//     reported at the next BEGIN/TURN/BOARD, because managers send INFO rule
//     after START.
//   - A YXSTOP or END that arrives while the brain thinks cuts the thinking
//     short; the move found so far is still written, then END quits.
#ifndef RENJU_GOMOCUP_GOMOCUP_PROTOCOL_H_
#define RENJU_GOMOCUP_GOMOCUP_PROTOCOL_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "rules/opening.h"
#include "rules/types.h"

namespace renju {

// --- Coordinates and rule codes ----------------------------------------------

// Gomocup x,y (y from the top) <-> rules-core points (y from the bottom).
Point FromGomocup(int x, int y, int size);
std::string GomocupPointText(Point p, int size);  // "x,y"
// Parses "x,y" (spaces around the numbers allowed) and checks that the point
// is on a size x size board. Errors quote the text.
absl::StatusOr<Point> ParseGomocupPoint(absl::string_view text, int size);

// `INFO rule` is a bitmask (protocol doc): 1 exactly five, 2 continuous
// game, 4 renju, 8 caro. We map 0 to freestyle, 1 (and 3) to standard, 4 to
// 7 to renju, and 2 alone to renju too, because Yixin-Board sends 2 for
// renju and Rapfi accepts it (AlphaGomoku and Rapfi do the same). The
// continuous-game bit is otherwise ignored: each position is judged alone.
// Caro (8) and values outside 0..15 are errors.
absl::StatusOr<Variant> VariantFromGomocupRule(int64_t rule);
// What a manager sends for a variant: 0, 1 or 4.
int GomocupRuleOf(Variant v);

// --- What the protocol needs from a player -----------------------------------

// Limits for one move, from the INFO values the manager sent.
struct MoveLimits {
  // Wall time the brain may use, already reduced by a safety margin. 0 means
  // "as fast as possible" (INFO timeout_turn 0, or no time left).
  int64_t budget_ms = 0;
  // With time management (GomocupOptions::time_management): the time the
  // brain aims at, <= budget_ms, and leave to stop as soon as its move
  // cannot change (TimeBudgetStopper). Otherwise equal to budget_ms and
  // false: the budget is spent.
  int64_t optimum_ms = 0;
  bool stop_when_settled = false;
  uint64_t max_nodes = 0;        // INFO max_node; 0 = no limit
  int threads = 0;               // INFO thread_num; 0 = the brain's default
  int64_t max_memory_bytes = 0;  // INFO max_memory; 0 = no limit
};

// Chooses moves. Called from one thread at a time (the protocol's).
class GomocupBrain {
 public:
  virtual ~GomocupBrain() = default;
  // A move for game.side_to_move(); the game is ongoing and has a legal
  // point. Should return within limits.budget_ms of wall time, and early once
  // *stop becomes true. Must return a legal point: empty and, for black
  // under renju, not forbidden. `game` may be probed but must be restored.
  virtual absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                          const std::atomic<bool>* stop) = 0;

  // Swap2 (SWAP2BOARD, gomocup/swap2.h): the action for state.to_act(), the
  // brain's player, in `state`, a swap2 opening that is not over; limits
  // and stop as for ChooseMove. The default is DefaultOpeningAction
  // (search/opening_player.h) with randomness drawn from the position: the
  // choice of a brain without opening judgement, such as the tactical one.
  // The session checks the action against the rule.
  virtual absl::StatusOr<OpeningAction> ChooseOpeningAction(
      const OpeningState& state, const MoveLimits& limits,
      const std::atomic<bool>* stop);

  // A line for the manager's log about the last ChooseMove (the protocol
  // sends it as MESSAGE before the move), e.g. the search's visits; empty
  // for none.
  virtual std::string LastMoveSummary() const { return ""; }

  // Pondering (INFO pondering 1): think about `game`, the position after
  // the brain's own move, on the opponent's time, in the background, until
  // StopPondering. `limits` are the last move's. The default does nothing.
  virtual void StartPondering(const Game& game, const MoveLimits& limits) {}
  // Returns once the pondering has stopped (promptly); nothing if none.
  virtual void StopPondering() {}
};

// A fast player with no search: completes its own five if it can, else
// blocks the opponent's five point, else plays the legal point near the
// stones that makes the strongest shapes for itself and against the
// opponent (ties broken by a seeded generator, so a seed fixes its games).
// Answers at once, whatever the budget. Never plays a forbidden point.
class TacticalBrain final : public GomocupBrain {
 public:
  explicit TacticalBrain(uint64_t seed) : rng_state_(seed) {}
  absl::StatusOr<Move> ChooseMove(Game& game, const MoveLimits& limits,
                                  const std::atomic<bool>* stop) override;

 private:
  uint64_t NextRandom();
  uint64_t rng_state_;
};

// --- The protocol ------------------------------------------------------------

struct GomocupOptions {
  // The rule until the manager sends INFO rule (the protocol's default,
  // rule 0, is freestyle).
  Variant default_variant = Variant::kFreestyle;
  // Per-move time until the manager sends INFO timeout_turn.
  int64_t default_turn_ms = 5000;
  // Plan each move's time with gomocup/time_manager.h (an optimum and a
  // maximum, stopping once the move cannot change) instead of spending
  // MoveBudgetMs whole.
  bool time_management = false;
  // The ABOUT reply.
  std::string about =
      "name=\"renju-zero\", version=\"0.1\", author=\"renju-zero developers\", "
      "country=\"unknown\"";
};

// The wall time for one move: the turn limit (INFO timeout_turn; 0 = as
// fast as possible), capped by a share of the match time left when the
// manager sent INFO time_left, less a safety margin for the pipes and the
// process. Milliseconds; `time_left_ms` is nullopt when unknown or
// unlimited (2147483647 or more). Never negative.
int64_t MoveBudgetMs(int64_t timeout_turn_ms,
                     std::optional<int64_t> time_left_ms);

class GomocupProtocol {
 public:
  // Receives one reply line without its end-of-line; the implementation
  // must write it whole and flush. Returns false when the output is gone.
  using LineWriter = std::function<bool(absl::string_view line)>;

  GomocupProtocol(std::unique_ptr<GomocupBrain> brain, GomocupOptions options);
  ~GomocupProtocol();
  GomocupProtocol(const GomocupProtocol&) = delete;
  GomocupProtocol& operator=(const GomocupProtocol&) = delete;

  // Reads commands from `input_fd` (not closed here) until END or the end of
  // the input, answering through `write_line`. Returns OK then; an error
  // only when the input cannot be read or the output is gone. Call once.
  absl::Status Run(int input_fd, const LineWriter& write_line);

 private:
  std::unique_ptr<GomocupBrain> brain_;
  GomocupOptions options_;
};

}  // namespace renju

#endif  // RENJU_GOMOCUP_GOMOCUP_PROTOCOL_H_
