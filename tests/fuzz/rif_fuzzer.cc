// RenjuNet .rif databases (`renju replay`): ReadRif, then every game that
// reads is replayed, and written by WriteRif (the board page's Save) reads
// back the same when it has no pass or off-board move.
#include "records/rif.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  absl::StatusOr<std::vector<RifGame>> games =
      ReadRif(fuzz::AsText(data, size));
  if (!games.ok()) return 0;
  for (const RifGame& game : *games) {
    RENJU_CHECK(game.record.size == kRenjuBoardSize);
    RENJU_CHECK(game.record.line >= 1);
    fuzz::CheckReplay(game.record);
    absl::StatusOr<std::string> written = WriteRif(game.record);
    if (!written.ok()) continue;
    absl::StatusOr<std::vector<RifGame>> saved = ReadRif(*written);
    RENJU_CHECK(saved.ok() && saved->size() == 1) << *written;
    const GameRecord& back = (*saved)[0].record;
    fuzz::CheckSameMoves(game.record.moves, back.moves);
    RENJU_CHECK(back.result == game.record.result) << *written;
    RENJU_CHECK(back.variant == game.record.variant) << *written;
  }
  return 0;
}
