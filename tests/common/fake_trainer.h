// FakeTrainer: a stand-in for the trainer's model-serving side, for the
// inference server's tests (tests/inference) and its soak
// (bench/serve_soak.cc). It is scaffolding, not a component under test: it
// registers model files as generations and serves them the way
// trainer/trainer_service.cc does (GetCurrentModel, FetchModel in chunks
// with the info first, ListModels). Thread-safe. No GoogleTest, so that a
// bench binary can use it too.
#ifndef RENJU_TESTS_COMMON_FAKE_TRAINER_H_
#define RENJU_TESTS_COMMON_FAKE_TRAINER_H_

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/file_util.h"
#include "proto/trainer.grpc.pb.h"
#include "rpc/rpc.h"
#include "rpc/sha256.h"

namespace renju::testing {

class FakeTrainer final : public pb::Trainer::Service {
 public:
  // `chunk_bytes`: the size of FetchModel's chunks.
  explicit FakeTrainer(size_t chunk_bytes = 16384)
      : chunk_bytes_(chunk_bytes) {}

  // Registers the checkpoint at `path` as `generation` (training step
  // 100 * generation, its SHA-256 and size) and makes it the best; the
  // best before it becomes a candidate. The error names the file.
  absl::Status Publish(int64_t generation, const std::string& path) {
    absl::StatusOr<std::string> sha256 = Sha256OfFile(path);
    if (!sha256.ok()) return sha256.status();
    std::error_code error;
    const uintmax_t bytes = std::filesystem::file_size(path, error);
    if (error) {
      return absl::InternalError(absl::StrCat(path, ": ", error.message()));
    }
    pb::ModelInfo info;
    info.set_generation(generation);
    info.set_training_step(100 * generation);
    info.set_sha256(*sha256);
    info.set_size_bytes(static_cast<int64_t>(bytes));
    info.set_status("best");
    info.set_created_unix_ms(absl::ToUnixMillis(absl::Now()));
    std::lock_guard<std::mutex> lock(mutex_);
    info.set_parent_generation(best_);
    for (auto& [gen, model] : models_) model.info.set_status("candidate");
    models_[generation] = {info, path};
    best_ = generation;
    return absl::OkStatus();
  }

  grpc::Status GetCurrentModel(grpc::ServerContext*,
                               const pb::GetCurrentModelRequest*,
                               pb::ModelInfo* response) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (models_.empty()) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "no model published");
    }
    *response = models_[best_].info;
    return grpc::Status::OK;
  }

  grpc::Status FetchModel(grpc::ServerContext* context,
                          const pb::FetchModelRequest* request,
                          grpc::ServerWriter<pb::ModelChunk>* writer) override {
    Model model;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const int64_t generation =
          request->generation() == 0 ? best_ : request->generation();
      auto it = models_.find(generation);
      if (it == models_.end()) {
        return grpc::Status(grpc::StatusCode::NOT_FOUND,
                            absl::StrCat("no generation ", generation));
      }
      model = it->second;
    }
    absl::StatusOr<std::string> bytes = ReadFile(model.path);
    if (!bytes.ok()) return ToGrpc(bytes.status());
    for (size_t offset = 0; offset == 0 || offset < bytes->size();
         offset += chunk_bytes_) {
      if (context->IsCancelled()) break;
      pb::ModelChunk chunk;
      if (offset == 0) *chunk.mutable_info() = model.info;
      chunk.set_offset(static_cast<int64_t>(offset));
      chunk.set_data(bytes->substr(offset, chunk_bytes_));
      if (!writer->Write(chunk)) break;
    }
    return grpc::Status::OK;
  }

  grpc::Status ListModels(grpc::ServerContext*, const pb::ListModelsRequest*,
                          pb::ListModelsResponse* response) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [gen, model] : models_) {
      *response->add_models() = model.info;
    }
    return grpc::Status::OK;
  }

 private:
  struct Model {
    pb::ModelInfo info;
    std::string path;
  };

  const size_t chunk_bytes_;
  // std::mutex: the gRPC threads' accesses must be visible to TSan.
  std::mutex mutex_;
  std::map<int64_t, Model> models_ ABSL_GUARDED_BY(mutex_);
  int64_t best_ ABSL_GUARDED_BY(mutex_) = 0;  // 0: none yet
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

#endif  // RENJU_TESTS_COMMON_FAKE_TRAINER_H_
