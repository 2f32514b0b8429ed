// A worker's (or the inference server's) view of the trainer: upload games,
// learn about and download models. Each call has a deadline; errors come
// back as absl::Status naming the call. Thread-safe (gRPC stubs are).
#ifndef RENJU_RPC_TRAINER_CLIENT_H_
#define RENJU_RPC_TRAINER_CLIENT_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/trainer.grpc.pb.h"
#include "rpc/rpc.h"

namespace renju {

class TrainerClient {
 public:
  static absl::StatusOr<std::unique_ptr<TrainerClient>> Create(
      const ChannelOptions& options, int64_t deadline_ms = 30000);

  absl::StatusOr<std::vector<pb::GameAck>> UploadGames(
      const std::string& worker_id, const std::vector<pb::GameRecord>& games);
  absl::StatusOr<pb::ModelInfo> GetCurrentModel();
  absl::StatusOr<std::vector<pb::ModelInfo>> ListModels();
  absl::StatusOr<pb::TrainerStatus> GetStatus();
  // Downloads a generation (0: the current best) and writes it atomically to
  // `path` only if its size and SHA-256 match the announced ones.
  absl::StatusOr<pb::ModelInfo> FetchModel(int64_t generation,
                                           const std::string& path);

 private:
  TrainerClient(std::shared_ptr<grpc::Channel> channel,
                const ChannelOptions& options, int64_t deadline_ms);

  std::unique_ptr<pb::Trainer::Stub> stub_;
  ChannelOptions options_;  // for the errors' TLS hint (ToAbsl)
  std::string token_;
  int64_t deadline_ms_;
};

}  // namespace renju

#endif  // RENJU_RPC_TRAINER_CLIENT_H_
