// A worker's local game store: one file per finished game, named
// "<uid>.game" and holding a serialized pb::GameRecord, written atomically.
// Offline runs keep everything here; a worker connected to a trainer deletes
// a file only after the trainer acknowledged the game, so nothing finished
// is lost while the trainer is away or the worker restarts.
#ifndef RENJU_SELFPLAY_GAME_DIRECTORY_H_
#define RENJU_SELFPLAY_GAME_DIRECTORY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/game.pb.h"

namespace renju {

class GameDirectory {
 public:
  // Creates the directory if needed.
  static absl::StatusOr<GameDirectory> Open(const std::string& path);

  absl::Status Write(const pb::GameRecord& game) const;
  // Uids of the stored games, oldest file first.
  absl::StatusOr<std::vector<std::string>> ListUids() const;
  absl::StatusOr<pb::GameRecord> Read(const std::string& uid) const;
  absl::Status Remove(const std::string& uid) const;
  // Renames an unreadable game's file to "<uid>.game.unreadable": kept for
  // a person to look at, no longer listed, so that nothing waits on it.
  absl::Status SetAside(const std::string& uid) const;

  const std::string& path() const { return path_; }

 private:
  explicit GameDirectory(std::string path) : path_(std::move(path)) {}
  std::string FileOf(const std::string& uid) const;

  std::string path_;
};

}  // namespace renju

#endif  // RENJU_SELFPLAY_GAME_DIRECTORY_H_
