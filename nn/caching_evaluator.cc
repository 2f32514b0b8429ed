#include "nn/caching_evaluator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/logging.h"

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

CachingEvaluator::CachingEvaluator(Evaluator& inner, int capacity,
                                   int board_size)
    : inner_(inner),
      board_size_(board_size),
      points_(static_cast<size_t>(board_size) * board_size),
      slots_(capacity),
      // Uninitialised: a slot's policy is read only once the slot is filled,
      // and untouched pages of the block cost no memory.
      policies_(new float[static_cast<size_t>(capacity) * points_]),
      stripes_(std::make_unique<std::mutex[]>(kNumStripes)) {
  RENJU_CHECK(capacity >= 1) << "cache capacity " << capacity;
  RENJU_CHECK(board_size >= 1 && board_size <= kMaxBoardSize)
      << "cache board size " << board_size;
}

uint64_t CachingEvaluator::KeyOf(Game& game) {
  // Zobrist keys do not depend on the variant; mix it in.
  return Mix(game.hash() ^ (static_cast<uint64_t>(game.variant()) << 56));
}

absl::Status CachingEvaluator::Evaluate(Game& game, Evaluation& out) {
  if (game.size() != board_size_) return inner_.Evaluate(game, out);
  const uint64_t key = KeyOf(game);
  const size_t index = key % slots_.size();
  Slot& slot = slots_[index];
  float* policy = policies_.get() + index * points_;
  lookups_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(StripeOf(index));
    if (slot.filled && slot.key == key) {
      out.policy.assign(policy, policy + points_);  // reuses out's storage
      out.win = slot.win;
      out.draw = slot.draw;
      out.loss = slot.loss;
      hits_.fetch_add(1, std::memory_order_relaxed);
      return absl::OkStatus();
    }
  }
  if (absl::Status s = inner_.Evaluate(game, out); !s.ok()) return s;
  if (out.policy.size() != points_) {
    return absl::InternalError(absl::StrCat(
        "cache: evaluator returned a policy of ", out.policy.size(),
        " points for a ", board_size_, "x", board_size_, " board"));
  }
  std::lock_guard<std::mutex> lock(StripeOf(index));
  if (!slot.filled) entries_.fetch_add(1, std::memory_order_relaxed);
  slot.filled = true;
  slot.key = key;
  slot.win = out.win;
  slot.draw = out.draw;
  slot.loss = out.loss;
  std::copy(out.policy.begin(), out.policy.end(), policy);
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
