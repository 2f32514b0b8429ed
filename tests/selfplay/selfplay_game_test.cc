// One self-play game as the worker plays it, with a seeded fake evaluator:
// the record validates as an upload would, and with the Gumbel root the
// full searches' policy targets are improved policies summing to 1.
#include "selfplay/selfplay_game.h"

#include <cmath>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "rpc/game_record.h"
#include "rules/opening.h"
#include "search/fake_evaluators.h"
#include "selfplay/openings.h"

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

SelfplaySettings RuleSettings(const std::string& rule) {
  SelfplaySettings s;
  s.search.max_visits = 16;
  s.search.root_noise = true;
  s.search.temperature_early = 1.0f;
  s.opening_player.candidate_visits = 8;
  s.opening_player.max_candidates = 4;
  s.openings.set_empty(0);
  s.openings.set_canonical(0);
  s.openings.set_balanced(0);
  pb::OpeningRuleWeight* weight = s.openings.add_rules();
  weight->set_rule(rule);
  s.max_plies = 30;
  s.resign_threshold = 0;
  return s;
}

// Under each rule of RULES.md §6 the opening player plays both sides'
// opening actions; the record keeps them and validates as an upload, and
// only the positions after the opening phase carry training targets.
TEST(SelfplayGameTest, OpeningRuleGamesRecordEveryAction) {
  for (const char* rule : {"rif", "yamaguchi", "tarannikov", "taraguchi10",
                           "swap1", "swap3", "swap2"}) {
    SCOPED_TRACE(rule);
    const SelfplaySettings settings = RuleSettings(rule);
    absl::StatusOr<pb::GameRecord> record = Play(settings, 3);
    ASSERT_TRUE(record.ok()) << record.status();
    absl::StatusOr<Game> replayed = ValidateGameRecord(*record);
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    EXPECT_EQ(record->opening_rule(), rule);
    EXPECT_EQ(record->opening(), rule);
    EXPECT_GT(record->opening_actions_size(), 0);
    ASSERT_GT(record->opening_plies(), 0);
    ASSERT_GT(record->plies_size(), record->opening_plies());
    for (int i = 0; i < record->plies_size(); ++i) {
      EXPECT_EQ(record->plies(i).has_target(), i >= record->opening_plies())
          << "ply " << i + 1;
    }
    // The same seed plays the same opening.
    absl::StatusOr<pb::GameRecord> again = Play(settings, 3);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->opening_actions_size(), record->opening_actions_size());
    for (int i = 0; i < record->opening_actions_size(); ++i) {
      EXPECT_EQ(again->opening_actions(i).SerializeAsString(),
                record->opening_actions(i).SerializeAsString());
    }
  }
}

// With opening_swap2_place_two at 1 the second player always places moves
// 4 and 5, so the game starts from a five-stone swap2 position whose
// record validates.
TEST(SelfplayGameTest, Swap2PlaceTwoShareReachesFiveStonePositions) {
  SelfplaySettings settings = RuleSettings("swap2");
  settings.opening_player.swap2_place_two_share = 1;
  absl::StatusOr<pb::GameRecord> record = Play(settings, 5);
  ASSERT_TRUE(record.ok()) << record.status();
  ASSERT_TRUE(ValidateGameRecord(*record).ok())
      << ValidateGameRecord(*record).status();
  EXPECT_EQ(record->opening_plies(), 5);
  // Five stones, then the first player's colour choice.
  ASSERT_EQ(record->opening_actions_size(), 6);
  EXPECT_EQ(record->opening_actions(4).kind(), pb::OPENING_PLACE);
  EXPECT_NE(record->opening_actions(5).kind(), pb::OPENING_PLACE);
}

// The mix draws rules by weight beside the placed openings; without rules
// no game plays one.
TEST(SelfplayGameTest, OpeningMixDrawsRulesByWeight) {
  pb::OpeningMix mix;  // empty 0.2, canonical 0.5, balanced 0.3
  Random rng(11);
  for (int i = 0; i < 200; ++i) {
    absl::StatusOr<OpeningChoice> choice =
        ChooseOpening(mix, Variant::kRenju, 15, rng, nullptr);
    ASSERT_TRUE(choice.ok()) << choice.status();
    EXPECT_FALSE(choice->rule.has_value()) << choice->name;
  }
  pb::OpeningRuleWeight* rif = mix.add_rules();
  rif->set_rule("rif");
  rif->set_weight(1.0f);
  pb::OpeningRuleWeight* swap2 = mix.add_rules();
  swap2->set_rule("swap2");
  swap2->set_weight(2.0f);
  pb::OpeningRuleWeight* never = mix.add_rules();
  never->set_rule("tarannikov");
  never->set_weight(0.0f);
  std::map<std::string, int> counts;
  constexpr int kDraws = 4000;
  for (int i = 0; i < kDraws; ++i) {
    absl::StatusOr<OpeningChoice> choice =
        ChooseOpening(mix, Variant::kRenju, 15, rng, nullptr);
    ASSERT_TRUE(choice.ok()) << choice.status();
    if (choice->rule.has_value()) {
      EXPECT_TRUE(choice->moves.empty());
      EXPECT_EQ(choice->name, OpeningRuleName(*choice->rule));
      ++counts[choice->name];
    } else {
      ++counts[choice->name.substr(0, choice->name.find(':'))];
    }
  }
  // Weights 0.2 : 0.5 : 0.3 : 1 : 2 : 0 of 4, within 5 standard deviations.
  EXPECT_NEAR(counts["rif"], kDraws * 0.25, 140);
  EXPECT_NEAR(counts["swap2"], kDraws * 0.5, 160);
  EXPECT_NEAR(counts["canonical"], kDraws * 0.125, 110);
  EXPECT_EQ(counts["tarannikov"], 0);
}

}  // namespace
}  // namespace renju
