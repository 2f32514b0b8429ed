// The inference service over loopback gRPC with a real network: Suggest
// answers legal, sorted suggestions within the client's deadline; Evaluate
// equals local evaluation, also through the RemoteEvaluator; a hot swap
// under eight busy clients loses no request.
#include "inference/inference_service.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "base/notification.h"
#include "config/evaluator_config.h"
#include "gtest/gtest.h"
#include "inference/remote_evaluator.h"
#include "proto/health.grpc.pb.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using testing::ExpectLegalAndSorted;
using testing::FakeTrainer;
using testing::InferenceServiceTest;
using testing::MovesPosition;
using testing::P;
using testing::SuggestFor;

TEST_F(InferenceServiceTest, SuggestGivesLegalMovesSortedByVisits) {
  StartWithModel1();
  for (const pb::Position& position :
       {MovesPosition({"h8"}), MovesPosition({"h8", "h9", "i9"}),
        MovesPosition(testing::kDoubleThree)}) {
    pb::SuggestResponse response;
    ASSERT_TRUE(Suggest(SuggestFor(position, 48, 225), &response).ok());
    ExpectLegalAndSorted(position, response);
    EXPECT_EQ(response.visits(), 48);
    EXPECT_EQ(response.model_generation(), 1);
    ASSERT_FALSE(response.principal_variation().empty());
    EXPECT_EQ(response.principal_variation(0), response.best_move());
    EXPECT_NEAR(response.win() + response.draw() + response.loss(), 1, 1e-4);
  }
  // The double-three position: black's forbidden i8 is never a candidate,
  // though every root move is listed.
  pb::SuggestResponse response;
  const pb::Position double_three = MovesPosition(testing::kDoubleThree);
  ASSERT_TRUE(Suggest(SuggestFor(double_three, 16, 225), &response).ok());
  EXPECT_EQ(response.candidates_size(), 225 - 8 - 1);
  for (const pb::Candidate& c : response.candidates())
    EXPECT_NE(c.move(), P("i8"));

  // The empty board: the centre, without search, and says so.
  ASSERT_TRUE(Suggest(SuggestFor(MovesPosition({}), 48, 225), &response).ok());
  EXPECT_EQ(response.best_move(), P("h8"));
  EXPECT_EQ(response.decided_by(), "centre-opening");
  ASSERT_EQ(response.candidates_size(), 1);

  // White threatens a VCF down the a-file: the one defence is the answer,
  // without search, and says so.
  const pb::Position threat =
      MovesPosition({"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"});
  ASSERT_TRUE(Suggest(SuggestFor(threat, 48, 225), &response).ok());
  ExpectLegalAndSorted(threat, response);
  EXPECT_EQ(response.decided_by(), "defend-vcf");
  EXPECT_EQ(response.candidates_size(), 1);
  ASSERT_EQ(response.principal_variation_size(), 1);
  EXPECT_EQ(response.principal_variation(0), response.best_move());
}

TEST_F(InferenceServiceTest, SuggestNeverBlocksOnAForbiddenPoint) {
  StartWithModel1();
  // White's only five point is forbidden for black: the block would be the
  // obvious move, and it is illegal.
  const pb::Position position = testing::ForbiddenBlockPosition();
  pb::SuggestResponse response;
  ASSERT_TRUE(Suggest(SuggestFor(position, 32, 225), &response).ok());
  ExpectLegalAndSorted(position, response);
  EXPECT_NE(response.best_move(), P("i8"));
  EXPECT_EQ(response.decided_by(), "lost-to-five");
  EXPECT_NEAR(response.loss(), 1, 1e-6);
}

TEST_F(InferenceServiceTest, SuggestHonoursTheDeadline) {
  StartWithModel1();
  const pb::Position position = MovesPosition({"h8", "h9"});
  pb::SuggestResponse response;
  // 100,000 visits take minutes here; the deadline cuts the search short
  // and the answer still comes in time. Five seconds leave the server its
  // full margin (1 s) to finish the playouts in flight and reply, three
  // times what they took on a busy machine.
  const grpc::Status status =
      Suggest(SuggestFor(position, 100000), &response, /*deadline_ms=*/5000);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GT(response.visits(), 0);
  EXPECT_LT(response.visits(), 100000);
  ExpectLegalAndSorted(position, response);

  // Too short to search at all.
  const grpc::Status late =
      Suggest(SuggestFor(position, 100), &response, /*deadline_ms=*/5);
  EXPECT_EQ(late.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(InferenceServiceTest, SuggestHonoursATimeBudget) {
  StartWithModel1();
  pb::SuggestRequest request = SuggestFor(MovesPosition({"h8"}), 0);
  request.set_time_ms(150);
  pb::SuggestResponse response;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(Suggest(request, &response).ok());
  const auto elapsed = std::chrono::steady_clock::now() - start;
  // The budget is spent, less at most the last gathered batch, which does
  // not start when it would end past it.
  EXPECT_GE(elapsed, std::chrono::milliseconds(75));
  // Without the budget, only the server's 20 s cap would stop it.
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  // How many visits fit in 150 ms is the machine's business (none, when
  // the root's evaluation alone takes longer on a busy one).
  // Five candidates by default.
  EXPECT_EQ(response.candidates_size(), 5);
}

TEST_F(InferenceServiceTest, ATimeBudgetStillStopsAtTheServersVisitLimit) {
  config_.mutable_server()->set_max_visits(40);
  StartWithModel1();
  pb::SuggestRequest request = SuggestFor(MovesPosition({"h8"}), 0);
  request.set_time_ms(20000);
  pb::SuggestResponse response;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(Suggest(request, &response, /*deadline_ms=*/60000).ok());
  // 40 visits, not 20 s of search.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(response.visits(), 40);
}

TEST_F(InferenceServiceTest, EvaluateEqualsLocalEvaluation) {
  StartWithModel1();
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> local =
      CreateEvaluatorStack(config_, ServerEvaluator(), model1_, 1);
  ASSERT_TRUE(local.ok()) << local.status();
  pb::EvaluateRequest request;
  *request.add_positions() = MovesPosition({});
  *request.add_positions() = MovesPosition({"h8", "h9", "i9"});
  *request.add_positions() = MovesPosition(testing::kDoubleThree);
  *request.add_positions() = testing::ForbiddenBlockPosition();
  *request.add_positions() = MovesPosition({"h8", "i9"}, pb::FREESTYLE);
  pb::EvaluateResponse response;
  ASSERT_TRUE(Evaluate(request, &response).ok());
  ASSERT_EQ(response.evaluations_size(), request.positions_size());
  EXPECT_EQ(response.model_generation(), 1);
  for (int i = 0; i < request.positions_size(); ++i) {
    absl::StatusOr<Game> game = GameFromPosition(request.positions(i));
    ASSERT_TRUE(game.ok());
    Evaluation expected;
    ASSERT_TRUE((*local)->evaluator().Evaluate(*game, expected).ok());
    const pb::PositionEvaluation& got = response.evaluations(i);
    ASSERT_EQ(got.policy_size(), 225);
    for (int p = 0; p < 225; ++p) {
      EXPECT_NEAR(got.policy(p), expected.policy[p], 1e-5) << i << " " << p;
    }
    EXPECT_NEAR(got.win(), expected.win, 1e-5);
    EXPECT_NEAR(got.draw(), expected.draw, 1e-5);
    EXPECT_NEAR(got.loss(), expected.loss, 1e-5);
  }
  // Masked: no mass on the forbidden point or the stones.
  EXPECT_EQ(response.evaluations(2).policy(P("i8")), 0.0f);
  EXPECT_EQ(response.evaluations(1).policy(P("h8")), 0.0f);
}

TEST_F(InferenceServiceTest, RemoteEvaluatorBatchesAndMatchesLocal) {
  StartWithModel1();
  absl::StatusOr<std::unique_ptr<EvaluatorStack>> local =
      CreateEvaluatorStack(config_, ServerEvaluator(), model1_, 1);
  ASSERT_TRUE(local.ok()) << local.status();
  RemoteEvaluatorOptions options;
  options.channel.address = address_;
  options.max_batch_size = 8;
  options.max_wait_us = 20000;
  absl::StatusOr<std::unique_ptr<RemoteEvaluator>> remote =
      RemoteEvaluator::Create(options);
  ASSERT_TRUE(remote.ok()) << remote.status();
  EXPECT_EQ((*remote)->generation(), 1);

  // Eight searching threads at once, as a self-play worker would call.
  constexpr int kThreads = 8;
  constexpr int kCalls = 6;
  const std::vector<const char*> opening = {"h8", "h9",  "i9",
                                            "g7", "j10", "k11"};
  std::atomic<int> mismatches{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int c = 0; c < kCalls; ++c) {
        std::vector<const char*> moves(opening.begin(),
                                       opening.begin() + (t + c) % 6);
        absl::StatusOr<Game> game = GameFromPosition(MovesPosition(moves));
        Evaluation got, expected;
        if (!(*remote)->Evaluate(*game, got).ok() ||
            !(*local)->evaluator().Evaluate(*game, expected).ok()) {
          ++failures;
          continue;
        }
        for (int p = 0; p < 225; ++p) {
          mismatches += std::abs(got.policy[p] - expected.policy[p]) > 1e-5;
        }
        mismatches += std::abs(got.win - expected.win) > 1e-5;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(mismatches, 0);
  const RemoteEvaluatorStats stats = (*remote)->stats();
  EXPECT_EQ(stats.positions, kThreads * kCalls);
  EXPECT_GT(stats.mean_batch_size(), 1.5) << stats.rpcs << " rpcs";

  // A position the server rejects comes back as the server's error.
  Game small(Variant::kFreestyle, 9);
  Evaluation out;
  const absl::Status rejected = (*remote)->Evaluate(small, out);
  EXPECT_TRUE(absl::IsInvalidArgument(rejected)) << rejected;
  EXPECT_NE(rejected.message().find("9x9"), absl::string_view::npos)
      << rejected;
}

TEST_F(InferenceServiceTest, HotSwapUnderLoadLosesNoRequest) {
  // The trainer side: generation 1 now, generation 2 later.
  FakeTrainer trainer_service;
  ASSERT_TRUE(trainer_service.Publish(1, model1_).ok());
  int trainer_port = 0;
  std::unique_ptr<grpc::Server> trainer_server =
      testing::StartFakeTrainer(trainer_service, trainer_port);
  ASSERT_NE(trainer_server, nullptr);
  ChannelOptions channel;
  channel.address = "127.0.0.1:" + std::to_string(trainer_port);
  absl::StatusOr<std::unique_ptr<TrainerClient>> trainer =
      TrainerClient::Create(channel, 10000);
  ASSERT_TRUE(trainer.ok());

  const std::string model_dir = (dir_ / "fetched").string();
  absl::StatusOr<pb::ModelInfo> current = (*trainer)->GetCurrentModel();
  ASSERT_TRUE(current.ok()) << current.status();
  absl::StatusOr<std::shared_ptr<const ServedModel>> first =
      FetchServedModel(config_, **trainer, *current, model_dir);
  ASSERT_TRUE(first.ok()) << first.status();
  StartServer(*first, trainer->get());
  ModelUpdater updater(config_, **trainer, *service_, model_dir);
  absl::StatusOr<bool> unchanged = updater.Update();
  ASSERT_TRUE(unchanged.ok()) << unchanged.status();
  EXPECT_FALSE(*unchanged);

  constexpr int kClients = 8;
  // Enough answers from a generation that every client has been served by
  // it, whatever the scheduling.
  constexpr int kAnswersPerGeneration = 2 * kClients;
  std::atomic<bool> stop{false};
  std::atomic<int> ok{0}, failed{0}, saw_gen1{0}, saw_gen2{0};
  Notification gen1_served, gen2_served;
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      const pb::Position position = MovesPosition({"h8", "h9"});
      for (int i = 0; !stop.load(); ++i) {
        int64_t generation = 0;
        grpc::Status status;
        if ((c + i) % 2 == 0) {
          pb::SuggestResponse response;
          status = Suggest(SuggestFor(position, 16), &response);
          generation = response.model_generation();
        } else {
          pb::EvaluateRequest request;
          *request.add_positions() = position;
          pb::EvaluateResponse response;
          status = Evaluate(request, &response);
          generation = response.model_generation();
        }
        if (!status.ok()) {
          ++failed;
          ADD_FAILURE() << status.error_message();
          continue;
        }
        ++ok;
        if (generation == 1 && ++saw_gen1 >= kAnswersPerGeneration) {
          gen1_served.Notify();
        }
        if (generation == 2 && ++saw_gen2 >= kAnswersPerGeneration) {
          gen2_served.Notify();
        }
      }
    });
  }
  // Minutes: only a failing test waits that long.
  EXPECT_TRUE(
      gen1_served.WaitForNotificationWithTimeout(std::chrono::minutes(2)));
  const std::string model2 = (dir_ / "gen2.model").string();
  testing::WriteCheckpoint(config_, model2, 2, 22);
  ASSERT_TRUE(trainer_service.Publish(2, model2).ok());
  absl::StatusOr<bool> swapped = updater.Update();
  ASSERT_TRUE(swapped.ok()) << swapped.status();
  EXPECT_TRUE(*swapped);
  const int64_t ok_at_swap = ok.load();
  EXPECT_TRUE(
      gen2_served.WaitForNotificationWithTimeout(std::chrono::minutes(2)));
  stop = true;
  for (std::thread& t : clients) t.join();

  EXPECT_EQ(failed, 0);
  EXPECT_GT(saw_gen1, 0);
  EXPECT_GT(saw_gen2, 0);
  EXPECT_GT(ok.load(), ok_at_swap);
  EXPECT_EQ(service_->model()->info.generation(), 2);

  // ListModels: the served model first, then the trainer's registry.
  grpc::ClientContext context;
  pb::ListModelsResponse models;
  ASSERT_TRUE(
      stub_->ListModels(&context, pb::ListModelsRequest(), &models).ok());
  ASSERT_EQ(models.models_size(), 3);
  EXPECT_EQ(models.models(0).generation(), 2);
  EXPECT_EQ(models.models(0).status(), "serving");
  EXPECT_EQ(models.models(0).sha256(), *Sha256OfFile(model2));
  EXPECT_EQ(models.models(1).generation(), 1);
  EXPECT_EQ(models.models(2).generation(), 2);
  // The service keeps a pointer to `trainer`, which dies with this scope:
  // stop the server (joining its handler threads) first.
  server_->Shutdown();
  server_.reset();
  trainer_server->Shutdown();
}

TEST_F(InferenceServiceTest, ListModelsAndHealth) {
  StartWithModel1();
  grpc::ClientContext context;
  pb::ListModelsResponse models;
  ASSERT_TRUE(
      stub_->ListModels(&context, pb::ListModelsRequest(), &models).ok());
  ASSERT_EQ(models.models_size(), 1);
  EXPECT_EQ(models.models(0).generation(), 1);
  EXPECT_EQ(models.models(0).training_step(), 100);
  EXPECT_EQ(models.models(0).sha256(), *Sha256OfFile(model1_));

  auto health = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
  grpc::ClientContext health_context;
  grpc::health::v1::HealthCheckResponse answer;
  ASSERT_TRUE(health
                  ->Check(&health_context,
                          grpc::health::v1::HealthCheckRequest(), &answer)
                  .ok());
  EXPECT_EQ(answer.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

}  // namespace
}  // namespace renju
