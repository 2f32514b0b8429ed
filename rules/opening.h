// Opening rules (RULES.md §6) as state machines. Two players, "first" and
// "second", take the actions a rule allows in turn (place a stone, swap
// colours, declare a count, offer 5th-move candidates, keep one of them);
// when the opening phase is over the stones form an ordinary Game that play
// continues from. The first player starts as tentative black.
//
//   absl::StatusOr<OpeningState> s =
//       OpeningState::Create(*ParseOpeningRule("rif"));
//   s->Apply(OpeningAction::Place(h8));  // ... moves 1-3 by tentative black
//   s->Apply(OpeningAction::Swap());     // tentative white takes black
//   ...
//   if (s->done()) { Game game = s->game(); Player black = s->black_player(); }
//
// Every action is checked first; a rejected action leaves the state unchanged
// and the error names the rule, the expected action, the area and the point.
#ifndef RENJU_RULES_OPENING_H_
#define RENJU_RULES_OPENING_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "rules/types.h"

namespace renju {

enum class OpeningRuleKind : uint8_t {
  kFree,        // no opening phase: black's first stone anywhere
  kCentre,      // move 1 on h8
  kSwap1,       // move 1 anywhere, then the other player may swap
  kSwap3,       // moves 1-3 anywhere by tentative black, then a swap option
  kRif,         // canonical opening, swap, move 4, two 5th-move candidates
  kYamaguchi,   // as RIF with a declared number of 5th-move candidates
  kTarannikov,  // moves 1-5 in growing central squares, a swap after each
  kTaraguchi,   // Tarannikov to move 4, then offer N 5th moves or swap
  kSwap2,       // three stones, then a colour choice or two more stones
};

// Taraguchi-N offers at most this many 5th moves: the 77 empty points of the
// 9x9 after move 4 always hold 10 mutually non-symmetric ones, because the
// isometries keeping four stones in place form a group of at most 8.
inline constexpr int kMaxTaraguchiCount = 10;
// The largest N a Yamaguchi player may declare, by the same argument on the
// 221 empty points of the whole board.
inline constexpr int kMaxDeclaredFifthCount = 28;

struct OpeningRule {
  OpeningRuleKind kind = OpeningRuleKind::kFree;
  // Taraguchi-N only: the N of branch (A), 1..kMaxTaraguchiCount.
  int taraguchi_count = 0;

  friend bool operator==(const OpeningRule& a, const OpeningRule& b) {
    return a.kind == b.kind && a.taraguchi_count == b.taraguchi_count;
  }
  friend bool operator!=(const OpeningRule& a, const OpeningRule& b) {
    return !(a == b);
  }
};

// "free", "centre", "swap1", "swap3", "rif", "yamaguchi", "tarannikov",
// "taraguchi<N>" (e.g. "taraguchi10"), "swap2".
std::string OpeningRuleName(const OpeningRule& rule);
// The names above, case-insensitively; the error lists them.
absl::StatusOr<OpeningRule> ParseOpeningRule(absl::string_view text);

enum class Player : uint8_t { kFirst = 0, kSecond = 1 };
constexpr Player OtherPlayer(Player p) {
  return p == Player::kFirst ? Player::kSecond : Player::kFirst;
}
absl::string_view PlayerName(Player p);  // "first" / "second"

enum class OpeningActionKind : uint8_t {
  kPlace,         // the next stone, of the colour whose move it is
  kPass,          // never allowed during the opening (RULES.md §5)
  kSwap,          // exchange colours
  kKeepColours,   // decline a swap option
  kDeclareCount,  // Yamaguchi: how many 5th-move candidates will be offered
  kOfferFifth,    // black offers mutually non-symmetric 5th-move candidates
  kChooseFifth,   // white keeps one offered candidate; it becomes move 5
};
inline constexpr int kNumOpeningActionKinds = 7;

// The choices that are not their own action kind are made by the first
// action taken: Taraguchi branch (A) is OfferFifth, branch (B) is Swap; a
// swap2 second player who places a stone (move 4) has chosen to place two.
struct OpeningAction {
  OpeningActionKind kind = OpeningActionKind::kPass;
  Point point;                // kPlace, kChooseFifth
  std::vector<Point> points;  // kOfferFifth
  int count = 0;              // kDeclareCount

  static OpeningAction Place(Point p);
  static OpeningAction Pass();
  static OpeningAction Swap();
  static OpeningAction KeepColours();
  static OpeningAction DeclareCount(int n);
  static OpeningAction OfferFifth(std::vector<Point> candidates);
  static OpeningAction ChooseFifth(Point p);

  // "Place(h8)", "Swap", "DeclareCount(3)", "OfferFifth(j9 g7)", ...
  std::string ToString() const;

  friend bool operator==(const OpeningAction& a, const OpeningAction& b) {
    return a.kind == b.kind && a.point == b.point && a.points == b.points &&
           a.count == b.count;
  }
};

// The inverse of OpeningAction::ToString for a board of `size` (records
// write actions that way): "Place(h8)", "Swap", "KeepColours",
// "DeclareCount(3)", "OfferFifth(j9 g7)", "ChooseFifth(g7)"; case-insensitive
// names, points checked against the board only. The error names the text.
absl::StatusOr<OpeningAction> ParseOpeningAction(absl::string_view text,
                                                 int size = kRenjuBoardSize);

// A list of actions in that form, separated by spaces or commas outside the
// parentheses: "Place(h8) Place(i9) Place(j10) Swap OfferFifth(j9, g7)".
// The error names the first action that does not parse, 1-based.
absl::StatusOr<std::vector<OpeningAction>> ParseOpeningActionList(
    absl::string_view text, int size = kRenjuBoardSize);

// RULES.md §6, symmetry of 5th-move candidates: true when an isometry of the
// infinite grid (one of the 8 rotations/reflections combined with any
// translation) maps the black stones onto themselves, the white stones onto
// themselves and `a` onto `b`. The board edge plays no part. True when a == b.
bool SymmetricFifthCandidates(const std::vector<Point>& black,
                              const std::vector<Point>& white, Point a,
                              Point b);

// One opening in progress. A value type; not thread-safe.
class OpeningState {
 public:
  // Rules that use the central areas (all but free and the swap rules) need
  // the 15 x 15 board; Taraguchi needs 1 <= N <= kMaxTaraguchiCount.
  static absl::StatusOr<OpeningState> Create(OpeningRule rule,
                                             Variant variant = Variant::kRenju,
                                             int size = kRenjuBoardSize);

  // Takes `action` for the player whose turn it is (to_act()).
  absl::Status Apply(const OpeningAction& action);
  // The same, but first checks that `player` is the one expected to act.
  absl::Status Apply(Player player, const OpeningAction& action);

  const OpeningRule& rule() const { return rule_; }
  // True once the opening phase is over; from then on game() is an ordinary
  // game and Apply() rejects everything.
  bool done() const;
  // Who holds black now: tentative during the opening, final once done().
  Player black_player() const { return black_player_; }
  Player PlayerOf(Color c) const {
    return c == Color::kBlack ? black_player_ : OtherPlayer(black_player_);
  }
  // Who must act next; once done(), who has the move in game().
  Player to_act() const;
  // The stones placed so far, in order, with the side to move. Offered 5th
  // moves are not stones until one is chosen.
  const Game& game() const { return game_; }
  // Every accepted action, in order (swap decisions are not in game()).
  const std::vector<OpeningAction>& actions() const { return actions_; }

  // Whether an action of `kind` may be taken now (its content aside).
  bool Allows(OpeningActionKind kind) const;
  // Where a Place or an OfferFifth candidate may go now: the empty points of
  // the required area; empty when neither is allowed.
  std::vector<Point> PlacementPoints() const;
  // How many candidates an OfferFifth must hold now; 0 when not allowed.
  int RequiredOfferCount() const;
  // The candidates of the last OfferFifth; empty before one.
  const std::vector<Point>& offered() const { return offered_; }
  // Yamaguchi: the declared N, once declared.
  std::optional<int> declared_count() const { return declared_count_; }

  // What the rule expects now, for messages and user interfaces, e.g. "RIF
  // expects black (the second player) to offer 2 mutually non-symmetric
  // 5th-move candidates".
  std::string Expectation() const;

 private:
  OpeningState(OpeningRule rule, Game game);

  absl::Status CheckPlace(Point p) const;
  absl::Status CheckOffer(const std::vector<Point>& candidates) const;
  absl::Status CheckChoice(Point p) const;
  absl::Status CheckContent(const OpeningAction& action) const;
  absl::Status CheckInArea(Point p, absl::string_view what) const;
  void Perform(const OpeningAction& action);

  OpeningRule rule_;
  Game game_;
  int step_ = 0;  // index into the rule's procedure (opening.cc)
  Player black_player_ = Player::kFirst;
  std::optional<int> declared_count_;
  std::vector<Point> offered_;
  std::vector<OpeningAction> actions_;
};

// Replays a recorded opening: `actions` in order from the empty board under
// `rule`, each checked as Apply checks it. The error names the first action
// the rule refuses, 1-based, why, and what the rule expected then, e.g.
// "opening action 4 of 7 (Swap): out of phase: RIF expects white ...".
// Stopping before the opening is over is not an error here (see
// CheckOpeningRecord).
absl::StatusOr<OpeningState> ReplayOpening(
    OpeningRule rule, const std::vector<OpeningAction>& actions,
    Variant variant = Variant::kRenju, int size = kRenjuBoardSize);

// The action a player takes in an opening: the one for state.to_act().
using OpeningDecider =
    std::function<absl::StatusOr<OpeningAction>(const OpeningState& state)>;

// Plays `state` on until the opening is over, each action from `decide`
// (self-play and the arena drive their players this way). Errors:
// Cancelled once *stop (may be null) is set, before or after a decision;
// `decide`'s own error; Internal for an action the rule refuses, naming the
// action, the player and why (a player's bug).
absl::Status PlayOpening(OpeningState& state, const OpeningDecider& decide,
                         const std::atomic<bool>* stop = nullptr);

// The one definition of a recorded opening that agrees with its game
// (records, uploads, `renju replay`): the actions replay under the rule
// (ReplayOpening), end the opening, and the game's first moves are the
// stones the opening placed, in order. Returns the finished opening.
absl::StatusOr<OpeningState> CheckOpeningRecord(
    OpeningRule rule, const std::vector<OpeningAction>& actions,
    const std::vector<Move>& moves, Variant variant = Variant::kRenju,
    int size = kRenjuBoardSize);

}  // namespace renju

#endif  // RENJU_RULES_OPENING_H_
