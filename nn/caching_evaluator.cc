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

bool CachingEvaluator::Lookup(Game& game, Evaluation& out) {
  const uint64_t key = KeyOf(game);
  const size_t index = key % slots_.size();
  const Slot& slot = slots_[index];
  const float* policy = policies_.get() + index * points_;
  lookups_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(StripeOf(index));
  if (!slot.filled || slot.key != key) return false;
  out.policy.assign(policy, policy + points_);  // reuses out's storage
  out.win = slot.win;
  out.draw = slot.draw;
  out.loss = slot.loss;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

absl::Status CachingEvaluator::Store(Game& game, const Evaluation& eval) {
  if (eval.policy.size() != points_) {
    return absl::InternalError(absl::StrCat(
        "cache: evaluator returned a policy of ", eval.policy.size(),
        " points for a ", board_size_, "x", board_size_, " board"));
  }
  const uint64_t key = KeyOf(game);
  const size_t index = key % slots_.size();
  Slot& slot = slots_[index];
  std::lock_guard<std::mutex> lock(StripeOf(index));
  if (!slot.filled) entries_.fetch_add(1, std::memory_order_relaxed);
  slot.filled = true;
  slot.key = key;
  slot.win = eval.win;
  slot.draw = eval.draw;
  slot.loss = eval.loss;
  std::copy(eval.policy.begin(), eval.policy.end(),
            policies_.get() + index * points_);
  return absl::OkStatus();
}

absl::Status CachingEvaluator::Evaluate(Game& game, Evaluation& out) {
  if (game.size() != board_size_) return inner_.Evaluate(game, out);
  if (Lookup(game, out)) return absl::OkStatus();
  if (absl::Status s = inner_.Evaluate(game, out); !s.ok()) return s;
  return Store(game, out);
}

absl::Status CachingEvaluator::EvaluateBatch(
    absl::Span<Game* const> games, absl::Span<Evaluation* const> outs) {
  RENJU_CHECK(games.size() == outs.size())
      << games.size() << " games, " << outs.size() << " outputs";
  // The misses, to ask `inner` for together.
  std::vector<Game*> miss_games;
  std::vector<Evaluation*> miss_outs;
  for (size_t i = 0; i < games.size(); ++i) {
    if (games[i]->size() == board_size_ && Lookup(*games[i], *outs[i])) {
      continue;
    }
    miss_games.push_back(games[i]);
    miss_outs.push_back(outs[i]);
  }
  if (miss_games.empty()) return absl::OkStatus();
  if (absl::Status s = inner_.EvaluateBatch(miss_games, miss_outs); !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < miss_games.size(); ++i) {
    if (miss_games[i]->size() != board_size_) continue;
    if (absl::Status s = Store(*miss_games[i], *miss_outs[i]); !s.ok()) {
      return s;
    }
  }
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
