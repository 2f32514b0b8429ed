// The fixture of the inference service tests: a served small network on a
// loopback port, a stub, and checks shared by the Suggest tests.
#ifndef RENJU_TESTS_INFERENCE_INFERENCE_SERVICE_FIXTURE_H_
#define RENJU_TESTS_INFERENCE_INFERENCE_SERVICE_FIXTURE_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "config/config.h"
#include "gtest/gtest.h"
#include "inference/inference_service.h"
#include "tests/common/serve_test_util.h"

namespace renju::testing {

class InferenceServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = ServeConfig();
    dir_ = TestDir();
    model1_ = (dir_ / "gen1.model").string();
    WriteCheckpoint(config_, model1_, 1, 11);
  }

  void TearDown() override {
    if (server_) server_->Shutdown();
    std::filesystem::remove_all(dir_);
  }

  void StartServer(std::shared_ptr<const ServedModel> model,
                   TrainerClient* trainer = nullptr) {
    service_ = std::make_unique<InferenceService>(
        config_, std::move(model), trainer, InferenceServiceOptions{});
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.SetMaxReceiveMessageSize(service_->MaxRequestBytes());
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    address_ = "127.0.0.1:" + std::to_string(port);
    stub_ = pb::Inference::NewStub(
        grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
  }

  void StartWithModel1() {
    absl::StatusOr<std::shared_ptr<const ServedModel>> model =
        LoadServedModel(config_, model1_, 1);
    ASSERT_TRUE(model.ok()) << model.status();
    StartServer(*model);
  }

  grpc::Status Suggest(const pb::SuggestRequest& request,
                       pb::SuggestResponse* response,
                       int64_t deadline_ms = 20000) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(deadline_ms));
    return stub_->Suggest(&context, request, response);
  }

  grpc::Status Evaluate(const pb::EvaluateRequest& request,
                        pb::EvaluateResponse* response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(20));
    return stub_->Evaluate(&context, request, response);
  }

  // The evaluator config the server plays and evaluates with: play's
  // defaults (bf16 on a CPU that computes it natively) filled in.
  pb::EvaluatorConfig ServerEvaluator() const {
    return ToPlayTimeEvaluatorConfig(config_.server().evaluator());
  }

  pb::RunConfig config_;
  std::filesystem::path dir_;
  std::string model1_;
  std::unique_ptr<InferenceService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
  std::unique_ptr<pb::Inference::Stub> stub_;
};

inline pb::SuggestRequest SuggestFor(const pb::Position& position, int visits,
                                     int candidates = 0) {
  pb::SuggestRequest request;
  *request.mutable_position() = position;
  request.set_visits(visits);
  request.set_num_candidates(candidates);
  return request;
}

// Every candidate is a legal point of `position`, sorted by visits.
inline void ExpectLegalAndSorted(const pb::Position& position,
                                 const pb::SuggestResponse& response) {
  absl::StatusOr<Game> game = GameFromPosition(position);
  ASSERT_TRUE(game.ok());
  ASSERT_GE(response.best_move(), 0);
  EXPECT_TRUE(game->IsLegal(PointAt(response.best_move(), 15)))
      << PointName(PointAt(response.best_move(), 15));
  ASSERT_FALSE(response.candidates().empty());
  for (int i = 0; i < response.candidates_size(); ++i) {
    const pb::Candidate& c = response.candidates(i);
    EXPECT_TRUE(game->IsLegal(PointAt(c.move(), 15)))
        << PointName(PointAt(c.move(), 15));
    if (i > 0) {
      EXPECT_LE(c.visits(), response.candidates(i - 1).visits());
    }
  }
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_INFERENCE_INFERENCE_SERVICE_FIXTURE_H_
