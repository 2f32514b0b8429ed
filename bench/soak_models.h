// SoakModels: the generations serve_soak's fake trainer publishes
// (bench/serve_soak.cc), so that the server under test hot-swaps.
#ifndef RENJU_BENCH_SOAK_MODELS_H_
#define RENJU_BENCH_SOAK_MODELS_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "config/config.h"
#include "nn/checkpoint.h"
#include "nn/model.h"
#include "proto/config.pb.h"
#include "tests/common/fake_trainer.h"

namespace renju {

// Alternates two weight sets: a fresh network of the config's shape and a
// checkpoint of that shape, each published to `trainer` as the next
// generation. Thread-safe.
class SoakModels {
 public:
  // The fresh network is seeded by `seed`; the checkpoint at `model_path`
  // must have the config's shape. Published files go to `dir`.
  static absl::StatusOr<std::unique_ptr<SoakModels>> Create(
      const pb::RunConfig& config, const std::string& model_path,
      const std::string& dir, uint64_t seed, testing::FakeTrainer& trainer) {
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
    return std::unique_ptr<SoakModels>(
        new SoakModels(std::move(sources), dir, trainer));
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
    if (absl::Status s = trainer_.Publish(generation, path); !s.ok()) return s;
    best_ = generation;
    return generation;
  }

 private:
  SoakModels(std::vector<Checkpoint> sources, std::string dir,
             testing::FakeTrainer& trainer)
      : sources_(std::move(sources)), dir_(std::move(dir)), trainer_(trainer) {}

  const std::vector<Checkpoint> sources_;
  const std::string dir_;
  testing::FakeTrainer& trainer_;
  std::mutex mutex_;
  int64_t best_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace renju

#endif  // RENJU_BENCH_SOAK_MODELS_H_
