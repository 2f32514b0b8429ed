// RenjuNet .rif databases (`renju replay`): ReadRif, then every game that
// reads is replayed.
#include "tests/fuzz/fuzz_util.h"
#include "tools/rif.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  absl::StatusOr<std::vector<RifGame>> games =
      ReadRif(fuzz::AsText(data, size));
  if (!games.ok()) return 0;
  for (const RifGame& game : *games) {
    RENJU_CHECK(game.record.size == kRenjuBoardSize);
    RENJU_CHECK(game.record.line >= 1);
    fuzz::CheckReplay(game.record);
  }
  return 0;
}
