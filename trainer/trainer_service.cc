#include "trainer/trainer_service.h"

#include <chrono>
#include <fstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "rpc/game_record.h"
#include "rpc/rpc.h"

namespace renju {
namespace {

int64_t SteadySeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TrainerServiceMetrics RegisterTrainerServiceMetrics(MetricsRegistry& registry) {
  TrainerServiceMetrics m;
  m.games_received = &registry.AddCounter(
      "renju_trainer_games_received_total",
      "Games received in uploads (stored, duplicate or rejected).");
  m.games_stored = &registry.AddCounter("renju_trainer_games_stored_total",
                                        "Games newly stored.");
  m.games_duplicate = &registry.AddCounter(
      "renju_trainer_games_duplicate_total",
      "Games uploaded again after they were stored (a retry), not stored "
      "twice.");
  m.games_rejected =
      &registry.AddCounterFamily("renju_trainer_games_rejected_total",
                                 "Games refused, by reason.", {"reason"});
  for (const char* reason : {kRejectInvalidRecord, kRejectWrongGame,
                             kRejectUploadTooLarge, kRejectUnauthenticated}) {
    m.games_rejected->WithLabels({reason});
  }
  return m;
}

pb::ModelInfo ToModelInfo(const ModelEntry& m) {
  pb::ModelInfo info;
  info.set_generation(m.generation);
  info.set_parent_generation(m.parent_generation);
  info.set_training_step(m.training_step);
  info.set_games_seen(m.games_seen);
  info.set_sha256(m.sha256);
  info.set_size_bytes(m.size_bytes);
  info.set_status(m.status);
  info.set_created_unix_ms(m.created_unix_ms);
  info.set_elo(m.elo);
  return info;
}

TrainerService::TrainerService(
    GameStore* store, TrainerServiceOptions options,
    std::function<void(int64_t, int64_t)> on_stored,
    std::function<void(pb::TrainerStatus*)> fill_status)
    : store_(store),
      options_(std::move(options)),
      on_stored_(std::move(on_stored)),
      fill_status_(std::move(fill_status)) {}

void TrainerService::CountRejected(const char* reason, int64_t count) {
  if (options_.metrics.games_rejected != nullptr && count > 0) {
    options_.metrics.games_rejected->WithLabels({reason}).Increment(count);
  }
}

void TrainerService::NoteClient(const grpc::ServerContext& context,
                                const std::string& worker_id) {
  // Without tokens a worker id is whatever the request says (and empty on
  // most calls): the connection's address tells clients apart instead.
  const std::string key =
      options_.worker_tokens.empty() ? context.peer() : worker_id;
  std::lock_guard<std::mutex> lock(clients_mutex_);
  last_call_seconds_[key] = SteadySeconds();
}

int64_t TrainerService::NumConnectedClients() {
  const int64_t now = SteadySeconds();
  std::lock_guard<std::mutex> lock(clients_mutex_);
  for (auto it = last_call_seconds_.begin(); it != last_call_seconds_.end();) {
    if (now - it->second > kConnectedWindowSeconds) {
      it = last_call_seconds_.erase(it);
    } else {
      ++it;
    }
  }
  return static_cast<int64_t>(last_call_seconds_.size());
}

grpc::Status TrainerService::Authenticate(const grpc::ServerContext& context,
                                          const std::string& claimed_worker,
                                          std::string* worker_id) {
  if (options_.worker_tokens.empty()) {
    *worker_id = claimed_worker.empty() ? "anonymous" : claimed_worker;
    NoteClient(context, *worker_id);
    return grpc::Status::OK;
  }
  std::string holder;
  if (grpc::Status s =
          CheckBearerToken(context, options_.worker_tokens, &holder);
      !s.ok()) {
    return s;
  }
  if (!claimed_worker.empty() && claimed_worker != holder) {
    return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                        absl::StrCat("token belongs to worker '", holder,
                                     "', not '", claimed_worker, "'"));
  }
  *worker_id = holder;
  NoteClient(context, holder);
  return grpc::Status::OK;
}

IncomingGame TrainerService::CheckGame(const pb::GameRecord& record,
                                       const char** rejected_for) const {
  IncomingGame game;
  game.uid = record.uid();
  game.model_generation = record.model_generation();
  absl::StatusOr<Game> replayed = ValidateGameRecord(record);
  if (!replayed.ok()) {
    game.rejection = std::string(replayed.status().message());
    *rejected_for = kRejectInvalidRecord;
  } else if (replayed->variant() != options_.variant ||
             replayed->size() != options_.board_size) {
    game.rejection =
        absl::StrCat("a ", VariantName(replayed->variant()), " game on ",
                     replayed->size(), "x", replayed->size(),
                     "; this run trains ", VariantName(options_.variant),
                     " on ", options_.board_size, "x", options_.board_size);
    *rejected_for = kRejectWrongGame;
  } else {
    // Stored as the trainer understands it: fields this build does not
    // know are dropped, not kept as opaque bytes.
    pb::GameRecord stored = record;
    stored.DiscardUnknownFields();
    game.num_positions = NumTrainingPositions(stored);
    game.record = stored.SerializeAsString();
  }
  // A rejected game's uid may be anything; acks and logs carry a safe one.
  if (!game.rejection.empty() && !IsSafeName(game.uid)) {
    game.uid = "(invalid uid)";
  }
  return game;
}

void TrainerService::Acknowledge(const std::vector<GameAckEntry>& acks,
                                 const std::vector<IncomingGame>& incoming,
                                 const std::string& worker,
                                 pb::UploadGamesResponse* response) {
  int64_t stored_games = 0, stored_positions = 0, num_duplicate = 0;
  for (size_t i = 0; i < acks.size(); ++i) {
    const GameAckEntry& entry = acks[i];
    pb::GameAck* ack = response->add_acks();
    ack->set_uid(entry.uid);
    ack->set_reason(entry.reason);
    switch (entry.outcome) {
      case GameAckEntry::Outcome::kStored:
        ack->set_outcome(pb::GameAck::STORED);
        ++stored_games;
        stored_positions += incoming[i].num_positions;
        break;
      case GameAckEntry::Outcome::kDuplicate:
        ack->set_outcome(pb::GameAck::DUPLICATE);
        ++num_duplicate;
        break;
      case GameAckEntry::Outcome::kRejected:
        ack->set_outcome(pb::GameAck::REJECTED);
        RENJU_LOG(WARNING) << "rejected game " << entry.uid << " from "
                           << worker << ": " << entry.reason;
        break;
    }
  }
  if (options_.metrics.games_stored != nullptr) {
    options_.metrics.games_stored->Increment(stored_games);
    options_.metrics.games_duplicate->Increment(num_duplicate);
  }
  if (stored_games > 0 && on_stored_)
    on_stored_(stored_games, stored_positions);
}

grpc::Status TrainerService::UploadGames(grpc::ServerContext* context,
                                         const pb::UploadGamesRequest* request,
                                         pb::UploadGamesResponse* response) {
  std::string worker;
  if (grpc::Status s = Authenticate(*context, request->worker_id(), &worker);
      !s.ok()) {
    CountRejected(kRejectUnauthenticated, request->games_size());
    return s;
  }
  if (options_.metrics.games_received != nullptr) {
    options_.metrics.games_received->Increment(request->games_size());
  }
  if (request->games_size() > options_.max_games_per_upload) {
    CountRejected(kRejectUploadTooLarge, request->games_size());
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("upload holds ", request->games_size(),
                     " games; the limit is ", options_.max_games_per_upload));
  }
  std::vector<IncomingGame> incoming;
  incoming.reserve(request->games_size());
  // Each game's rejection reason for the metrics (null: none), counted
  // once the store has answered, so a failed store counts nothing.
  std::vector<const char*> rejected_for(request->games_size(), nullptr);
  for (int i = 0; i < request->games_size(); ++i) {
    incoming.push_back(CheckGame(request->games(i), &rejected_for[i]));
  }
  absl::StatusOr<std::vector<GameAckEntry>> acks =
      store_->AddGames(worker, incoming);
  if (!acks.ok()) {
    RENJU_LOG(ERROR) << "upload from " << worker
                     << " not stored: " << acks.status();
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        absl::StrCat("games not stored, retry later: ",
                                     acks.status().message()));
  }
  for (const char* reason : rejected_for) {
    if (reason != nullptr) CountRejected(reason, 1);
  }
  Acknowledge(*acks, incoming, worker, response);
  return grpc::Status::OK;
}

grpc::Status TrainerService::GetCurrentModel(
    grpc::ServerContext* context, const pb::GetCurrentModelRequest* request,
    pb::ModelInfo* response) {
  std::string worker;
  if (grpc::Status s = Authenticate(*context, "", &worker); !s.ok()) return s;
  absl::StatusOr<std::optional<ModelEntry>> best = store_->BestModel();
  if (!best.ok()) return ToGrpc(best.status());
  if (!best->has_value()) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no model published yet");
  }
  *response = ToModelInfo(**best);
  return grpc::Status::OK;
}

grpc::Status TrainerService::FetchModel(
    grpc::ServerContext* context, const pb::FetchModelRequest* request,
    grpc::ServerWriter<pb::ModelChunk>* writer) {
  std::string worker;
  if (grpc::Status s = Authenticate(*context, "", &worker); !s.ok()) return s;
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return ToGrpc(models.status());
  const ModelEntry* model = nullptr;
  for (const ModelEntry& m : *models) {
    const bool wanted = request->generation() == 0
                            ? m.status == "best"
                            : m.generation == request->generation();
    if (wanted) model = &m;  // the newest best when generation is 0
  }
  if (model == nullptr) {
    return grpc::Status(
        grpc::StatusCode::NOT_FOUND,
        request->generation() == 0
            ? std::string("no model published yet")
            : absl::StrCat("no generation ", request->generation()));
  }
  std::ifstream file(model->path, std::ios::binary);
  if (!file) {
    return grpc::Status(
        grpc::StatusCode::INTERNAL,
        absl::StrCat("model file ", model->path, " is missing"));
  }
  std::vector<char> buffer(options_.fetch_chunk_bytes);
  int64_t offset = 0;
  bool first = true;
  while (!context->IsCancelled()) {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize n = file.gcount();
    if (n <= 0 && !first) break;
    pb::ModelChunk chunk;
    if (first) *chunk.mutable_info() = ToModelInfo(*model);
    chunk.set_offset(offset);
    chunk.set_data(buffer.data(), static_cast<size_t>(n));
    if (!writer->Write(chunk)) break;
    offset += n;
    first = false;
    if (n < static_cast<std::streamsize>(buffer.size())) break;
  }
  return grpc::Status::OK;
}

grpc::Status TrainerService::ListModels(grpc::ServerContext* context,
                                        const pb::ListModelsRequest* request,
                                        pb::ListModelsResponse* response) {
  std::string worker;
  if (grpc::Status s = Authenticate(*context, "", &worker); !s.ok()) return s;
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return ToGrpc(models.status());
  for (const ModelEntry& m : *models) *response->add_models() = ToModelInfo(m);
  return grpc::Status::OK;
}

grpc::Status TrainerService::GetStatus(grpc::ServerContext* context,
                                       const pb::GetStatusRequest* request,
                                       pb::TrainerStatus* response) {
  std::string worker;
  if (grpc::Status s = Authenticate(*context, "", &worker); !s.ok()) return s;
  response->set_total_games(store_->NumGames());
  response->set_total_positions(store_->NumPositions());
  absl::StatusOr<std::vector<WorkerEntry>> workers = store_->Workers();
  if (!workers.ok()) return ToGrpc(workers.status());
  for (const WorkerEntry& w : *workers) {
    pb::WorkerStatus* out = response->add_workers();
    out->set_worker_id(w.worker_id);
    out->set_games_stored(w.games_stored);
    out->set_games_duplicate(w.games_duplicate);
    out->set_games_rejected(w.games_rejected);
    out->set_last_rejection(w.last_rejection);
    out->set_last_upload_unix_ms(w.last_upload_unix_ms);
  }
  absl::StatusOr<std::vector<ModelEntry>> models = store_->Models();
  if (!models.ok()) return ToGrpc(models.status());
  for (const ModelEntry& m : *models) {
    response->set_latest_generation(m.generation);
    if (m.status == "best") response->set_best_generation(m.generation);
  }
  if (fill_status_) fill_status_(response);
  return grpc::Status::OK;
}

}  // namespace renju
