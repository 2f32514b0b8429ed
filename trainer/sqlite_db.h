// A thin RAII layer over SQLite's C API: a connection and prepared
// statements whose errors come back as absl::Status naming the SQL and the
// database file. SQLite's C API is the library; the C++ wrappers Debian 12
// packages (vsqlite++, SOCI, cppdb) report errors by exceptions, which the
// project does not use at boundaries, and it needs only a handful of calls.
#ifndef RENJU_TRAINER_SQLITE_DB_H_
#define RENJU_TRAINER_SQLITE_DB_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct sqlite3;
struct sqlite3_stmt;

namespace renju {

class SqliteStatement;

// One connection. Not thread-safe: callers serialise access (GameStore holds
// a mutex around it).
class SqliteDb {
 public:
  // Opens (creating if needed) the database at `path` in WAL mode with full
  // synchronous commits, so a committed transaction survives a crash.
  static absl::StatusOr<std::unique_ptr<SqliteDb>> Open(
      const std::string& path);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs one or more statements without results.
  absl::Status Execute(absl::string_view sql);
  absl::StatusOr<SqliteStatement> Prepare(absl::string_view sql);

  // Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t Changes() const;
  const std::string& path() const { return path_; }
  // The error text of the last failed call, with the file name.
  absl::Status Error(absl::string_view what) const;

 private:
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

// A prepared statement. Bind parameters are 1-based as in SQLite.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  ~SqliteStatement();

  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, double value);
  SqliteStatement& Bind(int index, absl::string_view text);
  SqliteStatement& BindBlob(int index, absl::string_view bytes);

  // Advances: true if a row is available, false when done.
  absl::StatusOr<bool> Step();
  // Runs to completion (for statements without results).
  absl::Status Run();
  // Resets for another execution with new bindings.
  void Reset();

  int64_t ColumnInt(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  std::string ColumnBlob(int column) const;
  bool ColumnIsNull(int column) const;

 private:
  friend class SqliteDb;
  SqliteStatement(const SqliteDb* db, sqlite3_stmt* stmt, std::string sql)
      : db_(db), stmt_(stmt), sql_(std::move(sql)) {}
  const SqliteDb* db_;
  sqlite3_stmt* stmt_;
  std::string sql_;
};

// Begins a transaction; rolls back unless Commit() succeeded.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb& db);
  ~SqliteTransaction();
  absl::Status status() const { return begin_status_; }
  absl::Status Commit();

 private:
  SqliteDb& db_;
  absl::Status begin_status_;
  bool done_ = false;
};

}  // namespace renju

#endif  // RENJU_TRAINER_SQLITE_DB_H_
