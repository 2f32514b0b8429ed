// The durable game store: acknowledged games survive reopening, duplicates
// are stored once, rejected games are counted and never stored.
#include "trainer/game_store.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace renju {
namespace {

class GameStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("renju_store_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "run.sqlite").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static IncomingGame Game(const std::string& uid, int positions,
                           const std::string& rejection = "") {
    return IncomingGame{uid, "bytes-of-" + uid, 3, positions, rejection};
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(GameStoreTest, StoresOnceAndCountsPerWorker) {
  auto store = GameStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  auto acks = (*store)->AddGames(
      "w1", {Game("a", 10), Game("b", 20), Game("bad", 5, "move 3 occupied")});
  ASSERT_TRUE(acks.ok()) << acks.status();
  ASSERT_EQ(acks->size(), 3u);
  EXPECT_EQ((*acks)[0].outcome, GameAckEntry::Outcome::kStored);
  EXPECT_EQ((*acks)[2].outcome, GameAckEntry::Outcome::kRejected);
  EXPECT_EQ((*acks)[2].reason, "move 3 occupied");

  // A retried upload: "a" again plus a new game.
  acks = (*store)->AddGames("w1", {Game("a", 10), Game("c", 7)});
  ASSERT_TRUE(acks.ok());
  EXPECT_EQ((*acks)[0].outcome, GameAckEntry::Outcome::kDuplicate);
  EXPECT_EQ((*acks)[1].outcome, GameAckEntry::Outcome::kStored);
  EXPECT_EQ((*store)->NumGames(), 3);
  EXPECT_EQ((*store)->NumPositions(), 37);

  auto workers = (*store)->Workers();
  ASSERT_TRUE(workers.ok());
  ASSERT_EQ(workers->size(), 1u);
  EXPECT_EQ((*workers)[0].games_stored, 3);
  EXPECT_EQ((*workers)[0].games_duplicate, 1);
  EXPECT_EQ((*workers)[0].games_rejected, 1);
  EXPECT_EQ((*workers)[0].last_rejection, "move 3 occupied");
}

TEST_F(GameStoreTest, CommittedGamesSurviveReopening) {
  {
    auto store = GameStore::Open(path_);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->AddGames("w", {Game("x", 4), Game("y", 6)}).ok());
  }
  auto store = GameStore::Open(path_);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ((*store)->NumGames(), 2);
  EXPECT_EQ((*store)->NumPositions(), 10);
  auto games = (*store)->ReadGamesAfter(0, 10);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ((*games)[0].record, "bytes-of-x");
  EXPECT_EQ((*games)[1].record, "bytes-of-y");
  auto later = (*store)->ReadGamesAfter((*games)[0].id, 10);
  ASSERT_TRUE(later.ok());
  ASSERT_EQ(later->size(), 1u);
  EXPECT_EQ((*later)[0].record, "bytes-of-y");
}

TEST_F(GameStoreTest, NewestGamesCoverTheWindow) {
  auto store = GameStore::Open(path_);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)
                  ->AddGames("w", {Game("1", 10), Game("2", 10), Game("3", 10)})
                  .ok());
  auto newest = (*store)->ReadNewestGames(15);
  ASSERT_TRUE(newest.ok());
  ASSERT_EQ(newest->size(), 2u);
  EXPECT_EQ((*newest)[0].record, "bytes-of-2");
  EXPECT_EQ((*newest)[1].record, "bytes-of-3");
}

TEST_F(GameStoreTest, ModelRegistry) {
  auto store = GameStore::Open(path_);
  ASSERT_TRUE(store.ok());
  auto best = (*store)->BestModel();
  ASSERT_TRUE(best.ok());
  EXPECT_FALSE(best->has_value());
  ModelEntry m0{0, -1, 0, 0, "models/gen0.ckpt", "abc", 100, "best", 1, 0, ""};
  ModelEntry m1{1,           0, 500, 40, "models/gen1.ckpt", "def", 100,
                "candidate", 2, 0,   ""};
  ASSERT_TRUE((*store)->RegisterModel(m0).ok());
  ASSERT_TRUE((*store)->RegisterModel(m1).ok());
  EXPECT_FALSE((*store)->RegisterModel(m1).ok());  // generation is unique
  best = (*store)->BestModel();
  ASSERT_TRUE(best.ok() && best->has_value());
  EXPECT_EQ((*best)->generation, 0);
  m1.status = "best";
  m1.elo = 55.5;
  ASSERT_TRUE((*store)->UpdateModel(m1).ok());
  best = (*store)->BestModel();
  EXPECT_EQ((*best)->generation, 1);
  EXPECT_DOUBLE_EQ((*best)->elo, 55.5);
  auto models = (*store)->Models();
  ASSERT_TRUE(models.ok());
  EXPECT_EQ(models->size(), 2u);
}

TEST_F(GameStoreTest, MetaValuesPersist) {
  {
    auto store = GameStore::Open(path_);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->SetMeta("step", "42").ok());
  }
  auto store = GameStore::Open(path_);
  auto value = (*store)->GetMeta("step");
  ASSERT_TRUE(value.ok() && value->has_value());
  EXPECT_EQ(**value, "42");
}

TEST_F(GameStoreTest, UnreadableFileIsAClearError) {
  auto store = GameStore::Open((dir_ / "missing" / "run.sqlite").string());
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("cannot open"), std::string::npos)
      << store.status();
  // A file that is not a database.
  const std::string junk = (dir_ / "junk.sqlite").string();
  FILE* f = std::fopen(junk.c_str(), "w");
  std::fputs("this is not a database, just text that is long enough......", f);
  std::fclose(f);
  store = GameStore::Open(junk);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find(junk), std::string::npos)
      << store.status();
}

}  // namespace
}  // namespace renju
