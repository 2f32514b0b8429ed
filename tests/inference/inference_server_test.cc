// RunInferenceServer, the whole of `renju serve` but its command line,
// in-process: it serves the trainer's model over gRPC beside the HTTP side,
// switches to the trainer's next model, and stops cleanly on SIGTERM with a
// search in flight. In-process so that the ThreadSanitizer stage covers the
// served process's threads (the gRPC handlers, the model updater, the HTTP
// listener, the shutdown order) without building the `renju` binary under
// TSan; tests/tools/serve_command_test.cc starts the real process.
#include "inference/inference_server.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/ascii.h"
#include "base/file_util.h"
#include "gtest/gtest.h"
#include "proto/inference.grpc.pb.h"
#include "tests/common/serve_test_util.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using testing::FakeTrainer;
using testing::MovesPosition;

// Polls `what` every 50 ms for up to `limit`; whether it came true.
template <typename Condition>
bool WaitFor(Condition what, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (what()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return what();
}

// Only one test here: RunInferenceServer's SIGTERM flag is the process's
// and stays set once raised, as in the real process.
TEST(InferenceServerTest, ServesTheTrainersModelsUntilSigterm) {
  const pb::RunConfig config = testing::ServeConfig();
  const std::filesystem::path dir = testing::TestDir();
  const std::string model1 = (dir / "gen1.model").string();
  const std::string model2 = (dir / "gen2.model").string();
  testing::WriteCheckpoint(config, model1, 1, 11);
  testing::WriteCheckpoint(config, model2, 2, 22);

  FakeTrainer trainer_service;
  ASSERT_TRUE(trainer_service.Publish(1, model1).ok());
  int trainer_port = 0;
  std::unique_ptr<grpc::Server> trainer_server =
      testing::StartFakeTrainer(trainer_service, trainer_port);
  ASSERT_NE(trainer_server, nullptr);

  InferenceServerOptions options;
  options.trainer.address = "127.0.0.1:" + std::to_string(trainer_port);
  options.model_dir = (dir / "fetched").string();
  options.listen = "127.0.0.1:0";
  options.address_file = (dir / "address").string();
  options.http_listen = "127.0.0.1:0";
  absl::Status served = absl::UnknownError("still running");
  std::thread server([&] { served = RunInferenceServer(config, options); });

  std::string address;
  ASSERT_TRUE(WaitFor(
      [&] {
        absl::StatusOr<std::string> text = ReadFile(options.address_file);
        if (!text.ok() || text->empty() || text->back() != '\n') return false;
        address = std::string(absl::StripAsciiWhitespace(*text));
        return true;
      },
      std::chrono::seconds(60)))
      << "no address written";
  std::unique_ptr<pb::Inference::Stub> stub = pb::Inference::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  auto suggest = [&stub](int visits, pb::SuggestResponse& response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(30));
    return stub->Suggest(
        &context, testing::SuggestFor(MovesPosition({"h8", "h9"}), visits),
        &response);
  };
  pb::SuggestResponse response;
  grpc::Status status = suggest(16, response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.model_generation(), 1);

  // The updater polls the trainer every second (model_poll_seconds).
  ASSERT_TRUE(trainer_service.Publish(2, model2).ok());
  EXPECT_TRUE(WaitFor(
      [&] {
        pb::SuggestResponse r;
        return suggest(8, r).ok() && r.model_generation() == 2;
      },
      std::chrono::seconds(60)))
      << "generation 2 was never served";

  // SIGTERM with a long search in flight: the server stops at once (its
  // shutdown waits at most 5 s for calls) and returns OK.
  std::thread in_flight([&] {
    pb::SuggestResponse r;
    suggest(100000, r);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::raise(SIGTERM);
  const auto stop_start = std::chrono::steady_clock::now();
  server.join();
  in_flight.join();
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGINT, SIG_DFL);
  EXPECT_TRUE(served.ok()) << served;
  EXPECT_LT(std::chrono::steady_clock::now() - stop_start,
            std::chrono::seconds(30));
  trainer_server->Shutdown();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace renju
