#include "trainer/match_store.h"

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

constexpr char kMatchStoreSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS matches (
  id INTEGER PRIMARY KEY,
  generation_a INTEGER NOT NULL,
  generation_b INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  losses INTEGER NOT NULL,
  pair0 INTEGER NOT NULL,
  pair1 INTEGER NOT NULL,
  pair2 INTEGER NOT NULL,
  pair3 INTEGER NOT NULL,
  pair4 INTEGER NOT NULL,
  elo REAL NOT NULL,
  elo_error REAL NOT NULL,
  decision TEXT NOT NULL,
  summary TEXT NOT NULL,
  finished_unix_ms INTEGER NOT NULL,
  anchor_b TEXT);
)sql";

constexpr char kColumns[] =
    "generation_a, generation_b, wins, draws, losses, pair0, pair1, pair2, "
    "pair3, pair4, elo, elo_error, decision, summary, finished_unix_ms, "
    "anchor_b";

// Tables created before anchors lack anchor_b: add it (NULL in old rows).
absl::Status AddAnchorColumn(SqliteDb& db) {
  absl::StatusOr<SqliteStatement> columns =
      db.Prepare("SELECT name FROM pragma_table_info('matches')");
  if (!columns.ok()) return columns.status();
  for (;;) {
    absl::StatusOr<bool> row = columns->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (columns->ColumnText(0) == "anchor_b") return absl::OkStatus();
  }
  return db.Execute("ALTER TABLE matches ADD COLUMN anchor_b TEXT");
}

absl::Status CheckMatch(const MatchResult& m) {
  if (!m.anchor_b.empty()) {
    if (m.generation_a < 0 || m.generation_b != -1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match: generation ", m.generation_a, " vs anchor ", m.anchor_b,
          " needs generation_a >= 0 and generation_b -1, not ",
          m.generation_b));
    }
  } else if (m.generation_a < 0 || m.generation_b < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("match: generations ", m.generation_a, " and ",
                     m.generation_b, " must not be negative"));
  }
  if (m.anchor_b.empty() && m.generation_a == m.generation_b) {
    return absl::InvalidArgumentError(absl::StrCat(
        "match: generation ", m.generation_a, " against itself rates nothing"));
  }
  bool negative = m.wins < 0 || m.draws < 0 || m.losses < 0;
  for (int64_t n : m.pentanomial) negative |= n < 0;
  if (negative) {
    return absl::InvalidArgumentError(absl::StrCat(
        "match ", m.generation_a, " vs ",
        m.anchor_b.empty() ? absl::StrCat(m.generation_b) : m.anchor_b,
        ": negative counts (W/D/L ", m.wins, "/", m.draws, "/", m.losses, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<MatchStore>> MatchStore::Open(
    const std::string& path) {
  absl::StatusOr<std::unique_ptr<SqliteDb>> db = SqliteDb::Open(path);
  if (!db.ok()) return db.status();
  if (absl::Status s = (*db)->Execute(kMatchStoreSchema); !s.ok()) return s;
  if (absl::Status s = AddAnchorColumn(**db); !s.ok()) return s;
  return std::unique_ptr<MatchStore>(new MatchStore(std::move(*db)));
}

absl::StatusOr<int64_t> MatchStore::AddMatch(const MatchResult& m) {
  if (absl::Status s = CheckMatch(m); !s.ok()) return s;
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(
      absl::StrCat("INSERT INTO matches (", kColumns,
                   ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                   "NULLIF(?, '')) RETURNING id"));
  if (!stmt.ok()) return stmt.status();
  stmt->Bind(1, m.generation_a)
      .Bind(2, m.generation_b)
      .Bind(3, m.wins)
      .Bind(4, m.draws)
      .Bind(5, m.losses);
  for (int i = 0; i < 5; ++i) stmt->Bind(6 + i, m.pentanomial[i]);
  stmt->Bind(11, m.elo)
      .Bind(12, m.elo_error)
      .Bind(13, absl::string_view(m.decision))
      .Bind(14, absl::string_view(m.summary_json))
      .Bind(15, m.finished_unix_ms)
      .Bind(16, absl::string_view(m.anchor_b));
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) {
    return absl::InternalError(absl::StrCat("INSERT INTO matches in ",
                                            db_->path(), " returned no id"));
  }
  const int64_t id = stmt->ColumnInt(0);
  // Finish the statement so the insert commits now.
  absl::StatusOr<bool> done = stmt->Step();
  if (!done.ok()) return done.status();
  return id;
}

absl::StatusOr<std::vector<MatchResult>> MatchStore::Matches() {
  absl::MutexLock lock(&mutex_);
  absl::StatusOr<SqliteStatement> stmt = db_->Prepare(
      absl::StrCat("SELECT id, ", kColumns, " FROM matches ORDER BY id"));
  if (!stmt.ok()) return stmt.status();
  std::vector<MatchResult> out;
  for (;;) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    MatchResult m;
    m.id = stmt->ColumnInt(0);
    m.generation_a = stmt->ColumnInt(1);
    m.generation_b = stmt->ColumnInt(2);
    m.wins = stmt->ColumnInt(3);
    m.draws = stmt->ColumnInt(4);
    m.losses = stmt->ColumnInt(5);
    for (int i = 0; i < 5; ++i) m.pentanomial[i] = stmt->ColumnInt(6 + i);
    m.elo = stmt->ColumnDouble(11);
    m.elo_error = stmt->ColumnDouble(12);
    m.decision = stmt->ColumnText(13);
    m.summary_json = stmt->ColumnText(14);
    m.finished_unix_ms = stmt->ColumnInt(15);
    m.anchor_b = stmt->ColumnText(16);  // "" for NULL
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace renju
