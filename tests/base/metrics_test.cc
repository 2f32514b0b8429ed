// The metrics registry renders exactly the text exposition format 0.0.4
// (tests/e2e/prometheus_test.cc has promtool and a real Prometheus read
// it), counts right from many threads, and escapes what needs it.
#include "base/metrics.h"

#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(MetricsTest, RendersEachTypeWithHelpAndTypeLines) {
  MetricsRegistry registry;
  Counter& games = registry.AddCounter("renju_games_total", "Games stored.");
  Gauge& generation = registry.AddGauge("renju_generation", "The generation.");
  Histogram& latency = registry.AddHistogram("renju_latency_seconds",
                                             "Latency.", {0.25, 0.5, 1});
  CounterFamily& rejected = registry.AddCounterFamily(
      "renju_rejected_total", "Rejected games.", {"reason"});
  int64_t step = 41;
  registry.AddCounterFunction("renju_steps_total", "Steps.",
                              [&] { return static_cast<double>(step); });
  registry.AddGaugeFunction("renju_loss", "Loss.", [] { return 0.25; });

  games.Increment();
  games.Increment(2);
  generation.Set(7);
  generation.Add(-1);
  latency.Observe(0.125);
  latency.Observe(0.5);  // on a bound: counted in it (le)
  latency.Observe(3);    // above every bound: +Inf only
  rejected.WithLabels({"wrong_variant"}).Increment();
  rejected.WithLabels({"invalid_record"}).Increment(4);
  ++step;

  EXPECT_EQ(registry.Render(),
            "# HELP renju_games_total Games stored.\n"
            "# TYPE renju_games_total counter\n"
            "renju_games_total 3\n"
            "# HELP renju_generation The generation.\n"
            "# TYPE renju_generation gauge\n"
            "renju_generation 6\n"
            "# HELP renju_latency_seconds Latency.\n"
            "# TYPE renju_latency_seconds histogram\n"
            "renju_latency_seconds_bucket{le=\"0.25\"} 1\n"
            "renju_latency_seconds_bucket{le=\"0.5\"} 2\n"
            "renju_latency_seconds_bucket{le=\"1\"} 2\n"
            "renju_latency_seconds_bucket{le=\"+Inf\"} 3\n"
            "renju_latency_seconds_sum 3.625\n"
            "renju_latency_seconds_count 3\n"
            "# HELP renju_rejected_total Rejected games.\n"
            "# TYPE renju_rejected_total counter\n"
            "renju_rejected_total{reason=\"invalid_record\"} 4\n"
            "renju_rejected_total{reason=\"wrong_variant\"} 1\n"
            "# HELP renju_steps_total Steps.\n"
            "# TYPE renju_steps_total counter\n"
            "renju_steps_total 42\n"
            "# HELP renju_loss Loss.\n"
            "# TYPE renju_loss gauge\n"
            "renju_loss 0.25\n");
}

TEST(MetricsTest, EscapesHelpAndLabelValues) {
  MetricsRegistry registry;
  registry.AddGauge("renju_g", "a \\ and a\nnewline");
  CounterFamily& family =
      registry.AddCounterFamily("renju_c_total", "c", {"code", "path"});
  family.WithLabels({"say \"hi\"", "a\\b\nc"}).Increment();
  EXPECT_EQ(registry.Render(),
            "# HELP renju_g a \\\\ and a\\nnewline\n"
            "# TYPE renju_g gauge\n"
            "renju_g 0\n"
            "# HELP renju_c_total c\n"
            "# TYPE renju_c_total counter\n"
            "renju_c_total{code=\"say \\\"hi\\\"\",path=\"a\\\\b\\nc\"} 1\n");
}

TEST(MetricsTest, ValuesReadBackExactlyAndSpecialValuesHaveTheirNames) {
  MetricsRegistry registry;
  Gauge& big = registry.AddGauge("renju_big", "b");
  Gauge& small = registry.AddGauge("renju_small", "s");
  Gauge& nan = registry.AddGauge("renju_nan", "n");
  Gauge& inf = registry.AddGauge("renju_inf", "i");
  big.Set(123456789012.0);
  small.Set(0.1);
  nan.Set(std::numeric_limits<double>::quiet_NaN());
  inf.Set(-std::numeric_limits<double>::infinity());
  const std::string text = registry.Render();
  EXPECT_NE(text.find("renju_big 123456789012\n"), std::string::npos) << text;
  EXPECT_NE(text.find("renju_small 0.1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("renju_nan NaN\n"), std::string::npos) << text;
  EXPECT_NE(text.find("renju_inf -Inf\n"), std::string::npos) << text;
}

TEST(MetricsTest, CountsFromManyThreadsAddUp) {
  MetricsRegistry registry;
  Counter& counter = registry.AddCounter("renju_events_total", "e");
  Histogram& histogram =
      registry.AddHistogram("renju_sizes", "s", ExponentialBuckets(1, 2, 4));
  CounterFamily& family =
      registry.AddCounterFamily("renju_codes_total", "c", {"code"});
  constexpr int kThreads = 4;
  constexpr int kEach = 10000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        counter.Increment();
        histogram.Observe(t);
        family.WithLabels({t % 2 == 0 ? "even" : "odd"}).Increment();
      }
    });
  }
  // Rendering while they count must be safe too.
  for (int i = 0; i < 10; ++i) (void)registry.Render();
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counter.value(), kThreads * kEach);
  const Histogram::Snapshot s = histogram.snapshot();
  EXPECT_EQ(s.count, uint64_t{kThreads * kEach});
  EXPECT_EQ(s.sum, (0 + 1 + 2 + 3) * kEach);
  // Bounds 1, 2, 4, 8: t = 0 and 1 are <= 1, t = 2 <= 2, t = 3 <= 4.
  EXPECT_EQ(s.cumulative_counts,
            (std::vector<uint64_t>{2 * kEach, 3 * kEach, 4 * kEach, 4 * kEach,
                                   4 * kEach}));
  EXPECT_EQ(family.WithLabels({"even"}).value(), 2 * kEach);
  EXPECT_EQ(family.WithLabels({"odd"}).value(), 2 * kEach);
}

TEST(MetricsTest, ExponentialBucketsMultiply) {
  EXPECT_EQ(ExponentialBuckets(0.001, 10, 4),
            (std::vector<double>{0.001, 0.01, 0.1, 1}));
}

TEST(MetricsDeathTest, MalformedOrRepeatedNamesAreProgrammingErrors) {
  MetricsRegistry registry;
  registry.AddCounter("renju_a_total", "a");
  EXPECT_DEATH(registry.AddCounter("renju_a_total", "again"), "twice");
  EXPECT_DEATH(registry.AddCounter("renju_b", "b"), "_total");
  EXPECT_DEATH(registry.AddGauge("renju_c_total", "c"), "_total");
  EXPECT_DEATH(registry.AddGauge("9renju", "d"), "not a metric name");
  EXPECT_DEATH(registry.AddCounterFamily("renju_e_total", "e", {"le"}),
               "not a label name");
  EXPECT_DEATH(registry.AddHistogram("renju_f", "f", {1, 1}), "increase");
}

}  // namespace
}  // namespace renju
