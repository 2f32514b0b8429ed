// Helpers shared by the libFuzzer targets in this folder. A broken
// invariant is a RENJU_CHECK failure, which aborts: libFuzzer reports it as
// a crash and writes the input as the reproducer.
#ifndef RENJU_TESTS_FUZZ_FUZZ_UTIL_H_
#define RENJU_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/logging.h"
#include "rules/record.h"

namespace renju::fuzz {

inline absl::string_view AsText(const uint8_t* data, size_t size) {
  return absl::string_view(reinterpret_cast<const char*>(data), size);
}

// Replays a parsed record the way `renju replay` does: under its stated
// variant, else renju on 15 x 15 and freestyle on other sizes. Checks that
// a replay stops exactly at the first illegal move.
inline void CheckReplay(const GameRecord& record) {
  const Variant variant = record.variant.value_or(
      record.size == kRenjuBoardSize ? Variant::kRenju : Variant::kFreestyle);
  absl::StatusOr<ReplayedGame> replay = ReplayRecord(record, variant);
  if (!replay.ok()) {
    // Only a variant that does not fit the board size may fail.
    RENJU_CHECK(!ValidateBoardSize(variant, record.size).ok())
        << replay.status().message();
    return;
  }
  const int played = replay->game.ply();
  if (replay->illegal.has_value()) {
    RENJU_CHECK(replay->illegal->ply == played + 1);
    RENJU_CHECK(replay->illegal->move == record.moves[played]);
  } else {
    RENJU_CHECK(played == static_cast<int>(record.moves.size()));
  }
}

inline void CheckSameMoves(const std::vector<Move>& a,
                           const std::vector<Move>& b) {
  RENJU_CHECK(a.size() == b.size()) << a.size() << " vs " << b.size();
  for (size_t i = 0; i < a.size(); ++i) {
    RENJU_CHECK(a[i] == b[i]) << "move " << i + 1 << ": " << MoveName(a[i])
                              << " vs " << MoveName(b[i]);
  }
}

}  // namespace renju::fuzz

#endif  // RENJU_TESTS_FUZZ_FUZZ_UTIL_H_
