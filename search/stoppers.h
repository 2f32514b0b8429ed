// When a search stops: small rule objects and a chainer, as in lc0's
// src/search/classic/stoppers/stoppers.h. The search asks before every
// playout, under its tree mutex, so a rule sees a consistent snapshot and
// multi-threaded searches stop on exactly the visit budget.
#ifndef RENJU_SEARCH_STOPPERS_H_
#define RENJU_SEARCH_STOPPERS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "search/node.h"

namespace renju {

// What a stop rule can see.
struct SearchProgress {
  // Visits of the root's children, completed plus playouts in flight.
  int64_t root_child_visits = 0;
  // Of those, the visits the run started with (a reused subtree's).
  int64_t reused_visits = 0;
  // Completed visits of the most and the second most visited root moves.
  int64_t best_visits = 0;
  int64_t second_visits = 0;
  int64_t elapsed_ms = 0;
  // How long the last gathered batch took from its first descent to its
  // back-up: a playout started now ends about that much later, so a time
  // limit stops this early (a batch of 16 takes several playouts' time).
  int64_t batch_ms = 0;
  int num_root_moves = 0;
  Proof root_proof = Proof::kUnknown;
};

class SearchStopper {
 public:
  virtual ~SearchStopper() = default;
  // True when no new playout should start. Must be cheap and thread-safe.
  virtual bool ShouldStop(const SearchProgress& progress) const = 0;
};

// The root's children hold `max_visits` visits.
class VisitsStopper : public SearchStopper {
 public:
  explicit VisitsStopper(int64_t max_visits) : max_visits_(max_visits) {}
  bool ShouldStop(const SearchProgress& p) const override {
    return p.root_child_visits >= max_visits_;
  }

 private:
  int64_t max_visits_;
};

// `max_ms` of wall time have passed since the search began.
class TimeStopper : public SearchStopper {
 public:
  explicit TimeStopper(int64_t max_ms) : max_ms_(max_ms) {}
  bool ShouldStop(const SearchProgress& p) const override {
    return p.elapsed_ms + p.batch_ms >= max_ms_;
  }

 private:
  int64_t max_ms_;
};

// Only one move can be played: searching it changes nothing.
class SingleMoveStopper : public SearchStopper {
 public:
  bool ShouldStop(const SearchProgress& p) const override {
    return p.num_root_moves <= 1;
  }
};

// The root's result is proven (a win, a loss or a draw).
class ProvenStopper : public SearchStopper {
 public:
  bool ShouldStop(const SearchProgress& p) const override {
    return p.root_proof != Proof::kUnknown;
  }
};

// A move's time as a time manager plans it (gomocup/time_manager.h): at
// most `maximum_ms`; past `optimum_ms` only while the runner-up has at
// least half the leader's visits (the choice is still open); and never once
// the runner-up cannot catch up with the playouts left at the rate seen so
// far, before `maximum_ms` or `max_visits` (lc0's smart pruning). Times 0:
// no time limit (then only `max_visits` bounds the playouts left); visits 0:
// no visit limit.
class TimeBudgetStopper : public SearchStopper {
 public:
  TimeBudgetStopper(int64_t optimum_ms, int64_t maximum_ms, int64_t max_visits)
      : optimum_ms_(optimum_ms),
        maximum_ms_(maximum_ms),
        max_visits_(max_visits) {}
  bool ShouldStop(const SearchProgress& p) const override;

 private:
  // An upper bound on the visits the runner-up can still gain.
  double VisitsLeft(const SearchProgress& p) const;

  int64_t optimum_ms_;
  int64_t maximum_ms_;
  int64_t max_visits_;
};

// Set from another thread (a protocol's "stop").
class FlagStopper : public SearchStopper {
 public:
  // `flag` is not owned and must outlive the stopper.
  explicit FlagStopper(const std::atomic<bool>* flag) : flag_(flag) {}
  bool ShouldStop(const SearchProgress&) const override {
    return flag_->load(std::memory_order_relaxed);
  }

 private:
  const std::atomic<bool>* flag_;
};

// Stops when any of its rules does. Owns the rules it is given.
class ChainedStopper : public SearchStopper {
 public:
  void Add(std::unique_ptr<SearchStopper> stopper) {
    stoppers_.push_back(std::move(stopper));
  }
  bool ShouldStop(const SearchProgress& p) const override {
    for (const auto& s : stoppers_) {
      if (s->ShouldStop(p)) return true;
    }
    return false;
  }

 private:
  std::vector<std::unique_ptr<SearchStopper>> stoppers_;
};

}  // namespace renju

#endif  // RENJU_SEARCH_STOPPERS_H_
