// Shared by the training tests: a tiny 9x9 network, fixed batches sampled
// from synthetic freestyle games, weight comparison and temporary folders.
#ifndef RENJU_TESTS_TRAINER_TRAINING_TEST_UTIL_H_
#define RENJU_TESTS_TRAINER_TRAINING_TEST_UTIL_H_

#include <unistd.h>

#include <torch/types.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "nn/network.h"
#include "nn/network_config.h"
#include "tests/trainer/synthetic_games.h"
#include "trainer/replay_window.h"

namespace renju::testing {

inline constexpr int kTestBoardSize = 9;

inline NetworkConfig TestNetworkConfig() {
  NetworkConfig c;
  c.board_size = kTestBoardSize;
  c.blocks = 2;
  c.channels = 16;
  c.global_pool_every = 2;
  c.global_pool_channels = 4;
  c.policy_channels = 4;
  c.value_channels = 4;
  c.value_hidden = 16;
  return c;
}

inline SyntheticGameOptions TestGameOptions() {
  SyntheticGameOptions o;
  o.variant = Variant::kFreestyle;
  o.board_size = kTestBoardSize;
  o.max_plies = 40;
  return o;
}

// TestNetworkConfig() with the auxiliary heads.
inline NetworkConfig AuxNetworkConfig() {
  NetworkConfig c = TestNetworkConfig();
  c.aux_heads = true;
  return c;
}

// `n` positions sampled from ten synthetic games, encoded in
// `encoding_version`; equal seeds, equal batches. With `aux_targets`, for a
// net with aux heads.
inline TrainingBatch FixedBatchOf(int n, uint64_t seed, bool aux_targets,
                                  int encoding_version) {
  WindowParams params;
  params.aux_targets = aux_targets;
  ReplayWindow window(kTestBoardSize, params, encoding_version);
  for (int i = 0; i < 10; ++i) {
    const absl::StatusOr<int> added =
        window.AddGame(i + 1, SyntheticGame(500 + i, TestGameOptions()));
    EXPECT_TRUE(added.ok()) << added.status();
  }
  TrainingBatch batch;
  window.Sample(n, seed, batch);
  return batch;
}

// Version-1 batches, with or without the auxiliary targets.
inline TrainingBatch FixedBatch(int n, uint64_t seed,
                                bool aux_targets = false) {
  return FixedBatchOf(n, seed, aux_targets, 1);
}

// Batches in another input encoding, without auxiliary targets.
inline TrainingBatch FixedBatchInEncoding(int n, uint64_t seed,
                                          int encoding_version) {
  return FixedBatchOf(n, seed, false, encoding_version);
}

// Rows [begin, end) of `batch`.
inline TrainingBatch SliceBatch(const TrainingBatch& batch, int begin,
                                int end) {
  TrainingBatch out;
  out.Reset(end - begin, batch.board_size, batch.encoding_version,
            batch.has_aux_targets());
  const size_t planes = batch.planes.size() / batch.size;
  const size_t points = batch.policy_target.size() / batch.size;
  auto copy = [&](const std::vector<float>& from, std::vector<float>& to,
                  size_t per_row) {
    std::copy(from.begin() + begin * per_row, from.begin() + end * per_row,
              to.begin());
  };
  copy(batch.planes, out.planes, planes);
  copy(batch.policy_target, out.policy_target, points);
  copy(batch.policy_weight, out.policy_weight, 1);
  copy(batch.wdl_target, out.wdl_target, 3);
  if (batch.has_aux_targets()) {
    copy(batch.opponent_policy_target, out.opponent_policy_target, points);
    copy(batch.opponent_policy_weight, out.opponent_policy_weight, 1);
    copy(batch.short_value_target, out.short_value_target, 3);
  }
  return out;
}

// The largest absolute difference over all parameters and buffers; -1 if
// the two nets' tensors differ in names or shapes.
inline double MaxDifference(PolicyValueNetImpl& a, PolicyValueNetImpl& b) {
  const auto ta = a.named_parameters(), tb = b.named_parameters();
  const auto ba = a.named_buffers(), bb = b.named_buffers();
  if (ta.size() != tb.size() || ba.size() != bb.size()) return -1;
  double worst = 0;
  for (const auto* pair : {&ta, &ba}) {
    const auto& other = pair == &ta ? tb : bb;
    for (const auto& item : *pair) {
      const torch::Tensor* t = other.find(item.key());
      if (t == nullptr || t->sizes() != item.value().sizes()) return -1;
      worst = std::max(worst,
                       (item.value().to(torch::kDouble) - t->to(torch::kDouble))
                           .abs()
                           .max()
                           .item<double>());
    }
  }
  return worst;
}

// A fresh folder named after the running test, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name =
        std::string(info->test_suite_name()) + "_" + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = std::filesystem::temp_directory_path() /
            ("renju_training_" + std::to_string(::getpid()) + "_" + name);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const {
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace renju::testing

#endif  // RENJU_TESTS_TRAINER_TRAINING_TEST_UTIL_H_
