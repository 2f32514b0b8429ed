#include "nn/symmetry_evaluator.h"

#include <vector>

#include "absl/status/statusor.h"
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

// `game` under symmetry `s`, rebuilt by replaying its moves. Replaying
// forgives forbidden moves exactly when the original did: the original is
// not over, so none of its moves ended it.
absl::StatusOr<Game> Transformed(const Game& game, Symmetry s) {
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
  return transformed;
}

// The prior of point p is the transformed position's prior at s(p).
void MapPolicyBack(Symmetry s, int size, Evaluation& out) {
  thread_local std::vector<float> transformed_policy;
  transformed_policy = out.policy;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const Point q = ApplySymmetry(s, Point(x, y), size);
      out.policy[y * size + x] = transformed_policy[q.y * size + q.x];
    }
  }
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
  absl::StatusOr<Game> transformed = Transformed(game, s);
  if (!transformed.ok()) return transformed.status();
  if (absl::Status status = inner_.Evaluate(*transformed, out); !status.ok()) {
    return status;
  }
  MapPolicyBack(s, game.size(), out);
  return absl::OkStatus();
}

absl::Status SymmetryEvaluator::EvaluateBatch(
    absl::Span<Game* const> games, absl::Span<Evaluation* const> outs) {
  const size_t n = games.size();
  std::vector<Symmetry> symmetries(n);
  // Reserved: `asked` points into it.
  std::vector<Game> transformed;
  transformed.reserve(n);
  std::vector<Game*> asked(n);
  for (size_t i = 0; i < n; ++i) {
    symmetries[i] = Next();
    if (symmetries[i] == kIdentity) {
      asked[i] = games[i];
      continue;
    }
    absl::StatusOr<Game> t = Transformed(*games[i], symmetries[i]);
    if (!t.ok()) return t.status();
    transformed.push_back(*std::move(t));
    asked[i] = &transformed.back();
  }
  if (absl::Status s = inner_.EvaluateBatch(asked, outs); !s.ok()) return s;
  for (size_t i = 0; i < n; ++i) {
    if (symmetries[i] != kIdentity) {
      MapPolicyBack(symmetries[i], games[i]->size(), *outs[i]);
    }
  }
  return absl::OkStatus();
}

}  // namespace renju
