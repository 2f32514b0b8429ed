// The publisher with anchors: each generation that is due plays every
// anchor after its rating match, the matches are stored by anchor name and
// the ratings are on the anchors' scale.
#include "trainer/publisher.h"

#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "base/file_util.h"
#include "config/config.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "nn/model.h"
#include "tests/trainer/training_test_util.h"
#include "trainer/ratings.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

// A small freestyle board, a tiny network and a handful of cheap games per
// match; the tactical brain is the anchor, generations play it every
// second generation.
pb::RunConfig AnchoredConfig() {
  absl::StatusOr<pb::RunConfig> config = ParseRunConfig(
      R"pb(
        variant: "freestyle"
        board_size: 9
        network {
          blocks: 1
          channels: 16
          global_pool_every: 0
          policy_channels: 4
          value_channels: 4
          value_hidden: 16
        }
        selfplay {
          max_plies: 81
          evaluator {
            max_batch_size: 2
            max_wait_us: 0
            torch_threads: 1
            device: "cpu"
          }
        }
        arena {
          gating: false
          games: 2
          concurrent_games: 2
          search { visits: 4 temperature_early: 1 temperature_final: 0.5 }
          anchors {
            name: "tactical"
            tactical {}
            elo: 0
          }
          anchor_games: 2
          anchor_every_generations: 2
        }
      )pb",
      "publisher_test");
  EXPECT_TRUE(config.ok()) << config.status();
  return config.ok() ? *config : pb::RunConfig();
}

TEST(PublisherTest, DueGenerationsAreRatedAgainstTheAnchor) {
  const pb::RunConfig config = AnchoredConfig();
  const testing::TempDir temp;
  const fs::path dir = temp.path();
  const std::string db = (dir / "run.sqlite").string();
  absl::StatusOr<std::unique_ptr<GameStore>> store = GameStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::unique_ptr<MatchStore>> matches = MatchStore::Open(db);
  ASSERT_TRUE(matches.ok()) << matches.status();
  Publisher publisher(config, dir.string(), store->get(), matches->get(),
                      nullptr);

  // Generation 0 only registers; generation 1 plays generation 0 and
  // catches up generation 0's anchor match; generation 2 plays its own.
  std::set<std::pair<int64_t, std::string>> anchor_matches;
  for (int64_t g = 0; g < 3; ++g) {
    const std::string path =
        (dir / ("gen" + std::to_string(g) + ".model")).string();
    absl::StatusOr<std::unique_ptr<Model>> model =
        Model::Create(ToNetworkConfig(config), ModelOptions{}, /*seed=*/10 + g);
    ASSERT_TRUE(model.ok()) << model.status();
    ASSERT_TRUE((*model)->Save(path).ok());
    ASSERT_TRUE(publisher.Publish(g, path, 100 * g, 10 * g).ok()) << g;

    absl::StatusOr<std::vector<MatchResult>> all = (*matches)->Matches();
    ASSERT_TRUE(all.ok()) << all.status();
    anchor_matches.clear();
    for (const MatchResult& m : *all) {
      if (m.anchor_b.empty()) continue;
      anchor_matches.insert({m.generation_a, m.anchor_b});
      EXPECT_EQ(m.games(), 2);
      EXPECT_EQ(m.generation_b, -1);
    }
    if (g == 0) {
      EXPECT_TRUE(all->empty());
    }
    if (g == 1) {
      EXPECT_EQ(anchor_matches,
                (std::set<std::pair<int64_t, std::string>>{{0, "tactical"}}));
    }
  }
  EXPECT_EQ(anchor_matches, (std::set<std::pair<int64_t, std::string>>{
                                {0, "tactical"}, {2, "tactical"}}));
  EXPECT_TRUE(
      fs::exists(dir / "matches" / "gen0-vs-tactical" / "summary.json"));
  EXPECT_TRUE(
      fs::exists(dir / "matches" / "gen2-vs-tactical" / "game-00001.psq"));
  EXPECT_FALSE(fs::exists(dir / "matches" / "gen1-vs-tactical"));

  // Every generation is rated, on the tactical anchor's scale.
  absl::StatusOr<std::string> text = ReadFile((dir / "ratings.json").string());
  ASSERT_TRUE(text.ok()) << text.status();
  const nlohmann::json json = nlohmann::json::parse(*text);
  EXPECT_TRUE(json["anchor_generation"].is_null()) << json.dump(2);
  ASSERT_EQ(json["anchors"].size(), 1u) << json.dump(2);
  EXPECT_EQ(json["anchors"][0]["name"], "tactical");
  EXPECT_EQ(json["anchors"][0]["elo"], 0.0);
  EXPECT_EQ(json["anchors"][0]["games"], 4);
  EXPECT_EQ(json["ratings"].size(), 3u) << json.dump(2);
  EXPECT_TRUE(json["unrated"].empty()) << json.dump(2);
  absl::StatusOr<std::string> csv = ReadFile((dir / "ratings.csv").string());
  ASSERT_TRUE(csv.ok());
  EXPECT_NE(csv->find(",fixed,tactical\n"), std::string::npos) << *csv;
}

}  // namespace
}  // namespace renju
