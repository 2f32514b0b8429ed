#include "inference/inference_service.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/logging.h"
#include "rpc/bearer_token.h"
#include "rpc/rpc.h"

namespace renju {
namespace {

grpc::Status InvalidRequest(absl::string_view what) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(what));
}

std::string PrefixedMessage(absl::string_view prefix,
                            const absl::Status& status) {
  return absl::StrCat(prefix, status.message());
}

// The client's deadline; InfiniteFuture when it set none.
absl::Time DeadlineOf(const grpc::ServerContext& context) {
  const std::chrono::system_clock::time_point deadline = context.deadline();
  if (deadline == std::chrono::system_clock::time_point::max()) {
    return absl::InfiniteFuture();
  }
  return absl::FromChrono(deadline);
}

}  // namespace

// Threads that run Evaluate's positions concurrently, so that one request's
// positions reach the batched evaluator together and fill its batches.
// Standard primitives, not Abseil's, so that ThreadSanitizer sees them.
class InferenceService::TaskPool {
 public:
  explicit TaskPool(int threads) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~TaskPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    task_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs fn(0) .. fn(n - 1) on the pool; returns when all have returned.
  void Run(int n, const std::function<void(int)>& fn) {
    if (n <= 0) return;
    std::atomic<int> remaining{n};
    Notification done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int i = 0; i < n; ++i) {
        tasks_.push_back([&fn, &remaining, &done, i] {
          fn(i);
          if (remaining.fetch_sub(1) == 1) done.Notify();
        });
      }
    }
    // One wake-up per task, not one for every idle thread.
    const int wake = std::min<int>(n, threads_.size());
    for (int i = 0; i < wake; ++i) task_cv_.notify_one();
    done.WaitForNotification();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        task_cv_.wait(lock, [this] { return closed_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // closed
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable task_cv_;  // a task was queued, or closed
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mutex_);
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
};

InferenceService::InferenceService(const pb::RunConfig& config,
                                   std::shared_ptr<const ServedModel> model,
                                   TrainerClient* trainer,
                                   const InferenceServiceOptions& options)
    : config_(config),
      trainer_(trainer),
      options_(options),
      suggester_(config, std::move(model), options.seed,
                 options.suggest_metrics) {
  if (!options_.token.empty()) tokens_[options_.token] = "client";
  const pb::EvaluatorConfig& evaluator = config_.server().evaluator();
  pool_ = std::make_unique<TaskPool>(
      std::min(256, evaluator.max_batch_size() * evaluator.server_threads()));
}

InferenceService::~InferenceService() = default;

void InferenceService::SwapModel(std::shared_ptr<const ServedModel> model) {
  suggester_.SwapModel(std::move(model));
}

std::shared_ptr<const ServedModel> InferenceService::model() const {
  return suggester_.model();
}

int InferenceService::MaxRequestBytes() const {
  // A move is at most 10 bytes on the wire (a pass, -1, as a varint) plus a
  // tag; a position holds at most two moves per point.
  const int area = config_.board_size() * config_.board_size();
  return 65536 + config_.server().max_evaluate_positions() * (64 + 24 * area);
}

std::string SuggestClientKey(const grpc::ServerContext& context) {
  const auto& metadata = context.client_metadata();
  if (auto token = metadata.find("authorization"); token != metadata.end()) {
    return absl::StrCat("token:", absl::string_view(token->second.data(),
                                                    token->second.size()));
  }
  // "ipv4:10.0.0.1:5000", "ipv6:[::1]:5000": one client per address.
  const std::string peer = context.peer();
  const size_t port = peer.rfind(':');
  const size_t scheme = peer.find(':');
  return absl::StrCat("peer:", port != std::string::npos && port > scheme
                                   ? peer.substr(0, port)
                                   : peer);
}

grpc::Status InferenceService::CheckToken(
    const grpc::ServerContext& context) const {
  if (tokens_.empty()) return grpc::Status::OK;
  std::string holder;
  return CheckBearerToken(context, tokens_, &holder);
}

grpc::Status InferenceService::Suggest(grpc::ServerContext* context,
                                       const pb::SuggestRequest* request,
                                       pb::SuggestResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  SuggestStop stop;
  stop.deadline = DeadlineOf(*context);
  stop.cancelled = [context] { return context->IsCancelled(); };
  absl::StatusOr<pb::SuggestResponse> suggestion =
      suggester_.Suggest(*request, SuggestClientKey(*context), stop);
  if (!suggestion.ok()) return ToGrpc(suggestion.status());
  *response = *std::move(suggestion);
  return grpc::Status::OK;
}

grpc::Status InferenceService::Evaluate(grpc::ServerContext* context,
                                        const pb::EvaluateRequest* request,
                                        pb::EvaluateResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  const std::shared_ptr<const ServedModel> model = this->model();
  return RunEvaluate(*request, *model, *response);
}

grpc::Status InferenceService::RunEvaluate(const pb::EvaluateRequest& request,
                                           const ServedModel& model,
                                           pb::EvaluateResponse& response) {
  const int n = request.positions_size();
  const int max = config_.server().max_evaluate_positions();
  if (n < 1 || n > max) {
    return InvalidRequest(
        absl::StrCat("the request has ", n, " positions; expected 1..", max));
  }
  std::vector<Game> games;
  games.reserve(n);
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<Game> game =
        ParseServedPosition(request.positions(i), model);
    if (!game.ok()) {
      return InvalidRequest(
          PrefixedMessage(absl::StrCat("positions[", i, "]: "), game.status()));
    }
    games.push_back(*std::move(game));
  }
  std::vector<Evaluation> evaluations(n);
  std::vector<absl::Status> statuses(n);
  pool_->Run(n, [&](int i) {
    statuses[i] = model.stack->evaluator().Evaluate(games[i], evaluations[i]);
  });
  for (int i = 0; i < n; ++i) {
    if (!statuses[i].ok()) {
      return grpc::Status(
          static_cast<grpc::StatusCode>(statuses[i].code()),
          PrefixedMessage(absl::StrCat("positions[", i, "]: "), statuses[i]));
    }
    pb::PositionEvaluation* out = response.add_evaluations();
    out->mutable_policy()->Assign(evaluations[i].policy.begin(),
                                  evaluations[i].policy.end());
    out->set_win(evaluations[i].win);
    out->set_draw(evaluations[i].draw);
    out->set_loss(evaluations[i].loss);
  }
  response.set_model_generation(model.info.generation());
  return grpc::Status::OK;
}

grpc::Status InferenceService::ListModels(grpc::ServerContext* context,
                                          const pb::ListModelsRequest* request,
                                          pb::ListModelsResponse* response) {
  if (grpc::Status s = CheckToken(*context); !s.ok()) return s;
  *response->add_models() = model()->info;
  if (trainer_ == nullptr) return grpc::Status::OK;
  absl::StatusOr<std::vector<pb::ModelInfo>> registry = trainer_->ListModels();
  if (!registry.ok()) {
    // The served model is still worth telling; the registry is extra.
    RENJU_LOG(WARNING) << "ListModels: the trainer's registry: "
                       << registry.status();
    return grpc::Status::OK;
  }
  for (pb::ModelInfo& info : *registry)
    *response->add_models() = std::move(info);
  return grpc::Status::OK;
}

}  // namespace renju
