#include "trainer/replay_window.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "base/random.h"
#include "nn/encoding.h"
#include "rpc/game_record.h"

namespace renju {

int64_t WindowSize(int64_t total_positions, const WindowParams& params) {
  if (total_positions <= params.c) return total_positions;
  const double c = static_cast<double>(params.c);
  const double ratio = static_cast<double>(total_positions) / c;
  const double size =
      c *
      (1 + params.beta * (std::pow(ratio, params.alpha) - 1) / params.alpha);
  return std::min(total_positions, static_cast<int64_t>(size));
}

void TrainingBatch::Reset(int n, int board_size_in, int encoding_version_in,
                          bool aux_targets) {
  board_size = board_size_in;
  encoding_version = encoding_version_in;
  size = n;
  const int points = board_size * board_size;
  planes.assign(
      static_cast<size_t>(n) * EncodedSize(board_size, encoding_version), 0.0f);
  policy_target.assign(static_cast<size_t>(n) * points, 0.0f);
  policy_weight.assign(n, 0.0f);
  wdl_target.assign(static_cast<size_t>(n) * 3, 0.0f);
  const size_t aux_rows = aux_targets ? n : 0;
  opponent_policy_target.assign(aux_rows * points, 0.0f);
  opponent_policy_weight.assign(aux_rows, 0.0f);
  short_value_target.assign(aux_rows * 3, 0.0f);
}

ReplayWindow::ReplayWindow(int board_size, WindowParams params,
                           int encoding_version)
    : board_size_(board_size),
      params_(params),
      encoding_version_(encoding_version) {
  RENJU_CHECK(IsKnownEncodingVersion(encoding_version))
      << "encoding version " << encoding_version;
}

absl::StatusOr<int> ReplayWindow::AddGame(int64_t id,
                                          const std::string& serialized) {
  pb::GameRecord record;
  if (!record.ParseFromString(serialized)) {
    return absl::DataLossError(
        absl::StrCat("stored game ", id, " is not a parsable GameRecord"));
  }
  return AddGame(id, record);
}

absl::StatusOr<int> ReplayWindow::AddGame(int64_t id,
                                          const pb::GameRecord& record) {
  if (!games_.empty() && id <= games_.back().id) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", id, " is not newer than game ", games_.back().id,
                     " already in the window"));
  }
  absl::StatusOr<WindowGame> game = Compact(id, record);
  if (!game.ok()) return game.status();
  const int positions = static_cast<int>(game->positions.size());
  Append(*std::move(game));
  Evict();
  return positions;
}

absl::Status ReplayWindow::Restore(
    int64_t total_positions,
    const std::vector<std::pair<int64_t, std::string>>& games) {
  games_.clear();
  total_positions_ = 0;
  std::vector<WindowGame> compact;
  int64_t held = 0;
  for (const auto& [id, serialized] : games) {
    pb::GameRecord record;
    if (!record.ParseFromString(serialized)) {
      return absl::DataLossError(
          absl::StrCat("stored game ", id, " is not a parsable GameRecord"));
    }
    absl::StatusOr<WindowGame> game = Compact(id, record);
    if (!game.ok()) return game.status();
    held += static_cast<int64_t>(game->positions.size());
    if (!game->positions.empty()) compact.push_back(*std::move(game));
  }
  if (held > total_positions) {
    return absl::DataLossError(absl::StrCat("the saved window's games hold ",
                                            held, " positions, more than the ",
                                            total_positions, " ever ingested"));
  }
  // Numbered so that the newest position is total_positions - 1, as when
  // they were first ingested.
  total_positions_ = total_positions - held;
  for (WindowGame& game : compact) Append(std::move(game));
  Evict();
  return absl::OkStatus();
}

absl::StatusOr<ReplayWindow::WindowGame> ReplayWindow::Compact(
    int64_t id, const pb::GameRecord& record) const {
  // Stored games were checked on upload; those stored before the no-five
  // draw (RULES.md §5) may play on past it, and a resumed run keeps them.
  absl::StatusOr<Game> replayed =
      ValidateGameRecord(record, NoFivePolicy::kPlaysOn);
  if (!replayed.ok()) {
    return absl::DataLossError(
        absl::StrCat("stored game ", id, " (", record.uid(),
                     ") is invalid: ", replayed.status().message()));
  }
  if (replayed->size() != board_size_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stored game ", id, " (", record.uid(), ") is on a ", replayed->size(),
        "x", replayed->size(), " board; the network plays ", board_size_, "x",
        board_size_));
  }
  WindowGame game;
  game.id = id;
  game.variant = replayed->variant();
  switch (record.result()) {
    case pb::BLACK_WIN:
      game.result = GameResult::kBlackWin;
      break;
    case pb::WHITE_WIN:
      game.result = GameResult::kWhiteWin;
      break;
    default:  // ValidateGameRecord admits only the three results
      game.result = GameResult::kDraw;
      break;
  }
  game.moves.reserve(record.plies_size());
  for (int i = 0; i < record.plies_size(); ++i) {
    const pb::GamePly& ply = record.plies(i);
    game.moves.push_back(static_cast<int16_t>(ply.move()));
    if (!ply.has_target()) continue;
    const pb::SearchTarget& target = ply.target();
    Position position;
    position.ply = static_cast<int16_t>(i);
    position.full_search = target.full_search();
    position.policy_begin = static_cast<uint32_t>(game.policy_points.size());
    if (target.full_search()) {
      for (int j = 0; j < target.policy_points_size(); ++j) {
        game.policy_points.push_back(
            static_cast<int16_t>(target.policy_points(j)));
        game.policy_probs.push_back(target.policy_probs(j));
      }
    }
    position.policy_end = static_cast<uint32_t>(game.policy_points.size());
    game.positions.push_back(position);
  }
  if (params_.aux_targets) {
    AddShortValues(record, replayed->side_to_move(), game);
  }
  return game;
}

// T_t of the file comment in replay_window.h, from the end backwards.
void ReplayWindow::AddShortValues(const pb::GameRecord& record,
                                  Color after_last, WindowGame& game) const {
  const double lambda = 1 - 1 / params_.short_value_horizon;
  double t[3] = {0, 0, 0};  // win, draw, loss
  if (game.result == GameResult::kDraw) {
    t[1] = 1;
  } else {
    t[game.result == WinFor(after_last) ? 0 : 2] = 1;
  }
  game.short_value.assign(game.positions.size() * 3, 0.0f);
  size_t position = game.positions.size();
  for (int i = record.plies_size() - 1; i >= 0; --i) {
    std::swap(t[0], t[2]);  // now from the side to move at ply i
    if (!record.plies(i).has_target()) continue;
    const pb::SearchTarget& r = record.plies(i).target();
    const double root[3] = {r.root_win(), r.root_draw(), r.root_loss()};
    --position;
    for (int j = 0; j < 3; ++j) {
      t[j] = (1 - lambda) * root[j] + lambda * t[j];
      game.short_value[position * 3 + j] = static_cast<float>(t[j]);
    }
  }
}

void ReplayWindow::Append(WindowGame game) {
  game.first_seq = total_positions_;
  total_positions_ += static_cast<int64_t>(game.positions.size());
  if (!game.positions.empty()) games_.push_back(std::move(game));
}

void ReplayWindow::Evict() {
  const int64_t oldest_wanted =
      total_positions_ - WindowSize(total_positions_, params_);
  while (!games_.empty()) {
    const WindowGame& oldest = games_.front();
    const int64_t end =
        oldest.first_seq + static_cast<int64_t>(oldest.positions.size());
    if (end > oldest_wanted) break;
    games_.pop_front();
  }
}

int64_t ReplayWindow::held_positions() const {
  return games_.empty() ? 0 : total_positions_ - games_.front().first_seq;
}

int64_t ReplayWindow::window_positions() const {
  return std::min(held_positions(), WindowSize(total_positions_, params_));
}

int64_t ReplayWindow::first_game_id() const {
  return games_.empty() ? 0 : games_.front().id;
}

int64_t ReplayWindow::last_game_id() const {
  return games_.empty() ? 0 : games_.back().id;
}

const ReplayWindow::WindowGame& ReplayWindow::GameAt(int64_t seq) const {
  // The last game whose first position is at or before seq.
  auto it = std::upper_bound(
      games_.begin(), games_.end(), seq,
      [](int64_t s, const WindowGame& g) { return s < g.first_seq; });
  RENJU_CHECK(it != games_.begin()) << "position " << seq << " not held";
  return *(it - 1);
}

void ReplayWindow::Sample(int n, uint64_t seed, TrainingBatch& batch,
                          int threads) const {
  RENJU_CHECK(!games_.empty()) << "sampling an empty replay window";
  batch.Reset(n, board_size_, encoding_version_, params_.aux_targets);
  const int64_t window = window_positions();
  auto sample_rows = [&](int begin, int end) {
    for (int row = begin; row < end; ++row) {
      Random rng(seed, row);
      const int64_t index = std::min<int64_t>(
          window - 1, static_cast<int64_t>(rng.Uniform() * window));
      const Symmetry s = static_cast<Symmetry>(rng.UniformInt(kNumSymmetries));
      WritePosition(index, s, row, batch);
    }
  };
  threads = std::max(1, std::min(threads, n));
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) {
    helpers.emplace_back(sample_rows, n * t / threads, n * (t + 1) / threads);
  }
  sample_rows(0, n / threads);
  for (std::thread& helper : helpers) helper.join();
}

void ReplayWindow::WritePosition(int64_t index, Symmetry s, int row,
                                 TrainingBatch& batch) const {
  const int64_t seq = total_positions_ - window_positions() + index;
  const WindowGame& game = GameAt(seq);
  const size_t position_index = static_cast<size_t>(seq - game.first_seq);
  const Position& position = game.positions[position_index];
  const int size = board_size_;

  // Every move was checked by ValidateGameRecord when the game came in, and
  // the rules are invariant under the symmetries, so replay cannot fail.
  Game replay(game.variant, size);
  for (int i = 0; i < position.ply; ++i) {
    const int point = game.moves[i];
    const Move m = point < 0
                       ? Move::Pass()
                       : Move::At(ApplySymmetry(s, PointAt(point, size), size));
    const absl::Status status = replay.Play(m);
    RENJU_CHECK(status.ok())
        << "game " << game.id << " ply " << i + 1 << ": " << status;
  }
  RENJU_DCHECK(batch.board_size == size &&
               batch.encoding_version == encoding_version_)
      << "batch of " << batch.board_size << "x" << batch.board_size
      << " version " << batch.encoding_version;
  const size_t floats = EncodedSize(size, encoding_version_);
  EncodePosition(replay, encoding_version_, &batch.planes[row * floats]);

  float* policy = &batch.policy_target[static_cast<size_t>(row) * size * size];
  for (uint32_t j = position.policy_begin; j < position.policy_end; ++j) {
    const Point p =
        ApplySymmetry(s, PointAt(game.policy_points[j], size), size);
    policy[PointIndex(p, size)] += game.policy_probs[j];
  }
  batch.policy_weight[row] = position.full_search ? 1.0f : 0.0f;

  float* wdl = &batch.wdl_target[static_cast<size_t>(row) * 3];
  if (game.result == GameResult::kDraw) {
    wdl[1] = 1.0f;
  } else {
    wdl[game.result == WinFor(replay.side_to_move()) ? 0 : 2] = 1.0f;
  }
  if (params_.aux_targets) WriteAuxTargets(game, position_index, s, row, batch);
}

void ReplayWindow::WriteAuxTargets(const WindowGame& game, size_t position,
                                   Symmetry s, int row,
                                   TrainingBatch& batch) const {
  RENJU_CHECK(batch.has_aux_targets())
      << "a batch without auxiliary targets from a window with them";
  const int size = board_size_;
  std::copy_n(&game.short_value[position * 3], 3,
              &batch.short_value_target[static_cast<size_t>(row) * 3]);
  // The reply is the next ply; its position follows this one when it was
  // searched at all.
  if (position + 1 >= game.positions.size()) return;
  const Position& next = game.positions[position + 1];
  if (next.ply != game.positions[position].ply + 1 || !next.full_search) {
    return;
  }
  float* policy =
      &batch.opponent_policy_target[static_cast<size_t>(row) * size * size];
  for (uint32_t j = next.policy_begin; j < next.policy_end; ++j) {
    const Point p =
        ApplySymmetry(s, PointAt(game.policy_points[j], size), size);
    policy[PointIndex(p, size)] += game.policy_probs[j];
  }
  batch.opponent_policy_weight[row] = 1.0f;
}

}  // namespace renju
