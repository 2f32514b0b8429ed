// Move lists and coordinates: ParseMoveList (`renju show/suggest --moves`,
// one board size) and ReadMoveLists (plain move-list files for `renju
// replay`), and WriteMoveList (the board page's Save) read back. The first
// byte picks the board size for ParseMoveList, 5 + byte % 16 ('j' gives
// 15); ReadMoveLists reads the rest.
#include "rules/record.h"
#include "rules/types.h"
#include "tests/fuzz/fuzz_util.h"

namespace renju::fuzz {
namespace {

void CheckMoveList(absl::string_view text, int size) {
  absl::StatusOr<std::vector<Move>> moves = ParseMoveList(text, size);
  if (!moves.ok()) return;
  for (Move m : *moves) {
    RENJU_CHECK(m.is_pass() || m.point().OnBoard(size)) << MoveName(m);
  }
  absl::StatusOr<std::vector<Move>> again =
      ParseMoveList(MoveListString(*moves), size);
  RENJU_CHECK(again.ok()) << again.status().message();
  CheckSameMoves(*moves, *again);
}

void CheckMoveListFile(absl::string_view text) {
  absl::StatusOr<std::vector<GameRecord>> records = ReadMoveLists(text);
  if (!records.ok()) return;
  for (const GameRecord& record : *records) {
    if (!record.moves.empty()) {
      absl::StatusOr<std::vector<GameRecord>> again =
          ReadMoveLists(MoveListString(record.moves));
      RENJU_CHECK(again.ok()) << again.status().message();
      RENJU_CHECK(again->size() == 1);
      CheckSameMoves(record.moves, (*again)[0].moves);
    }
    absl::StatusOr<std::string> written = WriteMoveList(record);
    RENJU_CHECK(written.ok()) << written.status().message();
    absl::StatusOr<std::vector<GameRecord>> saved = ReadMoveLists(*written);
    RENJU_CHECK(saved.ok() && saved->size() == 1) << *written;
    CheckSameMoves(record.moves, (*saved)[0].moves);
    RENJU_CHECK((*saved)[0].result == record.result) << *written;
    CheckReplay(record);
  }
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int board_size = renju::kMinBoardSize + data[0] % 16;
  const absl::string_view text = renju::fuzz::AsText(data + 1, size - 1);
  renju::fuzz::CheckMoveList(text, board_size);
  renju::fuzz::CheckMoveListFile(text);
  return 0;
}
