// The replay window: the newest training positions, from which training
// batches are sampled uniformly, each under one of the 8 board symmetries
// drawn at random.
//
// The window grows with the number of positions ever ingested, N, as
// KataGo's shuffle window does (arXiv:1902.10565, App. C):
//   W(N) = N                                          while N <= c
//   W(N) = c * (1 + beta * ((N / c)^alpha - 1) / alpha)  after
// (capped at N). Games are kept whole in a compact form (moves as point
// indices, the sparse policy targets, the result); a game leaves once all of
// its positions are older than the newest W(N). A position is a ply that
// carries a search target (NumTrainingPositions in game_record.h).
//
// Sampling replays the game's moves under the symmetry into a Game and
// encodes it with EncodePosition in the run's encoding version, so the
// planes are exactly what inference sees; the policy target is mapped by the
// same symmetry. Not thread-safe: one owner (the training loop).
//
// Auxiliary targets (WindowParams::aux_targets; KataGo, arXiv:1902.10565
// §4), for a network with aux heads:
//   opponent policy: the policy target of the next recorded ply (the
//     opponent's reply), under the same symmetry; weight 0 where that ply
//     has none (a fast search, or the last ply);
//   short-term value: with lambda = 1 - 1/h (h = short_value_horizon), the
//     WDL triple T_t from the side to move at ply t, defined backwards from
//     the end of a game of L plies:
//       T_L = the final result (one-hot win/draw/loss) from the side to
//             move after the last ply,
//       T_t = (1 - lambda) r_t + lambda F(T_{t+1})  if ply t has a target,
//       T_t = F(T_{t+1})                            otherwise,
//     where r_t is ply t's root (win, draw, loss) and F swaps win and loss
//     (the other side's view). For searched plies t..L-1 that is
//       T_t = sum_k (1 - lambda) lambda^k F^k(r_{t+k}) + lambda^(L-t) z_t,
//     z_t the result from the side to move at t (KataGo's TD value).
//     The weights sum to 1, so T_t is a distribution.
#ifndef RENJU_TRAINER_REPLAY_WINDOW_H_
#define RENJU_TRAINER_REPLAY_WINDOW_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/game.pb.h"
#include "rules/game.h"
#include "rules/symmetry.h"

namespace renju {

struct WindowParams {
  int64_t c = 250000;  // positions; 1..
  double alpha = 0.75;
  double beta = 0.4;
  // Batches carry the auxiliary targets (above); off leaves them empty.
  bool aux_targets = false;
  // h of the short-term value, in plies, >= 1.
  double short_value_horizon = 6;
};

// W(N) above, in positions.
int64_t WindowSize(int64_t total_positions, const WindowParams& params);

// One batch of training positions, laid out for the network (encoding.h).
// The per-position vectors are indexed [i], the planes and the policy
// target [i * floats per position + j].
struct TrainingBatch {
  int board_size = 0;
  int encoding_version = 1;  // of the planes (encoding.h)
  int size = 0;              // positions
  // size * EncodedSize(board_size, encoding_version)
  std::vector<float> planes;
  // The search's visit distribution over points y * S + x; all zero for a
  // position whose search was not a full one.
  std::vector<float> policy_target;  // size * S * S
  // 1 where policy_target is a full search's target, else 0.
  std::vector<float> policy_weight;  // size
  // The game's result from the side to move's view: win, draw, loss
  // one-hot (a resignation is a win for the other side).
  std::vector<float> wdl_target;  // size * 3
  // The auxiliary targets (file comment); empty without them. The next
  // ply's policy target, and 1 where it has one (else 0).
  std::vector<float> opponent_policy_target;  // size * S * S
  std::vector<float> opponent_policy_weight;  // size
  // The short-term value T_t: win, draw, loss from the side to move.
  std::vector<float> short_value_target;  // size * 3

  // Sizes every vector for `n` positions of `board_size` encoded in
  // `encoding_version` (the auxiliary ones only with `aux_targets`, else
  // empty) and zeroes them.
  void Reset(int n, int board_size, int encoding_version, bool aux_targets);
  bool has_aux_targets() const { return !short_value_target.empty(); }
};

class ReplayWindow {
 public:
  // Games of other board sizes are refused: the network serves one size.
  // Positions are encoded in `encoding_version` (encoding.h; must be known).
  ReplayWindow(int board_size, WindowParams params, int encoding_version);

  // Appends a stored game, the newest so far (ids must increase), then
  // drops games that fell out of the window. The record is checked with
  // ValidateGameRecord (the store holds only games that passed it, so an
  // error means a damaged store) and must be of this window's board size.
  // Returns the training positions the game added (0: it holds none and
  // is not kept, but still counts as ingested).
  absl::StatusOr<int> AddGame(int64_t id, const std::string& serialized);
  absl::StatusOr<int> AddGame(int64_t id, const pb::GameRecord& record);

  // Rebuilds a window saved as (N, its games): `games` are the games it
  // held, (id, serialized record) in id order, and `total_positions` the N
  // at that time. The result equals the saved window exactly; an error
  // names the first game that does not fit.
  absl::Status Restore(
      int64_t total_positions,
      const std::vector<std::pair<int64_t, std::string>>& games);

  // Fills `batch` with `n` positions drawn uniformly (with replacement)
  // from the newest WindowSize() positions, each under a random symmetry.
  // Row i draws from Random(seed, i) (base/random.h) alone, so the batch
  // depends on the seed and the window, not on `threads` (>= 1), which
  // share the replay and encoding of the rows. The window must not be
  // empty.
  void Sample(int n, uint64_t seed, TrainingBatch& batch,
              int threads = 1) const;

  // Writes one position under symmetry `s` as row `row` of `batch` (which
  // must be Reset for this board size and encoding, and with auxiliary
  // targets when the window has them): `index` counts from the oldest
  // position Sample draws from, 0 .. window_positions() - 1.
  void WritePosition(int64_t index, Symmetry s, int row,
                     TrainingBatch& batch) const;

  // N: training positions ever ingested (including evicted ones).
  int64_t total_positions() const { return total_positions_; }
  // min(W(N), positions held): the positions Sample draws from.
  int64_t window_positions() const;
  int64_t held_positions() const;
  int64_t num_games() const { return static_cast<int64_t>(games_.size()); }
  bool empty() const { return games_.empty(); }
  // Ids of the oldest and newest game held; 0 when empty.
  int64_t first_game_id() const;
  int64_t last_game_id() const;
  int board_size() const { return board_size_; }
  int encoding_version() const { return encoding_version_; }
  const WindowParams& params() const { return params_; }

 private:
  struct Position {
    int16_t ply = 0;  // moves played before it
    bool full_search = false;
    uint32_t policy_begin = 0;  // range in WindowGame::policy_*
    uint32_t policy_end = 0;
  };
  struct WindowGame {
    int64_t id = 0;
    int64_t first_seq = 0;  // sequence number of its first position
    Variant variant = Variant::kRenju;
    GameResult result = GameResult::kDraw;
    std::vector<int16_t> moves;  // point indices, -1 a pass
    std::vector<Position> positions;
    std::vector<int16_t> policy_points;
    std::vector<float> policy_probs;
    // With aux_targets: T_t of each position, 3 floats apiece.
    std::vector<float> short_value;
  };

  absl::StatusOr<WindowGame> Compact(int64_t id,
                                     const pb::GameRecord& record) const;
  void AddShortValues(const pb::GameRecord& record, Color after_last,
                      WindowGame& game) const;
  void WriteAuxTargets(const WindowGame& game, size_t position, Symmetry s,
                       int row, TrainingBatch& batch) const;
  void Append(WindowGame game);
  void Evict();
  // The game holding sequence number `seq`.
  const WindowGame& GameAt(int64_t seq) const;

  int board_size_;
  WindowParams params_;
  int encoding_version_;
  int64_t total_positions_ = 0;
  // Oldest first; positions are numbered by a sequence that runs over all
  // positions ever ingested, so the newest ends at total_positions_ - 1.
  std::deque<WindowGame> games_;
};

}  // namespace renju

#endif  // RENJU_TRAINER_REPLAY_WINDOW_H_
