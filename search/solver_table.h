// The transposition table of a tactical solver (VcfSolver, VctSolver): a
// fixed number of slots indexed by the low bits of a 64-bit key, one value
// per slot (a new store replaces the old), forgotten all at once at the
// start of each solve. Each slot carries the number of the solve that wrote
// it, so forgetting costs nothing: only when that number wraps around is
// the table cleared.
#ifndef RENJU_SEARCH_SOLVER_TABLE_H_
#define RENJU_SEARCH_SOLVER_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace renju {

template <typename Value>
class SolverTable {
 public:
  // 2^bits slots, allocated at the first NewSolve: a solver that is never
  // asked costs no memory.
  explicit SolverTable(int bits) : size_(size_t{1} << bits) {}

  // Forgets every value stored before.
  void NewSolve() {
    if (slots_.empty()) slots_.resize(size_);
    if (++solve_ == 0) {
      slots_.assign(slots_.size(), Slot{});
      solve_ = 1;
    }
  }

  // The value stored under `key` in this solve; null when there is none or
  // another key's took its slot since.
  const Value* Find(uint64_t key) const {
    const Slot& slot = slots_[key & (size_ - 1)];
    return slot.solve == solve_ && slot.key == key ? &slot.value : nullptr;
  }

  void Store(uint64_t key, const Value& value) {
    slots_[key & (size_ - 1)] = Slot{key, solve_, value};
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t solve = 0;  // 0: never written
    Value value{};
  };

  const size_t size_;
  std::vector<Slot> slots_;
  uint32_t solve_ = 0;
};

}  // namespace renju

#endif  // RENJU_SEARCH_SOLVER_TABLE_H_
