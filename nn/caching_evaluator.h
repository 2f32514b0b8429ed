// A bounded transposition cache in front of another evaluator (lc0's
// memcache.h, KataGo's NNCacheTable). Keyed by the position's hash (stones
// and side to move), variant and board size; the last moves the network also
// sees are not in the key, so a transposition reached by another move order
// gets the first order's evaluation, as in lc0 and Minigo.
//
// The table is direct-mapped: capacity slots, each position has one slot and
// a newcomer replaces whatever was there. Lookups take one short lock on a
// stripe of slots. The cache serves one board size (the network's): all
// policies live in one block of capacity x size^2 floats, allocated once, so
// memory is fixed (about capacity x (4 * size^2 + 24) bytes) and goes back to
// the system in one piece when the cache is destroyed (the inference server
// drops one cache per hot swap). Positions of another size pass through
// uncached.
#ifndef RENJU_NN_CACHING_EVALUATOR_H_
#define RENJU_NN_CACHING_EVALUATOR_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "search/evaluator.h"

namespace renju {

struct CacheStats {
  int64_t lookups = 0;
  int64_t hits = 0;
  int64_t entries = 0;  // filled slots
  int64_t capacity = 0;

  double hit_rate() const {
    return lookups == 0 ? 0.0 : static_cast<double>(hits) / lookups;
  }
};

class CachingEvaluator : public Evaluator {
 public:
  // `inner` is not owned and must outlive this; capacity >= 1 slots, for
  // positions on a board_size x board_size board.
  CachingEvaluator(Evaluator& inner, int capacity, int board_size);

  // Thread-safe. A hit copies the stored evaluation; a miss asks `inner`
  // and stores its answer. Errors from `inner` are returned, not cached.
  absl::Status Evaluate(Game& game, Evaluation& out) override;
  // Hits are answered here; the misses go to inner's EvaluateBatch together.
  absl::Status EvaluateBatch(absl::Span<Game* const> games,
                             absl::Span<Evaluation* const> outs) override;

  CacheStats stats() const;

 private:
  static constexpr int kNumStripes = 64;

  struct Slot {
    uint64_t key = 0;
    bool filled = false;
    float win = 0;
    float draw = 0;
    float loss = 0;
  };

  static uint64_t KeyOf(Game& game);
  // True, with `out` filled, when `game` (of the cache's size) is cached.
  bool Lookup(Game& game, Evaluation& out);
  // Keeps inner's answer `eval` for `game`; Internal when it is malformed.
  absl::Status Store(Game& game, const Evaluation& eval);
  std::mutex& StripeOf(size_t slot) { return stripes_[slot % kNumStripes]; }

  Evaluator& inner_;
  const int board_size_;
  const size_t points_;  // board_size^2
  // slots_[i] and policies_[i * points_, (i + 1) * points_) are guarded by
  // stripes_[i % kNumStripes]; std::mutex, which ThreadSanitizer sees,
  // unlike Debian's uninstrumented absl::Mutex.
  std::vector<Slot> slots_;
  std::unique_ptr<float[]> policies_;
  std::unique_ptr<std::mutex[]> stripes_;
  std::atomic<int64_t> lookups_{0};
  std::atomic<int64_t> hits_{0};
  std::atomic<int64_t> entries_{0};
};

}  // namespace renju

#endif  // RENJU_NN_CACHING_EVALUATOR_H_
