#include "base/random.h"

#include "base/logging.h"

namespace renju {

Random::Random(uint64_t seed, uint64_t stream)
    : engine_(MixBits(seed) ^ MixBits(stream + 0x5bd1e995ull)) {}

double Random::Uniform() {
  // 53 random bits, the precision of a double.
  return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

int Random::UniformInt(int n) {
  RENJU_DCHECK(n > 0) << n;
  return static_cast<int>(Uniform() * n);
}

std::vector<double> Random::Dirichlet(int n, double alpha) {
  std::vector<double> out(n);
  std::gamma_distribution<double> gamma(alpha, 1.0);
  double sum = 0;
  for (double& g : out) {
    g = gamma(engine_);
    sum += g;
  }
  // With a tiny alpha every sample can underflow to zero; fall back to a
  // uniform draw of one component, the limit of the distribution.
  if (sum <= 0) {
    out.assign(n, 0.0);
    if (n > 0) out[UniformInt(n)] = 1.0;
    return out;
  }
  for (double& g : out) g /= sum;
  return out;
}

}  // namespace renju
