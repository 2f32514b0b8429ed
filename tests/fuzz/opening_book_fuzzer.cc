// Opening files for matches (`renju arena --openings`): ReadOpeningFile in
// both notations, on the input written to an in-memory file. Every opening
// that reads must replay under the rule without ending the game.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "arena/opening_book.h"
#include "rules/game.h"
#include "tests/fuzz/fuzz_util.h"

namespace renju::fuzz {
namespace {

void CheckOpenings(const std::string& path, const OpeningFormat& format) {
  absl::StatusOr<std::vector<Opening>> openings = ReadOpeningFile(path, format);
  if (!openings.ok()) return;
  RENJU_CHECK(!openings->empty());
  for (const Opening& opening : *openings) {
    absl::StatusOr<Game> game =
        Game::FromMoves(format.variant, format.size, opening);
    RENJU_CHECK(game.ok()) << game.status().message();
    RENJU_CHECK(!game->over());
  }
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  // The first byte picks the rule and board size, the rest is the file.
  if (size == 0) return 0;
  OpeningFormat format;
  format.variant = static_cast<Variant>(data[0] % kNumVariants);
  format.size = format.variant == Variant::kRenju
                    ? kRenjuBoardSize
                    : kMinBoardSize + (data[0] / kNumVariants) % 16;
  const int fd = memfd_create("openings", 0);
  RENJU_CHECK(fd >= 0);
  const absl::string_view text = fuzz::AsText(data + 1, size - 1);
  RENJU_CHECK(write(fd, text.data(), text.size()) ==
              static_cast<ssize_t>(text.size()));
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  for (OpeningNotation notation :
       {OpeningNotation::kOffset, OpeningNotation::kPos}) {
    for (PosRows rows : {PosRows::kFromTop, PosRows::kFromBottom}) {
      format.notation = notation;
      format.pos_rows = rows;
      fuzz::CheckOpenings(path, format);
      if (notation == OpeningNotation::kOffset) break;  // rows unused
    }
  }
  close(fd);
  return 0;
}
