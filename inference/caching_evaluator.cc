#include "inference/caching_evaluator.h"

#include "rules/logging.h"

namespace renju {
namespace {

// SplitMix64's finaliser: spreads the Zobrist bits over the slot index.
uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

CachingEvaluator::CachingEvaluator(Evaluator& inner, int capacity)
    : inner_(inner),
      slots_(capacity),
      stripes_(std::make_unique<std::mutex[]>(kNumStripes)) {
  RENJU_CHECK(capacity >= 1) << "cache capacity " << capacity;
}

uint64_t CachingEvaluator::KeyOf(Game& game) {
  // Zobrist keys do not depend on the board size or variant; mix both in.
  return Mix(game.hash() ^ (static_cast<uint64_t>(game.variant()) << 56) ^
             (static_cast<uint64_t>(game.size()) << 48));
}

absl::Status CachingEvaluator::Evaluate(Game& game, Evaluation& out) {
  const uint64_t key = KeyOf(game);
  const size_t index = key % slots_.size();
  Slot& slot = slots_[index];
  lookups_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(StripeOf(index));
    if (slot.filled && slot.key == key) {
      out = slot.evaluation;  // reuses out.policy's storage
      hits_.fetch_add(1, std::memory_order_relaxed);
      return absl::OkStatus();
    }
  }
  if (absl::Status s = inner_.Evaluate(game, out); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(StripeOf(index));
  if (!slot.filled) entries_.fetch_add(1, std::memory_order_relaxed);
  slot.filled = true;
  slot.key = key;
  slot.evaluation = out;
  return absl::OkStatus();
}

CacheStats CachingEvaluator::stats() const {
  CacheStats stats;
  stats.lookups = lookups_.load(std::memory_order_relaxed);
  stats.hits = hits_.load(std::memory_order_relaxed);
  stats.entries = entries_.load(std::memory_order_relaxed);
  stats.capacity = slots_.size();
  return stats;
}

}  // namespace renju
