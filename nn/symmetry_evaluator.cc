#include "nn/symmetry_evaluator.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): the n-th output of the stream.
uint64_t SplitMix64(uint64_t seed, uint64_t n) {
  uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

SymmetryEvaluator::SymmetryEvaluator(Evaluator& inner,
                                     const SymmetryOptions& options)
    : inner_(inner), options_(options) {}

Symmetry SymmetryEvaluator::Next() {
  if (!options_.random) return options_.fixed;
  const uint64_t n = calls_.fetch_add(1, std::memory_order_relaxed);
  return static_cast<Symmetry>(SplitMix64(options_.seed, n) % kNumSymmetries);
}

absl::Status SymmetryEvaluator::Evaluate(Game& game, Evaluation& out) {
  const Symmetry s = Next();
  if (s == kIdentity) return inner_.Evaluate(game, out);

  // Replaying forgives forbidden moves exactly when the original did: the
  // original is not over, so none of its moves ended it.
  const int size = game.size();
  Game transformed(game.variant(), size);
  for (Move m : game.moves()) {
    absl::Status status = transformed.Play(ApplySymmetry(s, m, size),
                                           ForbiddenMovePolicy::kForgiven);
    if (!status.ok()) {
      return absl::InternalError(
          absl::StrCat("replaying under symmetry ", s, ": ", status.message()));
    }
  }
  if (absl::Status status = inner_.Evaluate(transformed, out); !status.ok()) {
    return status;
  }
  // The prior of point p is the transformed position's prior at s(p).
  thread_local std::vector<float> transformed_policy;
  transformed_policy = out.policy;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Point q = ApplySymmetry(s, Point(x, y), size);
      out.policy[y * size + x] = transformed_policy[q.y * size + q.x];
    }
  }
  return absl::OkStatus();
}

}  // namespace renju
