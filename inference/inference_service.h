// The inference server's gRPC service (`renju serve`, proto/inference.proto):
//   Suggest:    MoveSuggester::Suggest (move_suggester.h) behind the bearer
//               token, the client's deadline and its cancellation;
//   Evaluate:   a batch of positions -> masked priors and win/draw/loss, no
//               search (for self-play workers that borrow the network);
//   ListModels: the model being served, then the trainer's registry.
//
// Every request, whichever client sends it, evaluates through the one
// served model's EvaluatorStack (network + batched evaluator + cache and
// symmetry wrappers), so concurrent searches and Evaluate batches fill the
// same network batches. ModelUpdater polls the trainer's GetCurrentModel,
// fetches a new best model (SHA-256 checked by TrainerClient::FetchModel),
// loads it and swaps it in; requests in flight finish on the old one.
//
// Every request is checked before any work: a bad position, budget or size
// gets INVALID_ARGUMENT with the reason and nothing else happens. A Suggest
// ends its search before the client's deadline (with a margin for the reply)
// and answers with the best move found so far.
#ifndef RENJU_INFERENCE_INFERENCE_SERVICE_H_
#define RENJU_INFERENCE_INFERENCE_SERVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "base/notification.h"
#include "inference/move_suggester.h"
#include "inference/served_model.h"
#include "proto/config.pb.h"
#include "proto/inference.grpc.pb.h"
#include "rpc/trainer_client.h"

namespace renju {

struct InferenceServiceOptions {
  // When set, every call must carry "authorization: Bearer <token>".
  std::string token;
  // Seeds the searches' randomness (request n uses stream n).
  uint64_t seed = 1;
  // Suggest's latency and errors, when set (MoveSuggester).
  SuggestMetrics suggest_metrics;
};

// The key a Suggest counts under in server.max_searches_per_client: the
// bearer token, else the peer's address without its port.
std::string SuggestClientKey(const grpc::ServerContext& context);

class InferenceService final : public pb::Inference::Service {
 public:
  // `config` must be valid (ValidateRunConfig); its `server` part sets the
  // search, the evaluator and the request limits. `trainer` (not owned, may
  // be null, must outlive the service) adds the registry to ListModels.
  InferenceService(const pb::RunConfig& config,
                   std::shared_ptr<const ServedModel> model,
                   TrainerClient* trainer,
                   const InferenceServiceOptions& options);
  ~InferenceService() override;

  // Serves `model` from now on; requests already running finish on the old
  // one, which is freed when the last of them ends. Thread-safe.
  void SwapModel(std::shared_ptr<const ServedModel> model);
  std::shared_ptr<const ServedModel> model() const;
  // The suggestions Suggest answers, for the HTTP side (http_frontend.h).
  MoveSuggester& suggester() { return suggester_; }

  grpc::Status Suggest(grpc::ServerContext* context,
                       const pb::SuggestRequest* request,
                       pb::SuggestResponse* response) override;
  grpc::Status Evaluate(grpc::ServerContext* context,
                        const pb::EvaluateRequest* request,
                        pb::EvaluateResponse* response) override;
  grpc::Status ListModels(grpc::ServerContext* context,
                          const pb::ListModelsRequest* request,
                          pb::ListModelsResponse* response) override;

  // The largest request the server should accept, in bytes, for
  // ServerBuilder::SetMaxReceiveMessageSize: room for max_evaluate_positions
  // full boards.
  int MaxRequestBytes() const;

 private:
  class TaskPool;

  grpc::Status CheckToken(const grpc::ServerContext& context) const;
  grpc::Status RunEvaluate(const pb::EvaluateRequest& request,
                           const ServedModel& model,
                           pb::EvaluateResponse& response);

  const pb::RunConfig config_;
  TrainerClient* const trainer_;
  const InferenceServiceOptions options_;
  // {options_.token: "client"} for CheckBearerToken; empty without a token.
  std::map<std::string, std::string> tokens_;
  std::unique_ptr<TaskPool> pool_;
  MoveSuggester suggester_;  // holds the served model
};

// Keeps the served model the trainer's current best.
class ModelUpdater {
 public:
  // `trainer` and `service` are not owned and must outlive the updater.
  // Fetched model files go to `model_dir` (created if missing).
  // Each new model's evaluator fills `metrics`' histograms when set.
  ModelUpdater(const pb::RunConfig& config, TrainerClient& trainer,
               InferenceService& service, std::string model_dir,
               const EvaluatorMetrics& metrics = {});
  // Stops the polling thread.
  ~ModelUpdater();

  // Swaps in the trainer's current best if it is not the one served. True
  // when it swapped. Errors: the trainer is unreachable, the download or the
  // checkpoint is bad; the served model is unchanged then.
  absl::StatusOr<bool> Update();

  // Calls Update every config.server().model_poll_seconds on a thread of
  // its own until Stop, logging failures. Call once.
  void Start();
  void Stop();

 private:
  const pb::RunConfig& config_;
  TrainerClient& trainer_;
  InferenceService& service_;
  const std::string model_dir_;
  const EvaluatorMetrics metrics_;
  Notification stop_;  // cuts the poller's sleep short
  std::thread poller_;
};

}  // namespace renju

#endif  // RENJU_INFERENCE_INFERENCE_SERVICE_H_
