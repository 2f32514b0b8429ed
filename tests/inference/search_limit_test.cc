// server.max_searches_per_client over gRPC: while one client's long search
// holds its only slot, that client's next Suggest is refused at once with
// RESOURCE_EXHAUSTED and another client's Suggest still answers.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "base/notification.h"
#include "gtest/gtest.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju::testing {
namespace {

using SearchLimitTest = InferenceServiceTest;

grpc::Status SuggestAs(pb::Inference::Stub& stub, const char* token,
                       const pb::SuggestRequest& request,
                       grpc::ClientContext& context) {
  // The server checks no token here: a token only names the client.
  if (token != nullptr) {
    context.AddMetadata("authorization", std::string("Bearer ") + token);
  }
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(120));
  pb::SuggestResponse response;
  return stub.Suggest(&context, request, &response);
}

TEST_F(SearchLimitTest, ABusyClientDoesNotBlockAnother) {
  config_.mutable_server()->set_max_searches_per_client(1);
  config_.mutable_server()->set_max_visits(10000000);
  StartWithModel1();
  const pb::Position position = MovesPosition({"h8", "h9"});

  // Client a's long search: a time budget no machine finishes early; it
  // ends when the test cancels it.
  pb::SuggestRequest long_search = SuggestFor(position, 0);
  long_search.set_time_ms(config_.server().max_time_ms());
  // A probe below may hold a's slot when the long search starts: the
  // holder then asks again, each time on a context the test can cancel.
  std::mutex mutex;
  grpc::ClientContext* current = nullptr;
  bool cancelled = false;
  Notification long_done;
  grpc::Status long_status;
  std::thread holder([&] {
    for (;;) {
      grpc::ClientContext context;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (cancelled) break;
        current = &context;
      }
      long_status = SuggestAs(*stub_, "client-a", long_search, context);
      {
        std::lock_guard<std::mutex> lock(mutex);
        current = nullptr;
      }
      if (long_status.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) {
        break;
      }
    }
    long_done.Notify();
  });

  // Until the long search holds a's slot, a's short probes get through;
  // then they are refused, at once rather than after the long search.
  grpc::Status probe;
  while (!long_done.HasBeenNotified()) {
    grpc::ClientContext context;
    probe = SuggestAs(*stub_, "client-a", SuggestFor(position, 1), context);
    if (probe.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) break;
    ASSERT_TRUE(probe.ok()) << probe.error_message();
  }
  ASSERT_FALSE(long_done.HasBeenNotified())
      << "the long search ended early: " << long_status.error_message();
  EXPECT_NE(probe.error_message().find("max_searches_per_client"),
            std::string::npos)
      << probe.error_message();

  // Another client (no token: its address) still gets its answer.
  grpc::ClientContext other;
  const grpc::Status answer =
      SuggestAs(*stub_, nullptr, SuggestFor(position, 8), other);
  EXPECT_TRUE(answer.ok()) << answer.error_message();
  grpc::ClientContext other_token;
  EXPECT_TRUE(
      SuggestAs(*stub_, "client-b", SuggestFor(position, 8), other_token).ok());
  EXPECT_FALSE(long_done.HasBeenNotified());

  // Cancelling the long search frees a's slot.
  {
    std::lock_guard<std::mutex> lock(mutex);
    cancelled = true;
    if (current != nullptr) current->TryCancel();
  }
  holder.join();
  // The server's handler may still be returning when the client has seen
  // the cancellation; the slot comes back when it has.
  grpc::Status after;
  do {
    grpc::ClientContext again;
    after = SuggestAs(*stub_, "client-a", SuggestFor(position, 8), again);
  } while (after.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(after.ok()) << after.error_message();
}

}  // namespace
}  // namespace renju::testing
