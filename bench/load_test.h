// Shared by the inference server's load tests (bench/serve_bench.cc and
// bench/serve_soak.cc): the positions their clients ask about and how they
// summarise latencies.
#ifndef RENJU_BENCH_LOAD_TEST_H_
#define RENJU_BENCH_LOAD_TEST_H_

#include <vector>

#include "base/random.h"
#include "proto/game.pb.h"

namespace renju {

// A renju opening of 2..9 moves within three points of the centre, not yet
// over: every request a new position, so the evaluator's cache does not
// flatter the server.
pb::Position RandomOpening(Random& rng);

// The q-quantile (0..1) of `values`, which it sorts; 0 when empty.
double Percentile(std::vector<double>& values, double q);

}  // namespace renju

#endif  // RENJU_BENCH_LOAD_TEST_H_
