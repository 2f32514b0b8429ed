// MoveSuggester with no gRPC in front of it: its errors name the request
// field they are about, its per-client limit refuses a busy client at once
// while another is served, and its caller's cancellation and deadline end a
// suggestion. The searches are held open through SuggestStop::cancelled,
// not timed.
#include "inference/move_suggester.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "base/error_field.h"
#include "base/notification.h"
#include "config/config.h"
#include "gtest/gtest.h"
#include "nn/model.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using testing::InferenceServiceTest;
using testing::MovesPosition;
using testing::SuggestFor;

class MoveSuggesterTest : public InferenceServiceTest {
 protected:
  std::unique_ptr<MoveSuggester> MakeSuggester() {
    absl::StatusOr<std::shared_ptr<const ServedModel>> model =
        LoadServedModel(config_, model1_, 1);
    EXPECT_TRUE(model.ok()) << model.status();
    if (!model.ok()) return nullptr;
    return std::make_unique<MoveSuggester>(config_, *model, /*seed=*/1);
  }
};

// A search that runs until released: its first stop poll says it started.
struct HeldSearch {
  Notification started;
  std::atomic<bool> release{false};
  SuggestStop Stop() {
    SuggestStop stop;
    stop.cancelled = [this] {
      if (!started.HasBeenNotified()) started.Notify();
      return release.load();
    };
    return stop;
  }
};

TEST_F(MoveSuggesterTest, EveryBadQueryNamesItsField) {
  std::unique_ptr<MoveSuggester> suggester = MakeSuggester();
  ASSERT_NE(suggester, nullptr);
  struct Case {
    pb::SuggestRequest query;
    const char* field;
    const char* reason;  // a part of the message
  };
  std::vector<Case> cases;
  cases.push_back(
      {SuggestFor(MovesPosition({"h8", "h8"}), 8), "position", "position: "});
  cases.push_back({SuggestFor(MovesPosition({"h8", "a1", "i8", "a2", "j8", "a3",
                                             "k8", "a4", "l8"}),
                              8),
                   "position", "already over"});
  cases.push_back({SuggestFor(MovesPosition({"h8"}), -1), "visits", "visits"});
  pb::SuggestRequest long_time = SuggestFor(MovesPosition({"h8"}), 8);
  long_time.set_time_ms(config_.server().max_time_ms() + 1);
  cases.push_back({long_time, "time_ms", "time_ms"});
  cases.push_back({SuggestFor(MovesPosition({"h8"}), 8,
                              config_.server().max_candidates() + 1),
                   "num_candidates", "num_candidates"});
  pb::SuggestRequest bad_rule = SuggestFor(MovesPosition({}), 8);
  bad_rule.set_opening_rule("pente");
  cases.push_back({bad_rule, "opening_rule", "pente"});
  pb::SuggestRequest stones = SuggestFor(MovesPosition({"h8"}), 8);
  stones.set_opening_rule("rif");
  cases.push_back({stones, "position", "opening_actions place the stones"});
  for (const Case& c : cases) {
    const absl::StatusOr<pb::SuggestResponse> answer =
        suggester->Suggest(c.query, "client", SuggestStop());
    ASSERT_TRUE(absl::IsInvalidArgument(answer.status()))
        << c.query.ShortDebugString() << ": " << answer.status();
    EXPECT_EQ(ErrorField(answer.status()), c.field) << answer.status();
    EXPECT_NE(answer.status().message().find(c.reason), std::string::npos)
        << c.reason << " not in " << answer.status();
  }
  // Still serving, and a good answer names no field.
  const absl::StatusOr<pb::SuggestResponse> good =
      suggester->Suggest(SuggestFor(MovesPosition({"h8"}), 8), "client", {});
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_GE(good->best_move(), 0);
}

// The served network's variants come from its checkpoint: one trained for
// renju alone refuses a freestyle position and names the variant field.
TEST_F(MoveSuggesterTest, AVariantTheModelWasNotTrainedForIsRefused) {
  ModelOptions options;
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<Model>> net =
      Model::Create(ToNetworkConfig(config_), options, /*seed=*/3);
  ASSERT_TRUE(net.ok()) << net.status();
  (*net)->mutable_info().variants = {Variant::kRenju};
  const std::string renju_only = (dir_ / "renju_only.model").string();
  ASSERT_TRUE((*net)->Save(renju_only).ok());
  absl::StatusOr<std::shared_ptr<const ServedModel>> model =
      LoadServedModel(config_, renju_only, 1);
  ASSERT_TRUE(model.ok()) << model.status();
  MoveSuggester suggester(config_, *model, /*seed=*/1);
  const absl::StatusOr<pb::SuggestResponse> freestyle = suggester.Suggest(
      SuggestFor(MovesPosition({"h8"}, pb::FREESTYLE), 8), "client", {});
  ASSERT_TRUE(absl::IsInvalidArgument(freestyle.status()))
      << freestyle.status();
  EXPECT_EQ(ErrorField(freestyle.status()), "position.variant");
  EXPECT_NE(freestyle.status().message().find("not trained for freestyle"),
            std::string::npos)
      << freestyle.status();
  const absl::StatusOr<pb::SuggestResponse> renju =
      suggester.Suggest(SuggestFor(MovesPosition({"h8"}), 8), "client", {});
  EXPECT_TRUE(renju.ok()) << renju.status();
}

TEST_F(MoveSuggesterTest, ABusyClientIsRefusedAtOnceAndAnotherIsServed) {
  config_.mutable_server()->set_max_searches_per_client(1);
  config_.mutable_server()->set_max_visits(10000000);
  config_.mutable_server()->set_max_time_ms(600000);
  std::unique_ptr<MoveSuggester> suggester = MakeSuggester();
  ASSERT_NE(suggester, nullptr);
  pb::SuggestRequest long_search = SuggestFor(MovesPosition({"h8", "h9"}), 0);
  long_search.set_time_ms(config_.server().max_time_ms());
  HeldSearch held;
  absl::StatusOr<pb::SuggestResponse> long_answer;
  std::thread holder(
      [&] { long_answer = suggester->Suggest(long_search, "a", held.Stop()); });
  held.started.WaitForNotification();

  const absl::StatusOr<pb::SuggestResponse> refused =
      suggester->Suggest(SuggestFor(MovesPosition({"h8"}), 4), "a", {});
  EXPECT_TRUE(absl::IsResourceExhausted(refused.status())) << refused.status();
  EXPECT_NE(refused.status().message().find("max_searches_per_client"),
            std::string::npos);
  const absl::StatusOr<pb::SuggestResponse> served =
      suggester->Suggest(SuggestFor(MovesPosition({"h8"}), 4), "b", {});
  EXPECT_TRUE(served.ok()) << served.status();

  // The caller's cancellation ends the long search with CANCELLED, and
  // frees a's slot.
  held.release = true;
  holder.join();
  EXPECT_TRUE(absl::IsCancelled(long_answer.status())) << long_answer.status();
  EXPECT_TRUE(
      suggester->Suggest(SuggestFor(MovesPosition({"h8"}), 4), "a", {}).ok());
}

TEST_F(MoveSuggesterTest, ADeadlineAlreadyPassedIsDeadlineExceeded) {
  std::unique_ptr<MoveSuggester> suggester = MakeSuggester();
  ASSERT_NE(suggester, nullptr);
  SuggestStop stop;
  stop.deadline = absl::Now() - absl::Seconds(1);
  const absl::StatusOr<pb::SuggestResponse> answer =
      suggester->Suggest(SuggestFor(MovesPosition({"h8"}), 8), "client", stop);
  EXPECT_TRUE(absl::IsDeadlineExceeded(answer.status())) << answer.status();
}

TEST_F(MoveSuggesterTest, MetricsTimeEveryCallAndCountErrorsByCode) {
  MetricsRegistry registry;
  const SuggestMetrics metrics = RegisterSuggestMetrics(registry);
  absl::StatusOr<std::shared_ptr<const ServedModel>> model =
      LoadServedModel(config_, model1_, 1);
  ASSERT_TRUE(model.ok()) << model.status();
  MoveSuggester suggester(config_, *model, /*seed=*/1, metrics);
  EXPECT_TRUE(
      suggester.Suggest(SuggestFor(MovesPosition({"h8"}), 8), "c", {}).ok());
  EXPECT_FALSE(
      suggester.Suggest(SuggestFor(MovesPosition({"h8", "h8"}), 8), "c", {})
          .ok());
  SuggestStop late;
  late.deadline = absl::Now() - absl::Seconds(1);
  EXPECT_FALSE(
      suggester.Suggest(SuggestFor(MovesPosition({"h8"}), 8), "c", late).ok());
  EXPECT_EQ(metrics.latency_seconds->snapshot().count, 3u);
  EXPECT_EQ(metrics.errors->WithLabels({"INVALID_ARGUMENT"}).value(), 1);
  EXPECT_EQ(metrics.errors->WithLabels({"DEADLINE_EXCEEDED"}).value(), 1);
  EXPECT_EQ(metrics.errors->WithLabels({"RESOURCE_EXHAUSTED"}).value(), 0);
}

}  // namespace
}  // namespace renju
