#include "selfplay/game_directory.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"

namespace renju {

namespace fs = std::filesystem;

absl::StatusOr<GameDirectory> GameDirectory::Open(const std::string& path) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error || !fs::is_directory(path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game directory ", path, ": cannot create: ", error.message()));
  }
  return GameDirectory(path);
}

std::string GameDirectory::FileOf(const std::string& uid) const {
  return (fs::path(path_) / (uid + ".game")).string();
}

absl::Status GameDirectory::Write(const pb::GameRecord& game) const {
  if (!IsSafeName(game.uid())) {
    return absl::InvalidArgumentError(
        absl::StrCat("game uid '", game.uid(), "' is not a safe file name"));
  }
  return WriteFileAtomically(FileOf(game.uid()), game.SerializeAsString());
}

absl::StatusOr<std::vector<std::string>> GameDirectory::ListUids() const {
  std::vector<std::pair<fs::file_time_type, std::string>> files;
  std::error_code error;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(path_, error)) {
    const std::string name = entry.path().filename().string();
    if (!absl::EndsWith(name, ".game")) continue;
    files.emplace_back(entry.last_write_time(error),
                       name.substr(0, name.size() - 5));
  }
  if (error) {
    return absl::InternalError(
        absl::StrCat("game directory ", path_, ": ", error.message()));
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> uids;
  for (auto& [time, uid] : files) uids.push_back(std::move(uid));
  return uids;
}

absl::StatusOr<pb::GameRecord> GameDirectory::Read(
    const std::string& uid) const {
  absl::StatusOr<std::string> bytes = ReadFile(FileOf(uid));
  if (!bytes.ok()) return bytes.status();
  pb::GameRecord game;
  if (!game.ParseFromString(*bytes)) {
    return absl::DataLossError(
        absl::StrCat("game file ", FileOf(uid), " is not a game record"));
  }
  return game;
}

absl::Status GameDirectory::Remove(const std::string& uid) const {
  // The uid may come from the trainer's reply: never a path.
  if (!IsSafeName(uid)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a game uid: '", absl::CEscape(uid), "'"));
  }
  std::error_code error;
  fs::remove(FileOf(uid), error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot remove ", FileOf(uid), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status GameDirectory::SetAside(const std::string& uid) const {
  if (!IsSafeName(uid)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a game uid: '", absl::CEscape(uid), "'"));
  }
  const std::string from = FileOf(uid);
  const std::string to = from + ".unreadable";
  std::error_code error;
  fs::rename(from, to, error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot rename ", from, " to ", to,
                                            ": ", error.message()));
  }
  return absl::OkStatus();
}

}  // namespace renju
