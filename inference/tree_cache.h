// The inference server's recent search trees (ServerConfig.tree_cache_*),
// kept so that a Suggest whose position continues an earlier one's (a game
// being played move by move against the server) searches on from that
// subtree instead of from nothing.
//
// A request takes the tree it continues out of the cache (no two requests
// share one), searches, and puts it back. Memory is bounded three ways: the
// number of trees, their total root visits, and their age since last use;
// the least recently used go first. A tree belongs to the model whose
// evaluator it was built with, and keeps that model alive while cached: a
// request for another model drops it.
//
// Thread-safe.
#ifndef RENJU_INFERENCE_TREE_CACHE_H_
#define RENJU_INFERENCE_TREE_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "rules/game.h"
#include "search/search.h"

namespace renju {

struct TreeCacheLimits {
  int max_trees = 8;
  absl::Duration max_age = absl::Minutes(5);
  int64_t max_visits = 1000000;  // root visits of all trees together
};

class TreeCache {
 public:
  explicit TreeCache(const TreeCacheLimits& limits) : limits_(limits) {}

  // The kept tree that `game` continues by the most moves, on `model`,
  // advanced to `game` and removed from the cache; null when there is none.
  // Trees older than the age limit at `now`, and trees of other models, are
  // dropped first.
  std::unique_ptr<Search> Take(const Game& game, const void* model,
                               absl::Time now);
  // Keeps `search` (keyed by its game) for requests on `model`, last used
  // at `now`; then evicts beyond the limits, oldest first.
  void Put(std::unique_ptr<Search> search, std::shared_ptr<const void> model,
           absl::Time now);

  int size() const;
  int64_t visits() const;  // root visits of the kept trees

 private:
  struct Entry {
    std::unique_ptr<Search> search;
    std::shared_ptr<const void> model;  // keeps the evaluator alive
    absl::Time last_used;
    int64_t visits = 0;
  };
  // Move what goes into `out`, to be freed (a big tree takes a while)
  // after the lock is released.
  void DropLocked(const void* model, absl::Time now, std::vector<Entry>& out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void EvictLocked(std::vector<Entry>& out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const TreeCacheLimits limits_;
  // std::mutex, which ThreadSanitizer sees (inference_service.h).
  mutable std::mutex mutex_;
  std::vector<Entry> entries_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace renju

#endif  // RENJU_INFERENCE_TREE_CACHE_H_
