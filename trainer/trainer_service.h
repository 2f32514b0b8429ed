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
#include <mutex>
#include <string>
#include <vector>

#include "base/metrics.h"
#include "proto/trainer.grpc.pb.h"
#include "rules/types.h"
#include "trainer/game_store.h"

namespace renju {

// What the service counts for Prometheus (trainer_process.cc serves them at
// /metrics); the registry owns them. RegisterTrainerServiceMetrics names
// them.
struct TrainerServiceMetrics {
  Counter* games_received = nullptr;   // in uploads that were read
  Counter* games_stored = nullptr;     // newly committed
  Counter* games_duplicate = nullptr;  // retried uploads, stored once before
  // Games not stored, by `reason`: kRejectInvalidRecord, kRejectWrongGame,
  // kRejectUploadTooLarge, kRejectUnauthenticated.
  CounterFamily* games_rejected = nullptr;
};
inline constexpr char kRejectInvalidRecord[] = "invalid_record";
inline constexpr char kRejectWrongGame[] = "wrong_variant_or_size";
inline constexpr char kRejectUploadTooLarge[] = "upload_too_large";
inline constexpr char kRejectUnauthenticated[] = "unauthenticated";

// Registers the counters above in `registry` (every rejection reason at 0,
// so each series exists from the start) and returns them.
TrainerServiceMetrics RegisterTrainerServiceMetrics(MetricsRegistry& registry);

// How long after its last call a client still counts as connected
// (TrainerService::NumConnectedClients): well over the workers' model poll
// (selfplay.model_poll_seconds, 5 s by default).
inline constexpr int64_t kConnectedWindowSeconds = 60;

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
  // Counted when set; must outlive the service.
  TrainerServiceMetrics metrics;
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

  // Clients (workers, and inference servers following the trainer) that
  // made a call in the last kConnectedWindowSeconds: told apart by their
  // token's worker id, or without tokens by their connection's address.
  int64_t NumConnectedClients();

 private:
  // The game to store from an uploaded record, or its rejection (and the
  // metrics' reason in *rejected_for).
  IncomingGame CheckGame(const pb::GameRecord& record,
                         const char** rejected_for) const;
  // Fills the upload's acks from the store's answer, counts and tells
  // on_stored.
  void Acknowledge(const std::vector<GameAckEntry>& acks,
                   const std::vector<IncomingGame>& incoming,
                   const std::string& worker,
                   pb::UploadGamesResponse* response);
  // Counts `count` games as rejected for `reason`, when metrics are on.
  void CountRejected(const char* reason, int64_t count);
  // Notes a call from the authenticated `worker_id` (NumConnectedClients).
  void NoteClient(const grpc::ServerContext& context,
                  const std::string& worker_id);

  // The worker id the call's token names, or UNAUTHENTICATED. Notes the
  // client as connected when it succeeds.
  grpc::Status Authenticate(const grpc::ServerContext& context,
                            const std::string& claimed_worker,
                            std::string* worker_id);

  GameStore* store_;
  TrainerServiceOptions options_;
  std::function<void(int64_t, int64_t)> on_stored_;
  std::function<void(pb::TrainerStatus*)> fill_status_;

  std::mutex clients_mutex_;
  // Client -> its last call, in steady-clock seconds; guarded by
  // clients_mutex_.
  std::map<std::string, int64_t> last_call_seconds_;
};

// Registry row <-> wire form.
pb::ModelInfo ToModelInfo(const ModelEntry& model);

}  // namespace renju

#endif  // RENJU_TRAINER_TRAINER_SERVICE_H_
