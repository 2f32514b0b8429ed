#include "trainer/sqlite_db.h"

#include <sqlite3.h>

#include "absl/strings/str_cat.h"

namespace renju {

absl::StatusOr<std::unique_ptr<SqliteDb>> SqliteDb::Open(
    const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return absl::UnavailableError(
        absl::StrCat("database ", path, ": cannot open: ", message));
  }
  // Writers wait for each other instead of failing at once.
  sqlite3_busy_timeout(db, 10000);
  std::unique_ptr<SqliteDb> out(new SqliteDb(db, path));
  if (absl::Status s =
          out->Execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                       "PRAGMA foreign_keys=ON;");
      !s.ok()) {
    return s;
  }
  return out;
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

int64_t SqliteDb::Changes() const { return sqlite3_changes(db_); }

namespace {

// SQLITE_FULL ("database or disk is full") is worth waiting out: the write
// succeeds once space is freed. Every other failure stays INTERNAL.
absl::StatusCode CodeOf(int sqlite_code) {
  return (sqlite_code & 0xff) == SQLITE_FULL
             ? absl::StatusCode::kResourceExhausted
             : absl::StatusCode::kInternal;
}

}  // namespace

absl::Status SqliteDb::Error(absl::string_view what) const {
  return absl::Status(
      CodeOf(sqlite3_extended_errcode(db_)),
      absl::StrCat("database ", path_, ": ", what, ": ", sqlite3_errmsg(db_)));
}

absl::Status SqliteDb::Execute(absl::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    absl::Status s = absl::Status(
        CodeOf(rc),
        absl::StrCat("database ", path_, ": ", message ? message : "error",
                     " (in: ", text.substr(0, 80), ")"));
    sqlite3_free(message);
    return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<SqliteStatement> SqliteDb::Prepare(absl::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt,
                         nullptr) != SQLITE_OK) {
    return Error(absl::StrCat("cannot prepare '", sql, "'"));
  }
  return SqliteStatement(this, stmt, std::string(sql));
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), sql_(std::move(other.sql_)) {
  other.stmt_ = nullptr;
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = other.stmt_;
    sql_ = std::move(other.sql_);
    other.stmt_ = nullptr;
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, absl::string_view text) {
  sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                    SQLITE_TRANSIENT);
  return *this;
}

SqliteStatement& SqliteStatement::BindBlob(int index, absl::string_view bytes) {
  sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                    SQLITE_TRANSIENT);
  return *this;
}

absl::StatusOr<bool> SqliteStatement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_->Error(absl::StrCat("'", sql_.substr(0, 80), "' failed"));
}

absl::Status SqliteStatement::Run() {
  for (;;) {
    absl::StatusOr<bool> row = Step();
    if (!row.ok()) return row.status();
    if (!*row) return absl::OkStatus();
  }
}

void SqliteStatement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t SqliteStatement::ColumnInt(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::ColumnDouble(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text),
                            sqlite3_column_bytes(stmt_, column))
              : std::string();
}

std::string SqliteStatement::ColumnBlob(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  return blob ? std::string(static_cast<const char*>(blob),
                            sqlite3_column_bytes(stmt_, column))
              : std::string();
}

bool SqliteStatement::ColumnIsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

SqliteTransaction::SqliteTransaction(SqliteDb& db) : db_(db) {
  begin_status_ = db_.Execute("BEGIN IMMEDIATE");
  done_ = !begin_status_.ok();
}

SqliteTransaction::~SqliteTransaction() {
  if (!done_) db_.Execute("ROLLBACK").IgnoreError();
}

absl::Status SqliteTransaction::Commit() {
  if (!begin_status_.ok()) return begin_status_;
  done_ = true;
  return db_.Execute("COMMIT");
}

}  // namespace renju
