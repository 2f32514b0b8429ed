// Every kind of bad request gets INVALID_ARGUMENT with a reason that names
// what was wrong, and the server keeps serving; a configured token is
// required.
#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rpc/game_record.h"
#include "rules/opening.h"
#include "tests/inference/inference_service_fixture.h"

namespace renju {
namespace {

using testing::InferenceServiceTest;
using testing::MovesPosition;
using testing::P;
using testing::SuggestFor;

// A Suggest of `position` with a small budget.
pb::SuggestRequest SmallSuggest(const pb::Position& position) {
  return SuggestFor(position, 8);
}

TEST_F(InferenceServiceTest, EveryBadRequestIsInvalidArgument) {
  StartWithModel1();
  struct Case {
    const char* what;
    pb::SuggestRequest request;
    const char* reason;  // a part of the message
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, pb::SuggestRequest request,
                 const char* reason) {
    cases.push_back({what, std::move(request), reason});
  };
  pb::Position off_board = MovesPosition({"h8"});
  off_board.add_moves(225);
  add("bad point", SmallSuggest(off_board), "off the 15x15 board");
  add("occupied", SmallSuggest(MovesPosition({"h8", "h8"})), "occupied");
  add("forbidden move in the history", SmallSuggest([] {
        pb::Position p = MovesPosition(testing::kDoubleThree);
        p.add_moves(P("i8"));
        return p;
      }()),
      "forbidden for black");
  const std::vector<const char*> five = {"h8", "a1", "i8", "a2", "j8",
                                         "a3", "k8", "a4", "l8"};
  std::vector<const char*> after_five = five;
  after_five.push_back("a5");
  add("moves after a five", SmallSuggest(MovesPosition(after_five)),
      "after the end of the game");
  add("finished game", SmallSuggest(MovesPosition(five)), "already over");
  add("unknown rule",
      SmallSuggest(MovesPosition({"h8"}, pb::VARIANT_UNSPECIFIED)),
      "unknown rule variant");
  pb::Position bad_variant = MovesPosition({"h8"});
  bad_variant.set_variant(static_cast<pb::Variant>(9));
  add("rule out of the enum", SmallSuggest(bad_variant),
      "unknown rule variant");
  pb::Position small = MovesPosition({}, pb::FREESTYLE);
  small.set_board_size(13);
  add("wrong board size", SmallSuggest(small),
      "the served network plays 15x15");
  pb::Position renju13 = MovesPosition({});
  renju13.set_board_size(13);
  add("renju off 15x15", SmallSuggest(renju13), "15");
  pb::Position stones;
  stones.set_variant(pb::RENJU);
  for (const char* b : {"h8", "h9", "h10"}) stones.add_black(P(b));
  stones.set_side_to_move(pb::WHITE);
  add("stones inconsistent", SmallSuggest(stones), "black must have");
  pb::Position both = MovesPosition({"h8"});
  both.add_black(P("a1"));
  add("moves and stones", SmallSuggest(both), "both moves and stone lists");
  pb::SuggestRequest request = SmallSuggest(MovesPosition({"h8"}));
  request.set_visits(-1);
  add("negative visits", request, "visits = -1");
  request.set_visits(100001);
  add("too many visits", request, "visits = 100001 is outside 1..100000");
  request.set_visits(8);
  request.set_time_ms(20001);
  add("too long", request, "time_ms = 20001");
  request.set_time_ms(-5);
  add("negative time", request, "time_ms = -5");
  request.set_time_ms(0);
  request.set_num_candidates(226);
  add("too many candidates", request, "num_candidates = 226");
  request.set_num_candidates(-1);
  add("negative candidates", request, "num_candidates = -1");
  // Opening requests (SuggestRequest.opening_rule).
  auto opening = [](const char* rule, const std::vector<const char*>& actions,
                    const pb::Position& position = MovesPosition({})) {
    pb::SuggestRequest r = SmallSuggest(position);
    r.set_opening_rule(rule);
    for (const char* text : actions) {
      *r.add_opening_actions() = ToProto(*ParseOpeningAction(text), 15);
    }
    return r;
  };
  add("unknown opening rule", opening("rif2", {}), "opening rule 'rif2'");
  add("opening with moves", opening("rif", {}, MovesPosition({"h8"})),
      "its opening_actions place the stones");
  add("illegal opening action",
      opening("taraguchi10", {"Place(h8)", "KeepColours", "Place(h10)"}),
      "opening action 3 of 3 (Place(h10)): move 2 must be inside the central "
      "3x3 (g7-i9), got h10; Taraguchi-10 expects white (the second player) "
      "to place move 2 inside the central 3x3 (g7-i9)");
  add("opening action out of phase", opening("rif", {"Place(h8)", "Swap"}),
      "opening action 2 of 2 (Swap): out of phase: RIF expects black (the "
      "first player) to place move 2 inside the central 3x3 (g7-i9), got Swap");
  add("opening over", opening("swap1", {"Place(a1)", "KeepColours"}),
      "the swap-1 opening is over");
  pb::SuggestRequest unparsed = opening("rif", {"Place(h8)"});
  unparsed.mutable_opening_actions(0)->add_points(3);
  add("malformed opening action", unparsed,
      "opening action 1 of 1: OPENING_PLACE with 2 points");

  for (const Case& c : cases) {
    pb::SuggestResponse response;
    const grpc::Status status = Suggest(c.request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << c.what << ": " << status.error_message();
    EXPECT_NE(status.error_message().find(c.reason), std::string::npos)
        << c.what << ": " << status.error_message();
  }

  // Evaluate: too many positions, none, and one bad among good ones.
  pb::EvaluateRequest too_many;
  for (int i = 0; i < 65; ++i)
    *too_many.add_positions() = MovesPosition({"h8"});
  pb::EvaluateRequest none;
  pb::EvaluateRequest one_bad;
  *one_bad.add_positions() = MovesPosition({"h8"});
  *one_bad.add_positions() = MovesPosition({"h8", "h8"});
  const std::vector<std::pair<pb::EvaluateRequest, const char*>> evaluations = {
      {too_many, "65 positions; expected 1..64"},
      {none, "0 positions"},
      {one_bad, "positions[1]: move 2 (h8) is on an occupied point"}};
  for (const auto& [bad, reason] : evaluations) {
    pb::EvaluateResponse response;
    const grpc::Status status = Evaluate(bad, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << status.error_message();
    EXPECT_NE(status.error_message().find(reason), std::string::npos)
        << status.error_message();
  }

  // Still serving.
  pb::SuggestResponse response;
  ASSERT_TRUE(Suggest(SmallSuggest(MovesPosition({"h8"})), &response).ok());
  EXPECT_EQ(response.visits(), 8);
}

TEST_F(InferenceServiceTest, TokenIsRequiredWhenConfigured) {
  absl::StatusOr<std::shared_ptr<const ServedModel>> model =
      LoadServedModel(config_, model1_, 1);
  ASSERT_TRUE(model.ok());
  InferenceServiceOptions options;
  options.token = "secret";
  InferenceService service(config_, *model, nullptr, options);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  auto stub = pb::Inference::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  for (const char* token : {"", "wrong", "secret"}) {
    grpc::ClientContext context;
    PrepareContext(context, token, 10000);
    pb::ListModelsResponse response;
    const grpc::Status status =
        stub->ListModels(&context, pb::ListModelsRequest(), &response);
    EXPECT_EQ(status.error_code(), std::string(token) == "secret"
                                       ? grpc::StatusCode::OK
                                       : grpc::StatusCode::UNAUTHENTICATED)
        << token;
  }
  server->Shutdown();
}

}  // namespace
}  // namespace renju
