// Helpers for the inference server tests: a small config, checkpoints of a
// small network, positions, and a fake trainer that serves model files the
// way the real one does (GetCurrentModel, FetchModel, ListModels).
#ifndef RENJU_TESTS_INFERENCE_SERVE_TEST_UTIL_H_
#define RENJU_TESTS_INFERENCE_SERVE_TEST_UTIL_H_

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "base/file_util.h"
#include "config/config.h"
#include "gtest/gtest.h"
#include "nn/model.h"
#include "proto/trainer.grpc.pb.h"
#include "rpc/game_record.h"
#include "rpc/sha256.h"

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
inline std::filesystem::path TestDir() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("renju_serve_" + std::to_string(::getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

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

// Serves model files like the trainer: the current best, chunks with the
// info first, the whole registry.
class FakeTrainer final : public pb::Trainer::Service {
 public:
  // Registers `path` as `generation` and makes it the current best.
  void Publish(int64_t generation, const std::string& path) {
    pb::ModelInfo info;
    info.set_generation(generation);
    info.set_training_step(100 * generation);
    info.set_sha256(*Sha256OfFile(path));
    info.set_size_bytes(std::filesystem::file_size(path));
    info.set_status("best");
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [gen, entry] : models_) entry.first.set_status("candidate");
    models_[generation] = {info, path};
    current_ = generation;
  }

  grpc::Status GetCurrentModel(grpc::ServerContext*,
                               const pb::GetCurrentModelRequest*,
                               pb::ModelInfo* info) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (models_.empty()) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "no model yet");
    }
    *info = models_[current_].first;
    return grpc::Status::OK;
  }

  grpc::Status FetchModel(grpc::ServerContext*,
                          const pb::FetchModelRequest* request,
                          grpc::ServerWriter<pb::ModelChunk>* writer) override {
    pb::ModelInfo info;
    std::string path;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = models_.find(
          request->generation() == 0 ? current_ : request->generation());
      if (it == models_.end()) {
        return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such generation");
      }
      info = it->second.first;
      path = it->second.second;
    }
    const std::string bytes = *ReadFile(path);
    constexpr size_t kChunk = 16384;
    for (size_t offset = 0; offset < bytes.size() || offset == 0;
         offset += kChunk) {
      pb::ModelChunk chunk;
      if (offset == 0) *chunk.mutable_info() = info;
      chunk.set_offset(offset);
      chunk.set_data(bytes.substr(offset, kChunk));
      writer->Write(chunk);
      if (bytes.empty()) break;
    }
    return grpc::Status::OK;
  }

  grpc::Status ListModels(grpc::ServerContext*, const pb::ListModelsRequest*,
                          pb::ListModelsResponse* response) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [gen, entry] : models_)
      *response->add_models() = entry.first;
    return grpc::Status::OK;
  }

 private:
  // std::mutex: the gRPC threads' accesses must be visible to TSan.
  std::mutex mutex_;
  std::map<int64_t, std::pair<pb::ModelInfo, std::string>> models_
      ABSL_GUARDED_BY(mutex_);
  int64_t current_ ABSL_GUARDED_BY(mutex_) = 0;
};

// `trainer` served on a free loopback port, which `port` gets; null when
// the server did not start.
inline std::unique_ptr<grpc::Server> StartFakeTrainer(FakeTrainer& trainer,
                                                      int& port) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&trainer);
  return builder.BuildAndStart();
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_INFERENCE_SERVE_TEST_UTIL_H_
