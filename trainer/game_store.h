// The trainer's durable state in one SQLite file (WAL): the games workers
// uploaded, per-worker counts, and the model registry. An upload counts as
// delivered only after AddGames has committed it; a game whose uid the same
// worker already stored is a duplicate and is not stored again.
//
// Games are kept as serialized pb::GameRecord bytes; validation happens
// before AddGames (game_validation.h), so the store knows no rules.
// Thread-safe: one connection behind a mutex.
#ifndef RENJU_TRAINER_GAME_STORE_H_
#define RENJU_TRAINER_GAME_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "trainer/sqlite_db.h"

namespace renju {

struct IncomingGame {
  std::string uid;
  std::string record;  // serialized pb::GameRecord
  int64_t model_generation = 0;
  int num_positions = 0;  // training positions it holds
  std::string rejection;  // non-empty: invalid; counted, never stored
};

struct GameAckEntry {
  enum class Outcome { kStored, kDuplicate, kRejected };
  std::string uid;
  Outcome outcome = Outcome::kStored;
  std::string reason;
};

struct StoredGame {
  int64_t id = 0;  // arrival order, from 1
  std::string record;
  int num_positions = 0;
};

struct ModelEntry {
  int64_t generation = 0;
  int64_t parent_generation = -1;
  int64_t training_step = 0;
  int64_t games_seen = 0;
  std::string path;
  std::string sha256;
  int64_t size_bytes = 0;
  std::string status;  // "best", "candidate", "rejected"
  int64_t created_unix_ms = 0;
  double elo = 0;
  std::string match_summary;  // JSON from the gating match, if any
};

// Milliseconds since the Unix epoch, as the store's *_unix_ms columns
// hold them.
int64_t NowUnixMs();

struct WorkerEntry {
  std::string worker_id;
  int64_t games_stored = 0;
  int64_t games_duplicate = 0;
  int64_t games_rejected = 0;
  std::string last_rejection;
  int64_t last_upload_unix_ms = 0;
};

class GameStore {
 public:
  static absl::StatusOr<std::unique_ptr<GameStore>> Open(
      const std::string& path);

  // Stores the valid games of one upload in a single transaction and
  // updates the worker's counts. Returns one ack per game, in order; an
  // error means nothing of this upload was committed.
  absl::StatusOr<std::vector<GameAckEntry>> AddGames(
      const std::string& worker_id, const std::vector<IncomingGame>& games);

  // Up to `limit` games with id > after_id, in arrival order.
  absl::StatusOr<std::vector<StoredGame>> ReadGamesAfter(int64_t after_id,
                                                         int limit);
  // The newest games holding at least `positions` positions in total, in
  // arrival order (the replay window on restart).
  absl::StatusOr<std::vector<StoredGame>> ReadNewestGames(int64_t positions);
  int64_t NumGames();
  int64_t NumPositions();

  // Model registry.
  absl::Status RegisterModel(const ModelEntry& model);
  absl::Status UpdateModel(const ModelEntry& model);
  absl::StatusOr<std::vector<ModelEntry>> Models();
  // The newest model with status "best", if any.
  absl::StatusOr<std::optional<ModelEntry>> BestModel();

  absl::StatusOr<std::vector<WorkerEntry>> Workers();

  // Small named values that must survive restarts.
  absl::Status SetMeta(const std::string& key, const std::string& value);
  absl::StatusOr<std::optional<std::string>> GetMeta(const std::string& key);

 private:
  explicit GameStore(std::unique_ptr<SqliteDb> db) : db_(std::move(db)) {}
  absl::Status CreateSchema() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  absl::StatusOr<std::vector<StoredGame>> ReadGames(SqliteStatement& stmt)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  absl::Mutex mutex_;
  std::unique_ptr<SqliteDb> db_ ABSL_GUARDED_BY(mutex_);
  int64_t num_games_ ABSL_GUARDED_BY(mutex_) = 0;
  int64_t num_positions_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace renju

#endif  // RENJU_TRAINER_GAME_STORE_H_
