// SGF collections (`renju replay`): ReadSgf, and for every game that reads,
// WriteSgf then ReadSgf again gives the same size, variant, result and
// moves.
#include "rules/record.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  absl::StatusOr<std::vector<GameRecord>> records =
      ReadSgf(fuzz::AsText(data, size));
  if (!records.ok()) return 0;
  RENJU_CHECK(!records->empty());
  for (const GameRecord& record : *records) {
    absl::StatusOr<std::string> written = WriteSgf(record);
    RENJU_CHECK(written.ok()) << written.status().message();
    absl::StatusOr<std::vector<GameRecord>> again = ReadSgf(*written);
    RENJU_CHECK(again.ok()) << again.status().message() << "\n" << *written;
    RENJU_CHECK(again->size() == 1);
    const GameRecord& copy = (*again)[0];
    RENJU_CHECK(copy.size == record.size);
    RENJU_CHECK(copy.variant == record.variant);
    RENJU_CHECK(copy.result == record.result);
    fuzz::CheckSameMoves(record.moves, copy.moves);
    fuzz::CheckReplay(record);
  }
  return 0;
}
