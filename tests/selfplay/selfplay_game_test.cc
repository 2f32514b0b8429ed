// One self-play game as the worker plays it, with a seeded fake evaluator:
// the record validates as an upload would, and with the Gumbel root the
// full searches' policy targets are improved policies summing to 1.
#include "selfplay/selfplay_game.h"

#include <cmath>

#include "gtest/gtest.h"
#include "rpc/game_record.h"
#include "search/fake_evaluators.h"

namespace renju {
namespace {

SelfplaySettings GumbelSettings() {
  SelfplaySettings s;
  s.search.max_visits = 32;
  s.search.playout_cap_randomisation = true;
  s.search.full_search_probability = 0.5f;
  s.search.cheap_visits = 8;
  // Ignored with the Gumbel root: its noise and winner replace them.
  s.search.root_noise = true;
  s.search.temperature_early = 0.8f;
  s.search.gumbel_root = true;
  s.search.gumbel_considered_moves = 8;
  s.max_plies = 40;
  s.resign_threshold = 0;  // play every ply
  return s;
}

absl::StatusOr<pb::GameRecord> Play(const SelfplaySettings& settings,
                                    uint64_t seed) {
  RandomEvaluator evaluator(4);
  Random rng(seed);
  return PlaySelfplayGame(settings, evaluator, rng, "game", nullptr);
}

TEST(SelfplayGameTest, GumbelRecordsValidateWithImprovedPolicyTargets) {
  const SelfplaySettings settings = GumbelSettings();
  absl::StatusOr<pb::GameRecord> record = Play(settings, 5);
  ASSERT_TRUE(record.ok()) << record.status();
  absl::StatusOr<Game> replayed = ValidateGameRecord(*record);
  ASSERT_TRUE(replayed.ok()) << replayed.status();

  int full = 0;
  int cheap = 0;
  int spread = 0;
  for (const pb::GamePly& ply : record->plies()) {
    if (!ply.has_target()) continue;
    const pb::SearchTarget& t = ply.target();
    if (!t.full_search()) {
      ++cheap;
      EXPECT_EQ(t.policy_points_size(), 0);
      continue;
    }
    ++full;
    double sum = 0;
    for (float p : t.policy_probs()) {
      sum += p;
      // Near-zero mass is dropped, so records stay small.
      EXPECT_GE(p, 1e-3f);
    }
    EXPECT_NEAR(sum, 1.0, 1e-4);
    // The improved policy covers every move the prior gives mass to, not
    // only the visited ones (a tactically decided ply stays one-hot).
    if (t.policy_points_size() > settings.search.gumbel_considered_moves) {
      ++spread;
    }
  }
  EXPECT_GT(spread, 0);
  EXPECT_GT(full, 0);
  EXPECT_GT(cheap, 0);
}

TEST(SelfplayGameTest, GumbelGamesRepeatWithTheSeed) {
  const SelfplaySettings settings = GumbelSettings();
  absl::StatusOr<pb::GameRecord> a = Play(settings, 9);
  absl::StatusOr<pb::GameRecord> b = Play(settings, 9);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->plies_size(), b->plies_size());
  for (int i = 0; i < a->plies_size(); ++i) {
    ASSERT_EQ(a->plies(i).move(), b->plies(i).move()) << "ply " << i;
    ASSERT_EQ(a->plies(i).target().SerializeAsString(),
              b->plies(i).target().SerializeAsString())
        << "ply " << i;
  }
}

}  // namespace
}  // namespace renju
