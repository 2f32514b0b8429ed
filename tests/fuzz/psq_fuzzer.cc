// Piskvork .psq files (`renju replay`): ReadPsq, and for a record that
// reads, WritePsq then ReadPsq again gives the same moves.
#include "rules/record.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  absl::StatusOr<GameRecord> record = ReadPsq(fuzz::AsText(data, size));
  if (!record.ok()) return 0;
  RENJU_CHECK(record->size >= kMinBoardSize && record->size <= kMaxBoardSize);
  absl::StatusOr<std::string> written = WritePsq(*record);
  RENJU_CHECK(written.ok()) << written.status().message();
  absl::StatusOr<GameRecord> again = ReadPsq(*written);
  RENJU_CHECK(again.ok()) << again.status().message();
  RENJU_CHECK(again->size == record->size);
  fuzz::CheckSameMoves(record->moves, again->moves);
  fuzz::CheckReplay(*record);
  return 0;
}
