#include "inference/remote_evaluator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/logging.h"
#include "rpc/game_record.h"

namespace renju {

// Lives on the caller's stack for one Evaluate call; a sender fills `out`
// and `status`, then notifies, and never touches the request again.
struct RemoteEvaluator::Request : PendingEvaluation {
  pb::Position position;
  int area = 0;
  Evaluation* out = nullptr;
};

pb::Position PositionOf(const Game& game) {
  pb::Position position;
  position.set_variant(ToProto(game.variant()));
  position.set_board_size(game.size());
  const std::vector<Move>& moves = game.moves();
  const int64_t placed = std::count_if(moves.begin(), moves.end(),
                                       [](Move m) { return !m.is_pass(); });
  if (placed == game.board().num_stones()) {
    for (Move m : moves) position.add_moves(MoveIndex(m, game.size()));
    return position;
  }
  for (Point p : game.board().Stones(Color::kBlack).ToVector()) {
    position.add_black(PointIndex(p, game.size()));
  }
  for (Point p : game.board().Stones(Color::kWhite).ToVector()) {
    position.add_white(PointIndex(p, game.size()));
  }
  position.set_side_to_move(game.side_to_move() == Color::kBlack ? pb::BLACK
                                                                 : pb::WHITE);
  return position;
}

absl::StatusOr<std::unique_ptr<RemoteEvaluator>> RemoteEvaluator::Create(
    const RemoteEvaluatorOptions& options) {
  if (options.max_batch_size < 1 || options.max_batch_size > 4096) {
    return absl::InvalidArgumentError(
        absl::StrCat("remote evaluator: max_batch_size is ",
                     options.max_batch_size, ", expected 1..4096"));
  }
  if (options.max_wait_us < 0 || options.max_wait_us > 1000000) {
    return absl::InvalidArgumentError(
        absl::StrCat("remote evaluator: max_wait_us is ", options.max_wait_us,
                     ", expected 0..1000000"));
  }
  if (options.max_rpcs_in_flight < 1 || options.max_rpcs_in_flight > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("remote evaluator: max_rpcs_in_flight is ",
                     options.max_rpcs_in_flight, ", expected 1..64"));
  }
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(options.channel);
  if (!channel.ok()) return channel.status();
  std::unique_ptr<pb::Inference::Stub> stub = pb::Inference::NewStub(*channel);

  grpc::ClientContext context;
  PrepareContext(context, options.channel.token, options.connect_timeout_ms);
  context.set_wait_for_ready(true);
  pb::ListModelsResponse models;
  const grpc::Status status =
      stub->ListModels(&context, pb::ListModelsRequest(), &models);
  if (!status.ok()) {
    return ToAbsl(status,
                  absl::StrCat("inference server ", options.channel.address,
                               ": ListModels"),
                  options.channel);
  }
  std::unique_ptr<RemoteEvaluator> evaluator(
      new RemoteEvaluator(options, std::move(stub)));
  if (models.models_size() > 0) {
    evaluator->generation_ = models.models(0).generation();
  }
  return evaluator;
}

RemoteEvaluator::RemoteEvaluator(const RemoteEvaluatorOptions& options,
                                 std::unique_ptr<pb::Inference::Stub> stub)
    : options_(options),
      stub_(std::move(stub)),
      queue_(options.max_batch_size, options.max_wait_us,
             "remote evaluator is shut down") {
  for (int i = 0; i < options_.max_rpcs_in_flight; ++i) {
    senders_.emplace_back([this] { Send(); });
  }
}

RemoteEvaluator::~RemoteEvaluator() { Shutdown(); }

absl::Status RemoteEvaluator::Evaluate(Game& game, Evaluation& out) {
  Request request;
  request.position = PositionOf(game);
  request.area = game.size() * game.size();
  request.out = &out;
  if (absl::Status s = queue_.Push(&request); !s.ok()) return s;
  request.done.WaitForNotification();
  return request.status;
}

absl::Status RemoteEvaluator::EvaluateBatch(
    absl::Span<Game* const> games, absl::Span<Evaluation* const> outs) {
  RENJU_CHECK(games.size() == outs.size())
      << games.size() << " games, " << outs.size() << " outputs";
  const size_t n = games.size();
  // Requests hold a Notification and cannot move: one array per call.
  std::unique_ptr<Request[]> requests(new Request[n]);
  std::vector<PendingEvaluation*> pending(n);
  for (size_t i = 0; i < n; ++i) {
    requests[i].position = PositionOf(*games[i]);
    requests[i].area = games[i]->size() * games[i]->size();
    requests[i].out = outs[i];
    pending[i] = &requests[i];
  }
  if (absl::Status s = queue_.PushBatch(pending); !s.ok()) return s;
  absl::Status status;
  // Every request must be answered before `requests` goes, error or not.
  for (size_t i = 0; i < n; ++i) {
    requests[i].done.WaitForNotification();
    status.Update(requests[i].status);
  }
  return status;
}

void RemoteEvaluator::Shutdown() {
  queue_.Close();
  std::lock_guard<std::mutex> lock(join_mutex_);
  for (std::thread& sender : senders_) {
    if (sender.joinable()) sender.join();
  }
}

RemoteEvaluatorStats RemoteEvaluator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void RemoteEvaluator::Send() {
  std::vector<PendingEvaluation*> batch;
  batch.reserve(options_.max_batch_size);
  while (queue_.TakeBatch(batch)) RunBatch(batch);
}

void RemoteEvaluator::RunBatch(const std::vector<PendingEvaluation*>& batch) {
  pb::EvaluateRequest rpc_request;
  for (PendingEvaluation* pending : batch) {
    *rpc_request.add_positions() =
        std::move(static_cast<Request*>(pending)->position);
  }
  grpc::ClientContext context;
  PrepareContext(context, options_.channel.token, options_.rpc_deadline_ms);
  context.set_wait_for_ready(true);
  pb::EvaluateResponse response;
  absl::Status status = ToAbsl(
      stub_->Evaluate(&context, rpc_request, &response),
      absl::StrCat("inference server ", options_.channel.address, ": Evaluate"),
      options_.channel);
  if (status.ok() &&
      response.evaluations_size() != static_cast<int>(batch.size())) {
    status = absl::InternalError(
        absl::StrCat("inference server answered ", response.evaluations_size(),
                     " evaluations for ", batch.size(), " positions"));
  }
  if (status.ok()) generation_ = response.model_generation();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.rpcs;
    stats_.positions += batch.size();
    stats_.failed_rpcs += !status.ok();
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    Request& request = *static_cast<Request*>(batch[i]);
    request.status =
        status.ok() ? CopyAnswer(response.evaluations(i), request) : status;
    request.done.Notify();  // `request` may be gone after this
  }
}

absl::Status RemoteEvaluator::CopyAnswer(const pb::PositionEvaluation& answer,
                                         Request& request) const {
  if (answer.policy_size() != request.area) {
    return absl::InternalError(
        absl::StrCat("inference server sent ", answer.policy_size(),
                     " priors for a board of ", request.area, " points"));
  }
  for (float v : {answer.win(), answer.draw(), answer.loss()}) {
    if (!(v >= 0 && v <= 1)) {
      return absl::InternalError(
          absl::StrCat("inference server sent the value ", v, ", not in 0..1"));
    }
  }
  Evaluation& out = *request.out;
  out.policy.assign(answer.policy().begin(), answer.policy().end());
  out.win = answer.win();
  out.draw = answer.draw();
  out.loss = answer.loss();
  return absl::OkStatus();
}

}  // namespace renju
