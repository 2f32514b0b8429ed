// The trainer's game validation: bytes as a worker's uploaded
// pb::GameRecord through ValidateGameRecord, and as a request's pb::Position
// (inference server, `renju serve`) through GameFromPosition. A record that
// passes replays every ply and ends as it says.
#include "proto/game.pb.h"
#include "rpc/game_record.h"
#include "tests/fuzz/fuzz_util.h"

namespace renju::fuzz {
namespace {

void CheckRecord(const uint8_t* data, size_t size) {
  pb::GameRecord record;
  if (!record.ParseFromArray(data, static_cast<int>(size))) return;
  absl::StatusOr<Game> game = ValidateGameRecord(record);
  if (!game.ok()) return;
  RENJU_CHECK(game->ply() == record.plies_size());
  RENJU_CHECK(record.result() == pb::BLACK_WIN ||
              record.result() == pb::WHITE_WIN || record.result() == pb::DRAW);
  if (game->over()) RENJU_CHECK(ToProto(game->result()) == record.result());
  for (int i = 0; i < record.plies_size(); ++i) {
    RENJU_CHECK(MoveIndex(game->moves()[i], game->size()) ==
                record.plies(i).move());
  }
  RENJU_CHECK(NumTrainingPositions(record) <= record.plies_size());
}

void CheckPosition(const uint8_t* data, size_t size) {
  pb::Position position;
  if (!position.ParseFromArray(data, static_cast<int>(size))) return;
  absl::StatusOr<Game> game = GameFromPosition(position);
  if (!game.ok()) return;
  RENJU_CHECK(game->size() == BoardSizeOf(position.board_size()));
  RENJU_CHECK(game->ply() == position.moves_size());
}

}  // namespace
}  // namespace renju::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  renju::fuzz::CheckRecord(data, size);
  renju::fuzz::CheckPosition(data, size);
  return 0;
}
