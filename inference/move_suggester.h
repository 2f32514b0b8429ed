// Move suggestions on the served model, whichever door they come in by:
// the gRPC service's Suggest (inference_service.h) and the HTTP API's
// /api/suggest (http_frontend.h) are each a few lines over Suggest below.
//
// A suggestion is a position and a budget -> search (MCTS with the network,
// tree reuse through the TreeCache) -> best move, value, principal
// variation and candidates; or an opening rule and its actions so far -> the
// opening player's next action and its values (opening_suggestion.h).
//
// The MoveSuggester also holds the served model: SwapModel replaces it
// whole, and a request takes its own reference at its start, so a swap
// never fails a request in flight (the old stack is freed when the last of
// them ends). Thread-safe.
#ifndef RENJU_INFERENCE_MOVE_SUGGESTER_H_
#define RENJU_INFERENCE_MOVE_SUGGESTER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "base/metrics.h"
#include "inference/request_limiter.h"
#include "inference/served_model.h"
#include "inference/tree_cache.h"
#include "proto/config.pb.h"
#include "proto/inference.pb.h"

namespace renju {

// When a suggestion must end, as its caller sees it.
struct SuggestStop {
  // The caller's deadline for the answer: the search stops early enough
  // before it for the reply to arrive. InfiniteFuture: none (the request's
  // budget and the server's limits still end it).
  absl::Time deadline = absl::InfiniteFuture();
  // Polled while searching; true ends the suggestion with CANCELLED.
  // Optional.
  std::function<bool()> cancelled;
};

// What Suggest counts for Prometheus, when set; the registry owns them.
struct SuggestMetrics {
  // Every Suggest call, answered or not, from its start to its answer.
  Histogram* latency_seconds = nullptr;
  // Failed calls by `code`, the absl::StatusCode's name
  // ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", ...).
  CounterFamily* errors = nullptr;
};

// Registers renju_server_suggest_latency_seconds and
// renju_server_suggest_errors_total (each code Suggest returns at 0).
SuggestMetrics RegisterSuggestMetrics(MetricsRegistry& registry);

class MoveSuggester {
 public:
  // `config` must be valid (ValidateRunConfig); its `server` part sets the
  // search, the tree cache and the search limits. `seed` seeds the
  // searches' randomness (request n uses stream n). `metrics`, when set,
  // must outlive the suggester.
  MoveSuggester(const pb::RunConfig& config,
                std::shared_ptr<const ServedModel> model, uint64_t seed,
                const SuggestMetrics& metrics = {});
  ~MoveSuggester();

  void SwapModel(std::shared_ptr<const ServedModel> model);
  std::shared_ptr<const ServedModel> model() const;

  // Checks `query` before any work, then searches. `client` is the key the
  // per-client search limit (server.max_searches_per_client) counts under.
  // Errors: INVALID_ARGUMENT with the reason, naming its SuggestRequest
  // field (ErrorField, base/error_field.h: "position", "position.variant",
  // "visits", "time_ms", "num_candidates", "opening_rule",
  // "opening_actions"); RESOURCE_EXHAUSTED, at once, when `client` or the
  // server has too many searches running; DEADLINE_EXCEEDED when the
  // deadline leaves no time to search; CANCELLED when stop.cancelled said so.
  absl::StatusOr<pb::SuggestResponse> Suggest(const pb::SuggestRequest& query,
                                              const std::string& client,
                                              const SuggestStop& stop);

 private:
  // Suggest without the metrics.
  absl::StatusOr<pb::SuggestResponse> SuggestUnmeasured(
      const pb::SuggestRequest& query, const std::string& client,
      const SuggestStop& stop);
  absl::StatusOr<pb::SuggestResponse> SuggestMove(
      const pb::SuggestRequest& query,
      const std::shared_ptr<const ServedModel>& model, const SuggestStop& stop);

  const pb::RunConfig config_;
  const uint64_t seed_;
  const SuggestMetrics metrics_;
  std::unique_ptr<TreeCache> tree_cache_;  // null: tree reuse off
  RequestLimiter limiter_;                 // server.max_searches(_per_client)
  std::atomic<uint64_t> requests_{0};

  // std::mutex, which ThreadSanitizer sees, unlike Debian's uninstrumented
  // absl::Mutex (base/notification.h).
  mutable std::mutex mutex_;
  std::shared_ptr<const ServedModel> model_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace renju

#endif  // RENJU_INFERENCE_MOVE_SUGGESTER_H_
