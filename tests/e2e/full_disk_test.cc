// A full disk under a running loop (issue 32): a `renju trainer` whose run
// folder and a `renju selfplay` worker whose pending folder each live on a
// small tmpfs, filled to the last byte while they run and freed again.
// Expected: uploads are refused with a retryable status and the worker's
// log says the disk is full; the trainer waits with a checkpoint or publish
// it cannot write (logging so) instead of dying; the last good training
// state and models stay intact; the worker keeps its games; once space is
// freed, the run goes on by itself and every game the worker was told is
// stored is in run.sqlite exactly once.
//
// Mounting a tmpfs needs root (or CAP_SYS_ADMIN); elsewhere the test skips,
// saying so.
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/file_util.h"
#include "base/subprocess.h"
#include "gtest/gtest.h"
#include "nn/tensor_file.h"
#include "rpc/sha256.h"
#include "rpc/trainer_client.h"
#include "tests/common/loopback.h"
#include "tests/common/temp_dir.h"
#include "tests/e2e/e2e_paths.h"
#include "trainer/game_store.h"
#include "trainer/sqlite_db.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::FreeLoopbackPort;
using testing::kE2eConfig;
using testing::kRenju;
using testing::PollUntil;

// Minutes no working process needs: limits against hangs, not bets.
constexpr int kLimitSeconds = 300;

// Writes zeros into `dir`/filler until the filesystem refuses with ENOSPC;
// the error number that stopped it.
int FillDisk(const fs::path& dir) {
  const std::string path = (dir / "filler").string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return errno;
  const std::string block(64 * 1024, '\0');
  int error = 0;
  while (error == 0) {
    const ssize_t n = ::write(fd, block.data(), block.size());
    if (n < 0 && errno != EINTR) error = errno;
  }
  ::close(fd);
  return error;
}

// The lines of a log that contain every one of `words`.
std::vector<std::string> LinesWith(const std::string& log,
                                   const std::vector<std::string>& words) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    bool all = true;
    for (const std::string& w : words) all = all && absl::StrContains(line, w);
    if (all) lines.emplace_back(line);
  }
  return lines;
}

class FullDiskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TestDir("renju_full_disk_");
    fs::create_directories(dir_ / "logs");
    run_ = dir_ / "run";
    pending_ = dir_ / "pending";
    // The run folder holds the database, models, matches and the training
    // state; the pending folder games and the worker's copies of models.
    for (const auto& [folder, size] :
         {std::pair{run_, "size=32m"}, std::pair{pending_, "size=16m"}}) {
      fs::create_directories(folder);
      if (::mount("tmpfs", folder.c_str(), "tmpfs", 0, size) != 0) {
        GTEST_SKIP() << "cannot mount a tmpfs on " << folder << " ("
                     << std::strerror(errno)
                     << "): the full-disk test needs root or CAP_SYS_ADMIN";
      }
      mounted_.push_back(folder);
    }
    address_ = absl::StrCat("127.0.0.1:", FreeLoopbackPort());
  }

  void TearDown() override {
    if (worker_.has_value()) worker_->Stop(5000);
    if (trainer_.has_value()) trainer_->Stop(10000);
    for (const fs::path& folder : mounted_)
      ::umount2(folder.c_str(), MNT_DETACH);
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // The e2e loop with a training budget that never runs out (1000 samples
  // per stored position), so the trainer keeps stepping, checkpointing
  // every 10 steps and publishing every 50, while the disk is full.
  std::string WriteConfig() {
    absl::StatusOr<std::string> text = ReadFile(kE2eConfig);
    EXPECT_TRUE(text.ok()) << text.status();
    const std::string changed = absl::StrReplaceAll(
        text.value_or(""),
        {{"samples_per_position: 2\n", "samples_per_position: 1000\n"},
         {"steps_per_generation: 20\n", "steps_per_generation: 50\n"}});
    EXPECT_NE(changed, *text);
    const std::string path = (dir_ / "config.textproto").string();
    EXPECT_TRUE(WriteFileAtomically(path, changed).ok());
    return path;
  }

  void Start(const std::string& config) {
    auto trainer =
        Subprocess::Start({kRenju, "trainer", "--config", config, "--run-dir",
                           run_.string(), "--listen", address_},
                          (dir_ / "logs" / "trainer.log").string());
    ASSERT_TRUE(trainer.ok()) << trainer.status();
    trainer_.emplace(std::move(*trainer));
    auto worker = Subprocess::Start(
        {kRenju, "selfplay", "--config", config, "--trainer", address_,
         "--worker-id", "worker-0", "--out", pending_.string(), "--seed", "1"},
        (dir_ / "logs" / "worker-0.log").string());
    ASSERT_TRUE(worker.ok()) << worker.status();
    worker_.emplace(std::move(*worker));
  }

  std::string Log(const std::string& name) {
    auto text = ReadFile((dir_ / "logs" / (name + ".log")).string());
    return text.ok() ? *text : "";
  }
  std::string Logs() {
    return absl::StrCat("--- trainer\n", Log("trainer"), "--- worker-0\n",
                        Log("worker-0"));
  }

  std::unique_ptr<TrainerClient> Client() {
    ChannelOptions channel;
    channel.address = address_;
    auto client = TrainerClient::Create(channel, 10000);
    EXPECT_TRUE(client.ok()) << client.status();
    return client.ok() ? std::move(*client) : nullptr;
  }

  int64_t LatestGeneration(TrainerClient& client) {
    auto status = client.GetStatus();
    return status.ok() ? status->latest_generation() : -1;
  }

  // uid -> rows with it in run.sqlite.
  std::map<std::string, int> StoredUids() {
    std::map<std::string, int> uids;
    auto store = GameStore::Open((run_ / "run.sqlite").string());
    if (!store.ok()) return uids;
    auto games = (*store)->ReadGamesAfter(0, 1000000);
    if (!games.ok()) return uids;
    for (const StoredGame& g : *games) {
      pb::GameRecord record;
      if (record.ParseFromString(g.record)) ++uids[record.uid()];
    }
    return uids;
  }

  std::vector<std::string> PendingUids() {
    std::vector<std::string> uids;
    for (const auto& entry : fs::directory_iterator(pending_)) {
      if (entry.path().extension() == ".game") {
        uids.push_back(entry.path().stem().string());
      }
    }
    return uids;
  }

  // Every registered model's file has its registered sha256.
  void ExpectModelsIntact(const std::vector<ModelEntry>& models) {
    ASSERT_FALSE(models.empty());
    for (const ModelEntry& m : models) {
      absl::StatusOr<std::string> sha = Sha256OfFile(m.path);
      ASSERT_TRUE(sha.ok()) << sha.status();
      EXPECT_EQ(*sha, m.sha256) << "generation " << m.generation;
    }
  }

  std::vector<ModelEntry> RegisteredModels() {
    auto store = GameStore::Open((run_ / "run.sqlite").string());
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return {};
    auto models = (*store)->Models();
    EXPECT_TRUE(models.ok()) << models.status();
    return models.ok() ? *models : std::vector<ModelEntry>{};
  }

  std::string StatePath() const {
    return (run_ / "trainer" / "training_state.ckpt").string();
  }

  fs::path dir_;
  fs::path run_;
  fs::path pending_;
  std::vector<fs::path> mounted_;
  std::string address_;
  std::optional<Subprocess> trainer_;
  std::optional<Subprocess> worker_;
};

TEST_F(FullDiskTest, RunWaitsOutAFullDiskAndGoesOnWhenSpaceIsFreed) {
  Start(WriteConfig());
  std::unique_ptr<TrainerClient> client = Client();
  ASSERT_NE(client, nullptr);
  // A generation past the first and a training state: files to keep whole.
  ASSERT_TRUE(PollUntil(
      [&] { return LatestGeneration(*client) >= 1 && fs::exists(StatePath()); },
      kLimitSeconds))
      << Logs();
  const std::vector<ModelEntry> before = RegisteredModels();

  // The trainer's disk first, so that the worker's uploads meet it while
  // its own folder still has room for the games they bring back.
  ASSERT_EQ(FillDisk(run_), ENOSPC);
  // The trainer cannot write its next checkpoint or model and says why.
  ASSERT_TRUE(PollUntil(
      [&] {
        return !LinesWith(Log("trainer"), {"the disk is full; trying again"})
                    .empty();
      },
      kLimitSeconds))
      << Logs();
  // Uploads are refused with a retryable status that names the full disk,
  // and the worker keeps those games.
  ASSERT_TRUE(PollUntil(
      [&] {
        return !LinesWith(Log("worker-0"),
                          {"upload failed", "UNAVAILABLE", "disk is full"})
                    .empty();
      },
      kLimitSeconds))
      << Logs();
  // Then the worker's own folder: it waits with its next game.
  ASSERT_EQ(FillDisk(pending_), ENOSPC);
  ASSERT_TRUE(PollUntil(
      [&] {
        return !LinesWith(Log("worker-0"),
                          {"the pending folder's disk is full"})
                    .empty();
      },
      kLimitSeconds))
      << Logs();
  EXPECT_TRUE(trainer_->Running()) << Logs();
  EXPECT_TRUE(worker_->Running()) << Logs();
  // Everything written before the disk filled is whole.
  absl::StatusOr<TensorFile> state = ReadTensorFile(StatePath());
  EXPECT_TRUE(state.ok()) << state.status();
  ExpectModelsIntact(before);
  const int64_t generation_when_full = LatestGeneration(*client);
  // Games the worker holds now (the failed uploads' at least, unless a
  // later batch found room in SQLite's write-ahead log): all must arrive.
  const std::vector<std::string> kept = PendingUids();

  // Space returns: the run goes on by itself.
  fs::remove(run_ / "filler");
  fs::remove(pending_ / "filler");
  ASSERT_TRUE(PollUntil(
      [&] {
        const std::map<std::string, int> stored = StoredUids();
        for (const std::string& uid : kept) {
          if (!stored.count(uid)) return false;
        }
        return LatestGeneration(*client) > generation_when_full;
      },
      kLimitSeconds))
      << Logs();
  // A worker stopped by SIGTERM says so with 130, after stopping cleanly.
  EXPECT_EQ(worker_->Stop(10000), 130) << Logs();
  EXPECT_EQ(trainer_->Stop(30000), 0) << Logs();

  // Every game the worker was told is stored is there, once; no game twice.
  const std::map<std::string, int> stored = StoredUids();
  int acknowledged = 0;
  for (const std::string& line :
       LinesWith(Log("worker-0"), {"worker-0: acknowledged "})) {
    const std::string acks = line.substr(line.find("acknowledged ") + 13);
    for (absl::string_view ack : absl::StrSplit(acks, ' ', absl::SkipEmpty())) {
      const std::vector<std::string> parts = absl::StrSplit(ack, '=');
      ASSERT_EQ(parts.size(), 2u) << line;
      EXPECT_NE(parts[1], "rejected") << line;
      auto it = stored.find(parts[0]);
      EXPECT_TRUE(it != stored.end() && it->second == 1)
          << parts[0] << " acknowledged as " << parts[1];
      ++acknowledged;
    }
  }
  EXPECT_GT(acknowledged, 0);
  for (const auto& [uid, rows] : stored) EXPECT_EQ(rows, 1) << uid;
  for (const std::string& uid : kept) EXPECT_TRUE(stored.count(uid)) << uid;

  // The database, the models and the training state are whole, and no
  // failed write left its temporary file behind.
  auto db = SqliteDb::Open((run_ / "run.sqlite").string());
  ASSERT_TRUE(db.ok()) << db.status();
  auto check = (*db)->Prepare("PRAGMA integrity_check");
  ASSERT_TRUE(check.ok()) << check.status();
  ASSERT_TRUE(check->Step().value_or(false));
  EXPECT_EQ(check->ColumnText(0), "ok");
  ExpectModelsIntact(RegisteredModels());
  state = ReadTensorFile(StatePath());
  EXPECT_TRUE(state.ok()) << state.status();
  for (const fs::path& folder : {run_ / "trainer", run_ / "models"}) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      EXPECT_FALSE(absl::StrContains(entry.path().filename().string(), ".tmp"))
          << entry.path();
    }
  }
}

}  // namespace
}  // namespace renju
