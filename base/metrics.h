// Prometheus metrics: counters, gauges and histograms in a registry that
// renders them in Prometheus' text exposition format 0.0.4 (what a server's
// GET /metrics answers, and what `promtool check metrics` accepts).
//
// Debian 12 packages no Prometheus client library for C++ (prometheus-cpp
// is not in it), and the project takes its dependencies from Debian
// (../shared/DESIGN.md), so this is a small one of its own: only what the
// trainer, the inference server and the workers use.
//
//   MetricsRegistry registry;
//   Counter& stored = registry.AddCounter("renju_trainer_games_stored_total",
//                                         "Games stored.");
//   stored.Increment();
//   CounterFamily& rejected = registry.AddCounterFamily(
//       "renju_trainer_games_rejected_total", "Games rejected.", {"reason"});
//   rejected.WithLabels({"invalid_record"}).Increment();
//   registry.AddGaugeFunction("renju_trainer_generation", "...",
//                             [&] { return loop.GetStatus().generation; });
//   std::string text = registry.Render();
//
// Names follow Prometheus' conventions (checked when registered, a CHECK:
// they are the program's, not outside input): [a-zA-Z_:][a-zA-Z0-9_:]*,
// counters end in _total, base units (seconds, bytes). The project's start
// with renju_.
//
// Thread-safety: everything may be used from any thread. Counters and
// gauges are atomics; a histogram and a family hold a std::mutex (which
// ThreadSanitizer sees, unlike Debian's uninstrumented absl::Mutex). The
// registry owns every metric it hands out; references stay valid for its
// lifetime. Register at start-up: a registry renders whatever it holds.
#ifndef RENJU_BASE_METRICS_H_
#define RENJU_BASE_METRICS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace renju {

// A count of events; only goes up.
class Counter {
 public:
  // `by` must be >= 0.
  void Increment(double by = 1);
  double value() const { return value_.load(); }

 private:
  std::atomic<double> value_{0};
};

// A value that goes up and down (a size, a current generation).
class Gauge {
 public:
  void Set(double value) { value_.store(value); }
  void Add(double delta);
  double value() const { return value_.load(); }

 private:
  std::atomic<double> value_{0};
};

// Observations counted into buckets by upper bound (le), with their sum and
// count, as Prometheus' histogram_quantile expects.
class Histogram {
 public:
  // Bucket upper bounds, strictly increasing and finite; the +Inf bucket
  // is implicit.
  explicit Histogram(std::vector<double> upper_bounds);

  void Observe(double value);

  struct Snapshot {
    // Observations <= upper_bounds()[i]; the last entry is every
    // observation (+Inf).
    std::vector<uint64_t> cumulative_counts;
    double sum = 0;
    uint64_t count = 0;
  };
  // The buckets, sum and count at one moment, consistent with each other.
  Snapshot snapshot() const;
  const std::vector<double>& upper_bounds() const { return upper_bounds_; }

 private:
  const std::vector<double> upper_bounds_;
  mutable std::mutex mutex_;
  std::vector<uint64_t> bucket_counts_;  // guarded; +Inf last, not cumulative
  double sum_ = 0;                       // guarded
  uint64_t count_ = 0;                   // guarded
};

// `count` bounds start, start*factor, start*factor^2, ... (start > 0,
// factor > 1, count >= 1).
std::vector<double> ExponentialBuckets(double start, double factor, int count);

// Counters of one name told apart by labels, e.g. rejections by reason.
class CounterFamily {
 public:
  explicit CounterFamily(std::vector<std::string> label_names)
      : label_names_(std::move(label_names)) {}

  // The counter of these label values (one per label name, in order),
  // created at zero the first time. Label values may be any text.
  Counter& WithLabels(const std::vector<std::string>& values);

  const std::vector<std::string>& label_names() const { return label_names_; }
  // (label values, counter) pairs in label-value order.
  std::vector<std::pair<std::vector<std::string>, const Counter*>> Children()
      const;

 private:
  const std::vector<std::string> label_names_;
  mutable std::mutex mutex_;
  std::map<std::vector<std::string>, std::unique_ptr<Counter>> children_;
};

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // Each name may be registered once (a CHECK, as are malformed names).
  Counter& AddCounter(const std::string& name, const std::string& help);
  Gauge& AddGauge(const std::string& name, const std::string& help);
  Histogram& AddHistogram(const std::string& name, const std::string& help,
                          std::vector<double> upper_bounds);
  CounterFamily& AddCounterFamily(const std::string& name,
                                  const std::string& help,
                                  std::vector<std::string> label_names);
  // Figures another part of the program already keeps, read at each
  // Render on the rendering thread: `read` must be thread-safe. A counter
  // function must never go down.
  void AddGaugeFunction(const std::string& name, const std::string& help,
                        std::function<double()> read);
  void AddCounterFunction(const std::string& name, const std::string& help,
                          std::function<double()> read);

  // Every metric in registration order, in the text exposition format
  // 0.0.4: "# HELP", "# TYPE", then the samples.
  std::string Render() const;

 private:
  struct Metric;
  Metric& Add(const std::string& name, const std::string& help,
              const char* type);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Metric>> metrics_;  // guarded; never shrinks
};

// The Content-Type of Render's text.
inline constexpr char kMetricsContentType[] = "text/plain; version=0.0.4";

}  // namespace renju

#endif  // RENJU_BASE_METRICS_H_
