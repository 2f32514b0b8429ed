#include "search/fake_evaluators.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "base/random.h"
#include "search/legal_moves.h"

namespace renju {
namespace {

absl::Status CheckNotOver(const Game& game) {
  if (!game.over()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "cannot evaluate a finished game (", GameResultName(game.result()),
      " won by ", EndReasonName(game.end_reason()), ")"));
}

// Scales the policy to sum to 1 over `legal`; uniform there if it sums to 0.
void Normalise(const PointSet& legal, int size, std::vector<float>& policy) {
  double sum = 0;
  legal.ForEach([&](Point p) { sum += policy[PolicyIndex(p, size)]; });
  const int count = legal.size();
  legal.ForEach([&](Point p) {
    float& v = policy[PolicyIndex(p, size)];
    v = sum > 0 ? static_cast<float>(v / sum) : 1.0f / count;
  });
}

// Uniform in [0, 1) from a hash.
double UnitFromHash(uint64_t h) {
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

}  // namespace

FixedEvaluator::FixedEvaluator(float win, float draw, float loss)
    : FixedEvaluator({}, win, draw, loss) {}

FixedEvaluator::FixedEvaluator(std::vector<float> priors, float win, float draw,
                               float loss)
    : priors_(std::move(priors)), win_(win), draw_(draw), loss_(loss) {
  RENJU_CHECK(std::fabs(win + draw + loss - 1.0f) < 1e-4f)
      << win << " " << draw << " " << loss;
}

absl::Status FixedEvaluator::Evaluate(Game& game, Evaluation& out) {
  if (absl::Status s = CheckNotOver(game); !s.ok()) return s;
  const int size = game.size();
  const int area = size * size;
  if (!priors_.empty() && static_cast<int>(priors_.size()) != area) {
    return absl::InvalidArgumentError(
        absl::StrCat("FixedEvaluator has ", priors_.size(),
                     " priors, the board has ", area, " points"));
  }
  num_evaluations_.fetch_add(1, std::memory_order_relaxed);
  const PointSet legal = LegalPointSet(game);
  out.policy.assign(area, 0.0f);
  legal.ForEach([&](Point p) {
    const int i = PolicyIndex(p, size);
    out.policy[i] = priors_.empty() ? 1.0f : priors_[i];
  });
  Normalise(legal, size, out.policy);
  out.win = win_;
  out.draw = draw_;
  out.loss = loss_;
  return absl::OkStatus();
}

RandomEvaluator::RandomEvaluator(uint64_t seed) : seed_(seed) {}

absl::Status RandomEvaluator::Evaluate(Game& game, Evaluation& out) {
  if (absl::Status s = CheckNotOver(game); !s.ok()) return s;
  num_evaluations_.fetch_add(1, std::memory_order_relaxed);
  const int size = game.size();
  const uint64_t key = MixBits(seed_ ^ game.hash());
  const PointSet legal = LegalPointSet(game);
  out.policy.assign(size * size, 0.0f);
  // Softmax of uniform logits in [0, 4): priors spread over ~e^4 = 55x,
  // enough for PUCT to prefer some moves clearly.
  legal.ForEach([&](Point p) {
    const int i = PolicyIndex(p, size);
    out.policy[i] = static_cast<float>(
        std::exp(4.0 * UnitFromHash(MixBits(key + static_cast<uint64_t>(i)))));
  });
  Normalise(legal, size, out.policy);
  const double a = UnitFromHash(MixBits(key ^ 0xa1));
  const double b = UnitFromHash(MixBits(key ^ 0xb2));
  const double d = 0.2 * UnitFromHash(MixBits(key ^ 0xc3));
  out.draw = static_cast<float>(d);
  out.win = static_cast<float>((1 - d) * a / (a + b + 1e-12));
  out.loss = 1.0f - out.win - out.draw;
  return absl::OkStatus();
}

}  // namespace renju
