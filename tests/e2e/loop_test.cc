// End-to-end tests of the training loop, started the way users start it:
// a `renju trainer` process and two `renju selfplay --trainer` workers
// talking gRPC over loopback, with the games in a real SQLite file.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/file_util.h"
#include "base/subprocess.h"
#include "gtest/gtest.h"
#include "rpc/trainer_client.h"
#include "tests/common/loopback.h"
#include "tests/e2e/e2e_paths.h"
#include "trainer/game_store.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::FreeLoopbackPort;
using testing::PollUntil;

using testing::kE2eConfig;
using testing::kRenju;

class LoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = fs::temp_directory_path() /
           absl::StrCat(
               "renju_e2e_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(run_);
    fs::create_directories(run_ / "logs");
    address_ = absl::StrCat("127.0.0.1:", FreeLoopbackPort());
  }
  void TearDown() override {
    for (auto& w : workers_) w.Stop(5000);
    if (trainer_.has_value()) trainer_->Stop(10000);
    if (!HasFailure()) fs::remove_all(run_);
  }

  void StartTrainer(const std::string& config = kE2eConfig) {
    auto child =
        Subprocess::Start({kRenju, "trainer", "--config", config, "--run-dir",
                           run_.string(), "--listen", address_},
                          (run_ / "logs" / "trainer.log").string());
    ASSERT_TRUE(child.ok()) << child.status();
    trainer_.emplace(std::move(*child));
  }

  void StartWorker(int i, int games, const std::string& config = kE2eConfig) {
    auto child = Subprocess::Start(
        {kRenju, "selfplay", "--config", config, "--trainer", address_,
         "--worker-id", absl::StrCat("worker-", i), "--out",
         (run_ / absl::StrCat("worker-", i)).string(), "--seed",
         absl::StrCat(i + 1), "--games", absl::StrCat(games)},
        (run_ / "logs" / absl::StrCat("worker-", i, ".log")).string());
    ASSERT_TRUE(child.ok()) << child.status();
    workers_.push_back(std::move(*child));
  }

  std::unique_ptr<TrainerClient> Client() {
    ChannelOptions channel;
    channel.address = address_;
    auto client = TrainerClient::Create(channel, 3000);
    EXPECT_TRUE(client.ok());
    return std::move(*client);
  }

  std::string Log(const std::string& name) {
    auto text = ReadFile((run_ / "logs" / (name + ".log")).string());
    return text.ok() ? *text : "";
  }

  fs::path run_;
  std::string address_;
  std::optional<Subprocess> trainer_;
  std::vector<Subprocess> workers_;
};

TEST_F(LoopTest, GamesFlowTrainingPublishesAndWorkersSwitch) {
  StartTrainer();
  StartWorker(0, 0);
  StartWorker(1, 0);
  auto client = Client();
  // Games arrive, training runs and generation 1 is published.
  ASSERT_TRUE(PollUntil(
      [&] {
        auto status = client->GetStatus();
        return status.ok() && status->latest_generation() >= 1 &&
               status->training_step() > 0;
      },
      180))
      << Log("trainer");
  // Both workers switch to it: games played by generation 1 or later
  // arrive from each of them.
  std::map<std::string, int64_t> newest_generation;
  ASSERT_TRUE(PollUntil(
      [&] {
        auto store = GameStore::Open((run_ / "run.sqlite").string());
        if (!store.ok()) return false;
        auto games = (*store)->ReadGamesAfter(0, 1000000);
        if (!games.ok()) return false;
        for (const auto& g : *games) {
          pb::GameRecord record;
          if (!record.ParseFromString(g.record)) continue;
          int64_t& newest = newest_generation[record.worker_id()];
          newest = std::max(newest, record.model_generation());
        }
        return newest_generation["worker-0"] >= 1 &&
               newest_generation["worker-1"] >= 1;
      },
      180))
      << Log("worker-0") << Log("worker-1");
  // A worker that began with generation 0 switched between games (one that
  // started late may have begun with generation 1 directly).
  for (const std::string worker : {"worker-0", "worker-1"}) {
    const std::string log = Log(worker);
    if (log.find("playing generation 0") != std::string::npos) {
      EXPECT_NE(log.find("switched to generation"), std::string::npos) << log;
    }
  }

  auto status = client->GetStatus();
  ASSERT_TRUE(status.ok());
  EXPECT_GT(status->total_games(), 0);
  EXPECT_GT(status->window_positions(), 0);
  ASSERT_EQ(status->workers_size(), 2);
  for (const auto& w : status->workers()) {
    EXPECT_GT(w.games_stored(), 0) << w.worker_id();
    EXPECT_EQ(w.games_rejected(), 0)
        << w.worker_id() << ": " << w.last_rejection();
  }
  auto models = client->ListModels();
  ASSERT_TRUE(models.ok());
  ASSERT_GE(models->size(), 2u);
  EXPECT_EQ((*models)[0].generation(), 0);
  EXPECT_EQ((*models)[1].generation(), 1);
  EXPECT_TRUE(fs::exists(run_ / "models" / "gen1.model"));
}

TEST_F(LoopTest, KilledTrainerLosesNoAcknowledgedGameAndStoresNoneTwice) {
  constexpr int kGamesPerWorker = 10;
  StartTrainer();
  StartWorker(0, kGamesPerWorker);
  StartWorker(1, kGamesPerWorker);
  auto client = Client();
  ASSERT_TRUE(PollUntil(
      [&] {
        auto status = client->GetStatus();
        return status.ok() && status->total_games() >= 4;
      },
      120))
      << Log("trainer");

  // Everything committed so far (a superset of what was acknowledged).
  std::set<std::string> before;
  {
    auto store = GameStore::Open((run_ / "run.sqlite").string());
    ASSERT_TRUE(store.ok());
    auto games = (*store)->ReadGamesAfter(0, 1000000);
    ASSERT_TRUE(games.ok());
    for (const auto& g : *games) {
      pb::GameRecord record;
      ASSERT_TRUE(record.ParseFromString(g.record));
      before.insert(record.uid());
    }
  }
  ASSERT_GE(before.size(), 4u);

  trainer_->Kill();  // kill -9, in the middle of uploads
  // The trainer stays down for a second: an outage for the workers' uploads
  // to run into, not a wait for anything (the test holds whether or not an
  // upload fell into it).
  std::this_thread::sleep_for(std::chrono::seconds(1));
  StartTrainer();  // same folder, same address

  // The workers deliver what they held and exit by themselves.
  for (Subprocess& w : workers_) {
    ASSERT_TRUE(w.WaitForExit(240000)) << Log("worker-0") << Log("worker-1");
    EXPECT_EQ(w.exit_code(), 0);
  }
  auto store = GameStore::Open((run_ / "run.sqlite").string());
  ASSERT_TRUE(store.ok());
  auto games = (*store)->ReadGamesAfter(0, 1000000);
  ASSERT_TRUE(games.ok());
  std::set<std::string> after;
  std::map<std::string, int> per_worker;
  for (const auto& g : *games) {
    pb::GameRecord record;
    ASSERT_TRUE(record.ParseFromString(g.record));
    after.insert(record.uid());
    ++per_worker[record.worker_id()];
  }
  // Stored once each: as many rows as distinct uids, every game played.
  EXPECT_EQ(games->size(), after.size());
  EXPECT_EQ(after.size(), 2u * kGamesPerWorker);
  EXPECT_EQ(per_worker["worker-0"], kGamesPerWorker);
  EXPECT_EQ(per_worker["worker-1"], kGamesPerWorker);
  for (const std::string& uid : before) {
    EXPECT_TRUE(after.count(uid)) << "lost " << uid;
  }
  // Nothing is left waiting on the workers' disks.
  for (int i = 0; i < 2; ++i) {
    for (const auto& entry :
         fs::directory_iterator(run_ / absl::StrCat("worker-", i))) {
      EXPECT_NE(entry.path().extension(), ".game") << entry.path();
    }
  }
}

// Self-play under an opening-rule mix: the worker's games reach the trainer
// with every opening action, and a game whose actions were forged is
// refused with the first illegal action named.
TEST_F(LoopTest, OpeningRuleGamesAreStoredAndForgedOnesRejected) {
  absl::StatusOr<std::string> base = ReadFile(kE2eConfig);
  ASSERT_TRUE(base.ok()) << base.status();
  std::string text = *base;
  const std::string anchor = "  max_plies: 120\n";
  const size_t at = text.find(anchor);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + anchor.size(),
              "  openings {\n"
              "    empty: 0 canonical: 0 balanced: 0\n"
              "    rules { rule: \"rif\" }\n"
              "    rules { rule: \"taraguchi10\" }\n"
              "  }\n");
  const size_t visits = text.find("    visits: 8\n");
  ASSERT_NE(visits, std::string::npos);
  text.insert(visits, "    opening_candidate_visits: 8\n");
  const std::string config = (run_ / "openings.textproto").string();
  ASSERT_TRUE(WriteFileAtomically(config, text).ok());

  constexpr int kGames = 4;
  StartTrainer(config);
  StartWorker(0, kGames, config);
  ASSERT_TRUE(workers_[0].WaitForExit(240000)) << Log("worker-0");
  EXPECT_EQ(workers_[0].exit_code(), 0) << Log("worker-0");

  auto store = GameStore::Open((run_ / "run.sqlite").string());
  ASSERT_TRUE(store.ok());
  auto games = (*store)->ReadGamesAfter(0, 1000000);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), static_cast<size_t>(kGames)) << Log("trainer");
  pb::GameRecord stored;
  for (const auto& g : *games) {
    ASSERT_TRUE(stored.ParseFromString(g.record));
    EXPECT_TRUE(stored.opening_rule() == "rif" ||
                stored.opening_rule() == "taraguchi10")
        << stored.opening_rule();
    EXPECT_EQ(stored.opening(), stored.opening_rule());
    // RIF takes 7 actions; Taraguchi at least 9.
    EXPECT_GE(stored.opening_actions_size(), 7);
    EXPECT_EQ(stored.opening_plies(), 5);
    for (int i = 0; i < stored.opening_plies(); ++i) {
      EXPECT_FALSE(stored.plies(i).has_target()) << "opening ply " << i + 1;
    }
    ASSERT_GT(stored.plies_size(), stored.opening_plies());
    EXPECT_TRUE(stored.plies(stored.opening_plies()).has_target());
  }

  // The last stored game, its first action made a swap: refused, with why.
  pb::GameRecord forged = stored;
  forged.set_uid(forged.uid() + "-forged");
  forged.mutable_opening_actions(0)->set_kind(pb::OPENING_SWAP);
  forged.mutable_opening_actions(0)->clear_points();
  auto client = Client();
  auto acks = client->UploadGames("forger", {forged});
  ASSERT_TRUE(acks.ok()) << acks.status();
  ASSERT_EQ(acks->size(), 1u);
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::REJECTED);
  EXPECT_NE(
      (*acks)[0].reason().find(absl::StrCat(
          "opening rule ", stored.opening_rule(), ": opening action 1 of ",
          stored.opening_actions_size(), " (Swap): out of phase: ")),
      std::string::npos)
      << (*acks)[0].reason();
  EXPECT_NE((*acks)[0].reason().find(
                "expects black (the first player) to place move 1 on h8"),
            std::string::npos)
      << (*acks)[0].reason();
}

}  // namespace
}  // namespace renju
