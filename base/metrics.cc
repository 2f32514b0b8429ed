#include "base/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/logging.h"

namespace renju {
namespace {

// A sample value as Prometheus reads it: the shortest text that reads back
// as the same double, and NaN, +Inf, -Inf by those names.
std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// HELP text escapes backslash and newline; label values also '"'.
std::string Escape(const std::string& text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

bool IsNameChar(char c, bool first, bool colon_allowed) {
  if (absl::ascii_isalpha(c) || c == '_') return true;
  if (c == ':') return colon_allowed;
  return !first && absl::ascii_isdigit(c);
}

// Metric names may hold ':' (reserved for recording rules, but legal);
// label names may not, and those starting "__" are Prometheus' own.
bool IsValidName(const std::string& name, bool metric) {
  if (name.empty()) return false;
  if (!metric && name.rfind("__", 0) == 0) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (!IsNameChar(name[i], i == 0, metric)) return false;
  }
  return true;
}

// {a="x",b="y"}, or "" without labels.
std::string LabelText(const std::vector<std::string>& names,
                      const std::vector<std::string>& values) {
  if (names.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ",";
    absl::StrAppend(&out, names[i], "=\"", Escape(values[i], true), "\"");
  }
  return out + "}";
}

void AppendHistogram(const std::string& name, const Histogram& histogram,
                     std::string& out) {
  const Histogram::Snapshot s = histogram.snapshot();
  const std::vector<double>& bounds = histogram.upper_bounds();
  for (size_t i = 0; i < bounds.size(); ++i) {
    absl::StrAppend(&out, name, "_bucket{le=\"", FormatValue(bounds[i]), "\"} ",
                    s.cumulative_counts[i], "\n");
  }
  absl::StrAppend(&out, name, "_bucket{le=\"+Inf\"} ", s.count, "\n");
  absl::StrAppend(&out, name, "_sum ", FormatValue(s.sum), "\n");
  absl::StrAppend(&out, name, "_count ", s.count, "\n");
}

// Adds `delta` to an atomic double (std::atomic<double> has no fetch_add
// before C++20).
void AtomicAdd(std::atomic<double>& value, double delta) {
  double old = value.load();
  while (!value.compare_exchange_weak(old, old + delta)) {
  }
}

}  // namespace

void Counter::Increment(double by) {
  RENJU_CHECK(by >= 0) << "a counter cannot go down (" << by << ")";
  AtomicAdd(value_, by);
}

void Gauge::Add(double delta) { AtomicAdd(value_, delta); }

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)),
      bucket_counts_(upper_bounds_.size() + 1, 0) {
  for (size_t i = 0; i < upper_bounds_.size(); ++i) {
    RENJU_CHECK(std::isfinite(upper_bounds_[i]))
        << "histogram bound " << upper_bounds_[i] << " (+Inf is implicit)";
    RENJU_CHECK(i == 0 || upper_bounds_[i - 1] < upper_bounds_[i])
        << "histogram bounds must increase";
  }
}

void Histogram::Observe(double value) {
  // The first bucket whose bound is >= value; past the end: +Inf.
  const size_t bucket =
      std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value) -
      upper_bounds_.begin();
  std::lock_guard<std::mutex> lock(mutex_);
  ++bucket_counts_[bucket];
  sum_ += value;
  ++count_;
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot s;
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t running = 0;
  for (uint64_t n : bucket_counts_) {
    running += n;
    s.cumulative_counts.push_back(running);
  }
  s.sum = sum_;
  s.count = count_;
  return s;
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  RENJU_CHECK(start > 0 && factor > 1 && count >= 1)
      << "ExponentialBuckets(" << start << ", " << factor << ", " << count
      << ")";
  std::vector<double> bounds;
  double bound = start;
  for (int i = 0; i < count; ++i) {
    bounds.push_back(bound);
    bound *= factor;
  }
  return bounds;
}

Counter& CounterFamily::WithLabels(const std::vector<std::string>& values) {
  RENJU_CHECK(values.size() == label_names_.size())
      << values.size() << " label values for " << label_names_.size()
      << " labels";
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<Counter>& child = children_[values];
  if (child == nullptr) child = std::make_unique<Counter>();
  return *child;
}

std::vector<std::pair<std::vector<std::string>, const Counter*>>
CounterFamily::Children() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<std::vector<std::string>, const Counter*>> out;
  for (const auto& [values, counter] : children_) {
    out.emplace_back(values, counter.get());
  }
  return out;
}

// One registered name: exactly one of the value holders is set.
struct MetricsRegistry::Metric {
  std::string name;
  std::string help;
  const char* type;  // "counter", "gauge", "histogram"
  std::unique_ptr<Counter> counter;
  std::unique_ptr<Gauge> gauge;
  std::unique_ptr<Histogram> histogram;
  std::unique_ptr<CounterFamily> family;
  std::function<double()> read;

  void AppendSamples(std::string& out) const {
    if (histogram != nullptr) {
      AppendHistogram(name, *histogram, out);
    } else if (family != nullptr) {
      for (const auto& [values, child] : family->Children()) {
        absl::StrAppend(&out, name, LabelText(family->label_names(), values),
                        " ", FormatValue(child->value()), "\n");
      }
    } else {
      const double value = counter != nullptr ? counter->value()
                           : gauge != nullptr ? gauge->value()
                                              : read();
      absl::StrAppend(&out, name, " ", FormatValue(value), "\n");
    }
  }
};

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

MetricsRegistry::Metric& MetricsRegistry::Add(const std::string& name,
                                              const std::string& help,
                                              const char* type) {
  RENJU_CHECK(IsValidName(name, /*metric=*/true))
      << "\"" << name << "\" is not a metric name";
  const bool counter = std::string(type) == "counter";
  const bool ends_total =
      name.size() > 6 && name.compare(name.size() - 6, 6, "_total") == 0;
  RENJU_CHECK(counter == ends_total)
      << name << ": counters, and only counters, end in _total";
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& m : metrics_) {
    RENJU_CHECK(m->name != name) << name << " is registered twice";
  }
  metrics_.push_back(std::make_unique<Metric>());
  Metric& metric = *metrics_.back();
  metric.name = name;
  metric.help = help;
  metric.type = type;
  return metric;
}

Counter& MetricsRegistry::AddCounter(const std::string& name,
                                     const std::string& help) {
  Metric& metric = Add(name, help, "counter");
  metric.counter = std::make_unique<Counter>();
  return *metric.counter;
}

Gauge& MetricsRegistry::AddGauge(const std::string& name,
                                 const std::string& help) {
  Metric& metric = Add(name, help, "gauge");
  metric.gauge = std::make_unique<Gauge>();
  return *metric.gauge;
}

Histogram& MetricsRegistry::AddHistogram(const std::string& name,
                                         const std::string& help,
                                         std::vector<double> upper_bounds) {
  Metric& metric = Add(name, help, "histogram");
  metric.histogram = std::make_unique<Histogram>(std::move(upper_bounds));
  return *metric.histogram;
}

CounterFamily& MetricsRegistry::AddCounterFamily(
    const std::string& name, const std::string& help,
    std::vector<std::string> label_names) {
  for (const std::string& label : label_names) {
    RENJU_CHECK(IsValidName(label, /*metric=*/false) && label != "le")
        << name << ": \"" << label << "\" is not a label name";
  }
  Metric& metric = Add(name, help, "counter");
  metric.family = std::make_unique<CounterFamily>(std::move(label_names));
  return *metric.family;
}

void MetricsRegistry::AddGaugeFunction(const std::string& name,
                                       const std::string& help,
                                       std::function<double()> read) {
  Add(name, help, "gauge").read = std::move(read);
}

void MetricsRegistry::AddCounterFunction(const std::string& name,
                                         const std::string& help,
                                         std::function<double()> read) {
  Add(name, help, "counter").read = std::move(read);
}

std::string MetricsRegistry::Render() const {
  // The metrics are never removed: their addresses, taken under the lock,
  // stay good while the values are read without it (a function may take
  // its own locks).
  std::vector<const Metric*> metrics;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& m : metrics_) metrics.push_back(m.get());
  }
  std::string out;
  for (const Metric* m : metrics) {
    absl::StrAppend(&out, "# HELP ", m->name, " ", Escape(m->help, false),
                    "\n# TYPE ", m->name, " ", m->type, "\n");
    m->AppendSamples(out);
  }
  return out;
}

}  // namespace renju
