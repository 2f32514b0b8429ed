// Helpers for the inference server's tests (tests/inference) and `renju
// serve`'s (tests/tools): a small config, checkpoints of a small network,
// positions, and (fake_trainer.h) the fake trainer that serves model files.
#ifndef RENJU_TESTS_COMMON_SERVE_TEST_UTIL_H_
#define RENJU_TESTS_COMMON_SERVE_TEST_UTIL_H_

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/file_util.h"
#include "config/config.h"
#include "gtest/gtest.h"
#include "nn/model.h"
#include "rpc/game_record.h"
#include "tests/common/fake_trainer.h"
#include "tests/common/temp_dir.h"

namespace renju::testing {

// A two-block network and short searches: every test stays at a few
// seconds on two cores. No cache and no random symmetry, so a served
// evaluation can be compared with a local one.
inline constexpr char kServeConfig[] = R"pb(
  name: "serve-test"
  variant: "renju"
  board_size: 15
  seed: 7
  network {
    blocks: 2
    channels: 16
    global_pool_every: 2
    global_pool_channels: 4
    policy_channels: 4
    value_channels: 4
    value_hidden: 16
  }
  selfplay {
    concurrent_games: 2
    search { visits: 8 cheap_visits: 4 }
    evaluator { max_batch_size: 2 max_wait_us: 2000 torch_threads: 1 }
    max_plies: 20
  }
  server {
    search { visits: 32 threads: 2 vcf_max_nodes_root: 2000 }
    evaluator {
      max_batch_size: 16
      max_wait_us: 500
      torch_threads: 1
      cache_entries: 0
      random_symmetry: false
    }
    max_visits: 100000
    max_time_ms: 20000
    max_evaluate_positions: 64
    max_candidates: 225
    model_poll_seconds: 1
  }
)pb";

inline pb::RunConfig ServeConfig() {
  absl::StatusOr<pb::RunConfig> config =
      ParseRunConfig(kServeConfig, "kServeConfig");
  EXPECT_TRUE(config.ok()) << config.status();
  return config.ok() ? *config : pb::RunConfig();
}

// A fresh network of the config's shape saved as `generation`.
inline void WriteCheckpoint(const pb::RunConfig& config,
                            const std::string& path, int64_t generation,
                            uint64_t seed) {
  ModelOptions options;
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(ToNetworkConfig(config), options, seed);
  ASSERT_TRUE(model.ok()) << model.status();
  (*model)->mutable_info().generation = generation;
  (*model)->mutable_info().training_step = 100 * generation;
  ASSERT_TRUE((*model)->Save(path).ok());
}

// A fresh folder under the system's temp folder, named after the test.
inline std::filesystem::path TestDir() { return TestDir("renju_serve_"); }

inline int P(const char* name) {
  absl::StatusOr<Point> p = ParsePoint(name, 15);
  EXPECT_TRUE(p.ok()) << name;
  return p.ok() ? PointIndex(*p, 15) : 0;
}

// A renju position from "h8 h9 ..." move names.
inline pb::Position MovesPosition(const std::vector<const char*>& moves,
                                  pb::Variant variant = pb::RENJU) {
  pb::Position position;
  position.set_variant(variant);
  position.set_board_size(15);
  for (const char* m : moves) position.add_moves(P(m));
  return position;
}

// Black to move; i8 is forbidden for black (a double three: g8-h8-i8 and
// i8-i9-i10). White's stones sit in the corners, out of play.
inline const std::vector<const char*> kDoubleThree = {
    "g8", "a1", "h8", "o1", "i9", "a15", "i10", "o15"};

// Black to move; i8 is forbidden for black (a double three: g8-h8-i8 and
// i8-i9-i10), and it is also the only point where white makes five
// (e4-f5-g6-h7, closed by black's d3). Black cannot stop the five: every
// legal move loses, and the only blocking point is not legal.
inline pb::Position ForbiddenBlockPosition() {
  pb::Position position;
  position.set_variant(pb::RENJU);
  position.set_board_size(15);
  for (const char* b : {"g8", "h8", "i9", "i10", "d3"})
    position.add_black(P(b));
  for (const char* w : {"e4", "f5", "g6", "h7", "a15"})
    position.add_white(P(w));
  position.set_side_to_move(pb::BLACK);
  return position;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_COMMON_SERVE_TEST_UTIL_H_
