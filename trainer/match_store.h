// Results of matches between generations, and between a generation and a
// fixed anchor player (config arena.anchors, by name), kept in the
// trainer's SQLite file beside the games and the model registry (a table of
// its own, `matches`, created on open), so the ratings (arena/ratings.h
// fits them, ratings.h stores them) can be recomputed from every match ever
// played, after restarts too.
//
// The table's `anchor_b` column (TEXT, NULL for a match between
// generations) came after the first runs; Open adds it to an older file's
// table, whose rows stay matches between generations.
// Thread-safe: one connection behind a mutex.
#ifndef RENJU_TRAINER_MATCH_STORE_H_
#define RENJU_TRAINER_MATCH_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "arena/ratings.h"
#include "trainer/sqlite_db.h"

namespace renju {

class MatchStore {
 public:
  // Opens (creating if needed) the table in the SQLite file at `path`,
  // which may be the GameStore's.
  static absl::StatusOr<std::unique_ptr<MatchStore>> Open(
      const std::string& path);

  // Stores the match and returns its id. Errors: negative counts or
  // generations, a match of a generation against itself, an anchor match
  // whose generation_b is not -1, SQLite failures.
  absl::StatusOr<int64_t> AddMatch(const MatchResult& match);
  // Every stored match, oldest first.
  absl::StatusOr<std::vector<MatchResult>> Matches();

 private:
  explicit MatchStore(std::unique_ptr<SqliteDb> db) : db_(std::move(db)) {}

  absl::Mutex mutex_;
  std::unique_ptr<SqliteDb> db_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace renju

#endif  // RENJU_TRAINER_MATCH_STORE_H_
