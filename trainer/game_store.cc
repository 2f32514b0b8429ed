#include "trainer/game_store.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

// Version 1 files made before uids were unique per worker keep a global
// UNIQUE(uid): stricter, and read the same.
constexpr int kSchemaVersion = 1;

constexpr char kGameStoreSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  worker_id TEXT NOT NULL,
  model_generation INTEGER NOT NULL,
  num_positions INTEGER NOT NULL,
  received_unix_ms INTEGER NOT NULL,
  record BLOB NOT NULL,
  -- A retried upload is stored once; unique per worker, so one worker
  -- cannot claim another's uids and make its games look like duplicates.
  UNIQUE (worker_id, uid));
CREATE TABLE IF NOT EXISTS workers (
  worker_id TEXT PRIMARY KEY,
  games_stored INTEGER NOT NULL DEFAULT 0,
  games_duplicate INTEGER NOT NULL DEFAULT 0,
  games_rejected INTEGER NOT NULL DEFAULT 0,
  last_rejection TEXT NOT NULL DEFAULT '',
  last_upload_unix_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS models (
  generation INTEGER PRIMARY KEY,
  parent_generation INTEGER NOT NULL,
  training_step INTEGER NOT NULL,
  games_seen INTEGER NOT NULL,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_unix_ms INTEGER NOT NULL,
  elo REAL NOT NULL DEFAULT 0,
  match_summary TEXT NOT NULL DEFAULT '');
)sql";

constexpr char kModelColumns[] =
    "generation, parent_generation, training_step, games_seen, path, sha256, "
    "size_bytes, status, created_unix_ms, elo, match_summary";

ModelEntry ReadModel(const SqliteStatement& s) {
  ModelEntry m;
  m.generation = s.ColumnInt(0);
  m.parent_generation = s.ColumnInt(1);
  m.training_step = s.ColumnInt(2);
  m.games_seen = s.ColumnInt(3);
  m.path = s.ColumnText(4);
  m.sha256 = s.ColumnText(5);
  m.size_bytes = s.ColumnInt(6);
  m.status = s.ColumnText(7);
  m.created_unix_ms = s.ColumnInt(8);
  m.elo = s.ColumnDouble(9);
  m.match_summary = s.ColumnText(10);
  return m;
}

void BindModel(SqliteStatement& s, const ModelEntry& m) {
  s.Bind(1, m.generation)
      .Bind(2, m.parent_generation)
      .Bind(3, m.training_step)
      .Bind(4, m.games_seen)
      .Bind(5, absl::string_view(m.path))
      .Bind(6, absl::string_view(m.sha256))
      .Bind(7, m.size_bytes)
      .Bind(8, absl::string_view(m.status))
      .Bind(9, m.created_unix_ms)
      .Bind(10, m.elo)
      .Bind(11, absl::string_view(m.match_summary));
}

}  // namespace

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

absl::StatusOr<std::unique_ptr<GameStore>> GameStore::Open(
    const std::string& path) {
  absl::StatusOr<std::unique_ptr<SqliteDb>> db = SqliteDb::Open(path);
  if (!db.ok()) return db.status();
  std::unique_ptr<GameStore> store(new GameStore(std::move(*db)));
  absl::MutexLock lock(&store->mutex_);
  if (absl::Status s = store->CreateSchema(); !s.ok()) return s;
  return store;
}

absl::Status GameStore::CreateSchema() {
  if (absl::Status s = db_->Execute(kGameStoreSchema); !s.ok()) return s;
  absl::StatusOr<SqliteStatement> version =
      db_->Prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!version.ok()) return version.status();
  absl::StatusOr<bool> row = version->Step();
  if (!row.ok()) return row.status();
  if (*row) {
    if (version->ColumnText(0) != std::to_string(kSchemaVersion)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "database ", db_->path(), ": schema version ", version->ColumnText(0),
          ", this build reads ", kSchemaVersion));
    }
  } else if (absl::Status s = db_->Execute(
                 absl::StrCat("INSERT INTO meta VALUES ('schema_version', '",
                              kSchemaVersion, "')"));
             !s.ok()) {
    return s;
  }
  absl::StatusOr<SqliteStatement> counts = db_->Prepare(
      "SELECT COUNT(*), COALESCE(SUM(num_positions), 0) FROM games");
  if (!counts.ok()) return counts.status();
  if (absl::StatusOr<bool> r = counts->Step(); !r.ok()) return r.status();
  num_games_ = counts->ColumnInt(0);
  num_positions_ = counts->ColumnInt(1);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<GameAckEntry>> GameStore::AddGames(
    const std::string& worker_id, const std::vector<IncomingGame>& games) {
  absl::MutexLock lock(&mutex_);
  SqliteTransaction transaction(*db_);
  if (!transaction.status().ok()) return transaction.status();
  absl::StatusOr<SqliteStatement> insert = db_->Prepare(
      "INSERT OR IGNORE INTO games (uid, worker_id, model_generation, "
      "num_positions, received_unix_ms, record) VALUES (?, ?, ?, ?, ?, ?)");
  if (!insert.ok()) return insert.status();

  const int64_t now = NowUnixMs();
  std::vector<GameAckEntry> acks;
  int64_t stored = 0, duplicate = 0, rejected = 0, positions = 0;
  std::string last_rejection;
  for (const IncomingGame& game : games) {
    GameAckEntry ack{game.uid, GameAckEntry::Outcome::kStored, ""};
    if (!game.rejection.empty()) {
      ack.outcome = GameAckEntry::Outcome::kRejected;
      ack.reason = game.rejection;
      last_rejection = game.rejection;
      ++rejected;
    } else {
      insert->Reset();
      insert->Bind(1, absl::string_view(game.uid))
          .Bind(2, absl::string_view(worker_id))
          .Bind(3, game.model_generation)
          .Bind(4, static_cast<int64_t>(game.num_positions))
          .Bind(5, now)
          .BindBlob(6, game.record);
      if (absl::Status s = insert->Run(); !s.ok()) return s;
      if (db_->Changes() == 0) {
        ack.outcome = GameAckEntry::Outcome::kDuplicate;
        ++duplicate;
      } else {
        ++stored;
        positions += game.num_positions;
      }
    }
    acks.push_back(std::move(ack));
  }

  absl::StatusOr<SqliteStatement> worker = db_->Prepare(
      "INSERT INTO workers (worker_id, games_stored, games_duplicate, "
      "games_rejected, last_rejection, last_upload_unix_ms) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(worker_id) DO UPDATE SET "
      "games_stored = games_stored + ?2, "
      "games_duplicate = games_duplicate + ?3, "
      "games_rejected = games_rejected + ?4, "
      "last_rejection = CASE WHEN ?5 = '' THEN last_rejection ELSE ?5 END, "
      "last_upload_unix_ms = ?6");
  if (!worker.ok()) return worker.status();
  worker->Bind(1, absl::string_view(worker_id))
      .Bind(2, stored)
      .Bind(3, duplicate)
      .Bind(4, rejected)
      .Bind(5, absl::string_view(last_rejection))
      .Bind(6, now);
  if (absl::Status s = worker->Run(); !s.ok()) return s;
  if (absl::Status s = transaction.Commit(); !s.ok()) return s;
  num_games_ += stored;
  num_positions_ += positions;
  return acks;
}

absl::StatusOr<std::vector<StoredGame>> GameStore::ReadGames(
    SqliteStatement& stmt) {
  std::vector<StoredGame> out;
  for (;;) {
    absl::StatusOr<bool> row = stmt.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(StoredGame{stmt.ColumnInt(0), stmt.ColumnBlob(1),
                             static_cast<int>(stmt.ColumnInt(2))});
  }
  return out;
}

absl::StatusOr<std::vector<StoredGame>> GameStore::ReadGamesAfter(
    int64_t after_id, int limit) {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(
      "SELECT id, record, num_positions FROM games WHERE id > ? "
      "ORDER BY id LIMIT ?");
  if (!stmt.ok()) return stmt.status();
  stmt->Bind(1, after_id).Bind(2, static_cast<int64_t>(limit));
  return ReadGames(*stmt);
}

absl::StatusOr<std::vector<StoredGame>> GameStore::ReadNewestGames(
    int64_t positions) {
  absl::MutexLock lock(&mutex_);
  // Walk back from the newest game until enough positions are covered.
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(
      "SELECT id, record, num_positions FROM games ORDER BY id DESC");
  if (!stmt.ok()) return stmt.status();
  std::vector<StoredGame> out;
  int64_t covered = 0;
  while (covered < positions) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(StoredGame{stmt->ColumnInt(0), stmt->ColumnBlob(1),
                             static_cast<int>(stmt->ColumnInt(2))});
    covered += out.back().num_positions;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

int64_t GameStore::NumGames() {
  absl::MutexLock lock(&mutex_);
  return num_games_;
}

int64_t GameStore::NumPositions() {
  absl::MutexLock lock(&mutex_);
  return num_positions_;
}

absl::Status GameStore::RegisterModel(const ModelEntry& model) {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt =
      db_->Prepare(absl::StrCat("INSERT INTO models (", kModelColumns,
                                ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  if (!stmt.ok()) return stmt.status();
  BindModel(*stmt, model);
  return stmt->Run();
}

absl::Status GameStore::UpdateModel(const ModelEntry& model) {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt =
      db_->Prepare(absl::StrCat("REPLACE INTO models (", kModelColumns,
                                ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  if (!stmt.ok()) return stmt.status();
  BindModel(*stmt, model);
  return stmt->Run();
}

absl::StatusOr<std::vector<ModelEntry>> GameStore::Models() {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(absl::StrCat(
      "SELECT ", kModelColumns, " FROM models ORDER BY generation"));
  if (!stmt.ok()) return stmt.status();
  std::vector<ModelEntry> out;
  for (;;) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(ReadModel(*stmt));
  }
  return out;
}

absl::StatusOr<std::optional<ModelEntry>> GameStore::BestModel() {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(absl::StrCat(
      "SELECT ", kModelColumns,
      " FROM models WHERE status = 'best' ORDER BY generation DESC LIMIT 1"));
  if (!stmt.ok()) return stmt.status();
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<ModelEntry>();
  return std::optional<ModelEntry>(ReadModel(*stmt));
}

absl::StatusOr<std::vector<WorkerEntry>> GameStore::Workers() {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(
      "SELECT worker_id, games_stored, games_duplicate, games_rejected, "
      "last_rejection, last_upload_unix_ms FROM workers ORDER BY worker_id");
  if (!stmt.ok()) return stmt.status();
  std::vector<WorkerEntry> out;
  for (;;) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(WorkerEntry{stmt->ColumnText(0), stmt->ColumnInt(1),
                              stmt->ColumnInt(2), stmt->ColumnInt(3),
                              stmt->ColumnText(4), stmt->ColumnInt(5)});
  }
  return out;
}

absl::Status GameStore::SetMeta(const std::string& key,
                                const std::string& value) {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt =
      db_->Prepare("REPLACE INTO meta (key, value) VALUES (?, ?)");
  if (!stmt.ok()) return stmt.status();
  stmt->Bind(1, absl::string_view(key)).Bind(2, absl::string_view(value));
  return stmt->Run();
}

absl::StatusOr<std::optional<std::string>> GameStore::GetMeta(
    const std::string& key) {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt =
      db_->Prepare("SELECT value FROM meta WHERE key = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->Bind(1, absl::string_view(key));
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(stmt->ColumnText(0));
}

}  // namespace renju
