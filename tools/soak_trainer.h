// SoakTrainer: serve_soak's stand-in for the trainer (tools/serve_soak.cc).
#ifndef RENJU_TOOLS_SOAK_TRAINER_H_
#define RENJU_TOOLS_SOAK_TRAINER_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/file_util.h"
#include "config/config.h"
#include "nn/checkpoint.h"
#include "nn/model.h"
#include "proto/trainer.grpc.pb.h"
#include "rpc/rpc.h"
#include "rpc/sha256.h"

namespace renju {

// The soak's stand-in for the trainer. It is scaffolding, not the component
// under test: it only announces a new best generation now and then and
// streams its file, the way trainer/trainer_service.cc does. Thread-safe.
class SoakTrainer final : public pb::Trainer::Service {
 public:
  // The two weight sets it alternates: a fresh network of the config's
  // shape (seeded by `seed`) and the checkpoint at `model_path`, which must
  // have that shape. Published files go to `dir`.
  static absl::StatusOr<std::unique_ptr<SoakTrainer>> Create(
      const pb::RunConfig& config, const std::string& model_path,
      const std::string& dir, uint64_t seed) {
    ModelOptions options;
    options.device = "cpu";
    absl::StatusOr<std::unique_ptr<Model>> fresh =
        Model::Create(ToNetworkConfig(config), options, seed);
    if (!fresh.ok()) return fresh.status();
    const std::string fresh_path = dir + "/fresh.model";
    if (absl::Status s = (*fresh)->Save(fresh_path); !s.ok()) return s;
    std::vector<Checkpoint> sources;
    for (const std::string& path : {fresh_path, model_path}) {
      absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(path);
      if (!checkpoint.ok()) return checkpoint.status();
      const std::string difference = DescribeConfigDifference(
          checkpoint->info.config, ToNetworkConfig(config));
      if (!difference.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, " does not have the config's network shape: ", difference));
      }
      sources.push_back(*std::move(checkpoint));
    }
    return std::unique_ptr<SoakTrainer>(
        new SoakTrainer(std::move(sources), dir));
  }

  // Writes generation N+1 from the next weight set with the checkpoint API
  // (so its hash and SHA-256 are a real file's) and makes it the best.
  absl::StatusOr<int64_t> PublishNext() {
    std::lock_guard<std::mutex> lock(mutex_);
    const int64_t generation = best_ + 1;
    Checkpoint source = sources_[(generation - 1) % sources_.size()];
    source.info.generation = generation;
    source.info.training_step = 100 * generation;
    const std::string path = absl::StrCat(dir_, "/gen", generation, ".model");
    absl::StatusOr<std::string> written =
        WriteCheckpoint(path, source.info, std::move(source.tensors));
    if (!written.ok()) return written.status();
    absl::StatusOr<std::string> sha256 = Sha256OfFile(path);
    if (!sha256.ok()) return sha256.status();
    std::error_code error;
    const uintmax_t bytes = std::filesystem::file_size(path, error);
    if (error) return absl::InternalError(absl::StrCat(path, ": ", error.message()));
    pb::ModelInfo info;
    info.set_generation(generation);
    info.set_parent_generation(best_);
    info.set_training_step(100 * generation);
    info.set_sha256(*sha256);
    info.set_size_bytes(static_cast<int64_t>(bytes));
    info.set_status("best");
    info.set_created_unix_ms(absl::ToUnixMillis(absl::Now()));
    if (best_ > 0) published_[best_].info.set_status("candidate");
    published_[generation] = {info, path};
    best_ = generation;
    return generation;
  }

  grpc::Status GetCurrentModel(grpc::ServerContext*,
                               const pb::GetCurrentModelRequest*,
                               pb::ModelInfo* response) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (best_ == 0) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "no model published");
    }
    *response = published_[best_].info;
    return grpc::Status::OK;
  }

  grpc::Status FetchModel(grpc::ServerContext* context,
                          const pb::FetchModelRequest* request,
                          grpc::ServerWriter<pb::ModelChunk>* writer) override {
    Published model;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const int64_t generation =
          request->generation() == 0 ? best_ : request->generation();
      auto it = published_.find(generation);
      if (it == published_.end()) {
        return grpc::Status(grpc::StatusCode::NOT_FOUND,
                            absl::StrCat("no generation ", generation));
      }
      model = it->second;
    }
    absl::StatusOr<std::string> bytes = ReadFile(model.path);
    if (!bytes.ok()) return ToGrpc(bytes.status());
    constexpr size_t kChunkBytes = 1 << 16;
    for (size_t offset = 0; offset == 0 || offset < bytes->size();
         offset += kChunkBytes) {
      if (context->IsCancelled()) break;
      pb::ModelChunk chunk;
      if (offset == 0) *chunk.mutable_info() = model.info;
      chunk.set_offset(static_cast<int64_t>(offset));
      chunk.set_data(bytes->substr(offset, kChunkBytes));
      if (!writer->Write(chunk)) break;
    }
    return grpc::Status::OK;
  }

 private:
  struct Published {
    pb::ModelInfo info;
    std::string path;
  };

  SoakTrainer(std::vector<Checkpoint> sources, std::string dir)
      : sources_(std::move(sources)), dir_(std::move(dir)) {}

  const std::vector<Checkpoint> sources_;
  const std::string dir_;
  std::mutex mutex_;
  std::map<int64_t, Published> published_ ABSL_GUARDED_BY(mutex_);
  int64_t best_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace renju

#endif  // RENJU_TOOLS_SOAK_TRAINER_H_
