#include "inference/tree_cache.h"

#include <algorithm>
#include <iterator>

namespace renju {

std::unique_ptr<Search> TreeCache::Take(const Game& game, const void* model,
                                        absl::Time now) {
  std::unique_ptr<Search> search;
  std::vector<Entry> dropped;  // freed after the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    DropLocked(model, now, dropped);
    auto best = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!ContinuesGame(game, it->search->game())) continue;
      if (best == entries_.end() ||
          it->search->game().ply() > best->search->game().ply()) {
        best = it;
      }
    }
    if (best == entries_.end()) return nullptr;
    search = std::move(best->search);
    entries_.erase(best);
  }
  // Advancing frees the rest of the tree: done outside the lock.
  if (!search->AdvanceTo(game).ok()) return nullptr;
  return search;
}

void TreeCache::Put(std::unique_ptr<Search> search,
                    std::shared_ptr<const void> model, absl::Time now) {
  Entry entry;
  entry.visits = search->root().n;
  entry.search = std::move(search);
  entry.model = std::move(model);
  entry.last_used = now;
  std::vector<Entry> evicted;  // freed outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_back(std::move(entry));
  EvictLocked(evicted);
}

void TreeCache::DropLocked(const void* model, absl::Time now,
                           std::vector<Entry>& out) {
  auto keep = std::stable_partition(
      entries_.begin(), entries_.end(), [&](const Entry& e) {
        return e.model.get() == model && now - e.last_used <= limits_.max_age;
      });
  std::move(keep, entries_.end(), std::back_inserter(out));
  entries_.erase(keep, entries_.end());
}

void TreeCache::EvictLocked(std::vector<Entry>& out) {
  int64_t total = 0;
  for (const Entry& e : entries_) total += e.visits;
  while (!entries_.empty() &&
         (static_cast<int>(entries_.size()) > limits_.max_trees ||
          total > limits_.max_visits)) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) {
                                     return a.last_used < b.last_used;
                                   });
    total -= oldest->visits;
    out.push_back(std::move(*oldest));
    entries_.erase(oldest);
  }
}

int TreeCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(entries_.size());
}

int64_t TreeCache::visits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t total = 0;
  for (const Entry& e : entries_) total += e.visits;
  return total;
}

}  // namespace renju
