// The one source of randomness in search: a seeded generator passed in by
// the caller (Minigo cc/random.h), so the same seed gives the same game.
// Not thread-safe: one per thread or per game.
#ifndef RENJU_BASE_RANDOM_H_
#define RENJU_BASE_RANDOM_H_

#include <cstdint>
#include <random>
#include <vector>

namespace renju {

class Random {
 public:
  // `stream` separates generators that share a seed (one per game or
  // thread of a run).
  explicit Random(uint64_t seed, uint64_t stream = 0);

  uint64_t NextUint64() { return engine_(); }
  // Uniform in [0, 1).
  double Uniform();
  // Uniform in [0, n); n must be positive.
  int UniformInt(int n);
  // A sample of the Dirichlet distribution with concentration `alpha` for
  // each of n components; sums to 1.
  std::vector<double> Dirichlet(int n, double alpha);

 private:
  std::mt19937_64 engine_;
};

// SplitMix64: a fast, well-mixed hash of one 64-bit word.
constexpr uint64_t MixBits(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace renju

#endif  // RENJU_BASE_RANDOM_H_
