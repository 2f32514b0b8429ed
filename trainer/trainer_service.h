// The Trainer gRPC service (proto/trainer.proto): validates and stores
// uploaded games, serves model files and metadata from the registry, and
// reports status. The training loop runs elsewhere (training_loop.h) and
// is told about new games through a callback.
//
// Authentication: when worker tokens are configured, every call must carry
// "authorization: Bearer <token>" metadata; the token names the worker, so a
// worker cannot upload under another's name. Thread-safe: gRPC calls these
// handlers from many threads.
#ifndef RENJU_TRAINER_TRAINER_SERVICE_H_
#define RENJU_TRAINER_TRAINER_SERVICE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "proto/trainer.grpc.pb.h"
#include "rules/types.h"
#include "trainer/game_store.h"

namespace renju {

struct TrainerServiceOptions {
  // token -> worker id. Empty: no authentication (loopback development).
  std::map<std::string, std::string> worker_tokens;
  // Limits per request; larger requests get INVALID_ARGUMENT.
  int max_games_per_upload = 256;
  int64_t fetch_chunk_bytes = 1 << 16;
  // The run's game: uploads of another variant or board size are rejected
  // (the network trains one board size; see RunConfig).
  Variant variant = Variant::kRenju;
  int board_size = kRenjuBoardSize;
};

class TrainerService final : public pb::Trainer::Service {
 public:
  // `store` must outlive the service. `on_stored(games, positions)` is called
  // after each upload that stored something; `fill_status` adds the
  // training loop's figures to a status reply. Either may be empty.
  TrainerService(GameStore* store, TrainerServiceOptions options,
                 std::function<void(int64_t, int64_t)> on_stored,
                 std::function<void(pb::TrainerStatus*)> fill_status);

  grpc::Status UploadGames(grpc::ServerContext* context,
                           const pb::UploadGamesRequest* request,
                           pb::UploadGamesResponse* response) override;
  grpc::Status GetCurrentModel(grpc::ServerContext* context,
                               const pb::GetCurrentModelRequest* request,
                               pb::ModelInfo* response) override;
  grpc::Status FetchModel(grpc::ServerContext* context,
                          const pb::FetchModelRequest* request,
                          grpc::ServerWriter<pb::ModelChunk>* writer) override;
  grpc::Status ListModels(grpc::ServerContext* context,
                          const pb::ListModelsRequest* request,
                          pb::ListModelsResponse* response) override;
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const pb::GetStatusRequest* request,
                         pb::TrainerStatus* response) override;

 private:
  // The worker id the call's token names, or UNAUTHENTICATED.
  grpc::Status Authenticate(const grpc::ServerContext& context,
                            const std::string& claimed_worker,
                            std::string* worker_id) const;

  GameStore* store_;
  TrainerServiceOptions options_;
  std::function<void(int64_t, int64_t)> on_stored_;
  std::function<void(pb::TrainerStatus*)> fill_status_;
};

// Registry row <-> wire form.
pb::ModelInfo ToModelInfo(const ModelEntry& model);

}  // namespace renju

#endif  // RENJU_TRAINER_TRAINER_SERVICE_H_
