// The inference server's gRPC service (`renju serve`, proto/inference.proto):
//   Suggest:    a position and a budget -> search (MCTS with the network,
//               several threads with virtual loss) -> best move, value,
//               principal variation, candidates; or an opening rule and
//               its actions so far -> the opening player's next action and
//               its values (inference/opening_suggestion.h);
//   Evaluate:   a batch of positions -> masked priors and win/draw/loss, no
//               search (for self-play workers that borrow the network);
//   ListModels: the model being served, then the trainer's registry.
//
// Moving parts:
//   - ServedModel: an EvaluatorStack (network + batched evaluator + cache and
//     symmetry wrappers) and its ModelInfo. Every request, whichever client
//     sends it, evaluates through the one served stack, so concurrent
//     searches and Evaluate batches fill the same network batches.
//   - Hot swap: SwapModel replaces the served model under a mutex. A request
//     takes its own reference at its start and keeps the old stack alive
//     until it finishes, so a swap never fails a request in flight.
//   - TreeCache (server.tree_cache_trees > 0): recent Suggest trees, so
//     that a request continuing an earlier position reuses its subtree.
//   - ModelUpdater polls the trainer's GetCurrentModel, fetches a new best
//     model (SHA-256 checked by TrainerClient::FetchModel), loads it and
//     swaps it in.
//
// Every request is checked before any work: a bad position, budget or size
// gets INVALID_ARGUMENT with the reason and nothing else happens. A Suggest
// ends its search before the client's deadline (with a margin for the reply)
// and answers with the best move found so far.
#ifndef RENJU_INFERENCE_INFERENCE_SERVICE_H_
#define RENJU_INFERENCE_INFERENCE_SERVICE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "base/notification.h"
#include "inference/request_limiter.h"
#include "inference/tree_cache.h"
#include "nn/evaluator_stack.h"
#include "proto/config.pb.h"
#include "proto/inference.grpc.pb.h"
#include "rpc/trainer_client.h"

namespace renju {

// A model ready to serve. Immutable once built; shared by the requests
// that use it.
struct ServedModel {
  std::unique_ptr<EvaluatorStack> stack;
  // The variants the network was trained for (from its checkpoint).
  std::vector<Variant> variants;
  // generation, training_step, sha256 and size_bytes of the file (empty
  // sha256 for a fresh network); status "serving".
  pb::ModelInfo info;
};

// Loads the checkpoint at `path` with config.server().evaluator(), or a
// fresh network of the config's shape seeded by `seed` when `path` is
// empty. The ModelInfo comes from the checkpoint's metadata and the file's
// SHA-256; `trainer_info`, when given, supplies the registry's fields.
absl::StatusOr<std::shared_ptr<const ServedModel>> LoadServedModel(
    const pb::RunConfig& config, const std::string& path, uint64_t seed,
    const pb::ModelInfo* trainer_info = nullptr);

struct InferenceServiceOptions {
  // When set, every call must carry "authorization: Bearer <token>".
  std::string token;
  // Seeds the searches' randomness (request n uses stream n).
  uint64_t seed = 1;
  // Shared with this process's HTTP frontend (HttpFrontendOptions): a call
  // carrying it in kFrontendSecretHeader is the frontend's, and counts
  // against the limits as the HTTP client named in kHttpClientHeader.
  // Empty: no call is taken for the frontend's.
  std::string frontend_secret;
};

// Metadata of the HTTP frontend's Suggest calls (see frontend_secret).
inline constexpr char kFrontendSecretHeader[] = "x-renju-frontend";
inline constexpr char kHttpClientHeader[] = "x-renju-http-client";

// The key a Suggest counts under in server.max_searches_per_client: the
// frontend's HTTP client's address, else the bearer token, else the peer's
// address without its port.
std::string SuggestClientKey(const grpc::ServerContext& context,
                             const std::string& frontend_secret);

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
  grpc::Status RunSuggest(grpc::ServerContext& context,
                          const pb::SuggestRequest& request,
                          const std::shared_ptr<const ServedModel>& model,
                          pb::SuggestResponse& response);
  grpc::Status RunEvaluate(const pb::EvaluateRequest& request,
                           const ServedModel& model,
                           pb::EvaluateResponse& response);

  const pb::RunConfig config_;
  TrainerClient* const trainer_;
  const InferenceServiceOptions options_;
  // {options_.token: "client"} for CheckBearerToken; empty without a token.
  std::map<std::string, std::string> tokens_;
  std::unique_ptr<TaskPool> pool_;
  std::unique_ptr<TreeCache> tree_cache_;  // null: tree reuse off
  RequestLimiter limiter_;                 // server.max_searches(_per_client)
  std::atomic<uint64_t> requests_{0};

  // std::mutex, which ThreadSanitizer sees, unlike Debian's uninstrumented
  // absl::Mutex (base/notification.h).
  mutable std::mutex mutex_;
  std::shared_ptr<const ServedModel> model_ ABSL_GUARDED_BY(mutex_);
};

// Downloads the generation `info` names from the trainer into `model_dir`
// (created if missing; the file is removed once loaded) and loads it.
absl::StatusOr<std::shared_ptr<const ServedModel>> FetchServedModel(
    const pb::RunConfig& config, TrainerClient& trainer,
    const pb::ModelInfo& info, const std::string& model_dir);

// Keeps the served model the trainer's current best.
class ModelUpdater {
 public:
  // `trainer` and `service` are not owned and must outlive the updater.
  // Fetched model files go to `model_dir` (created if missing).
  ModelUpdater(const pb::RunConfig& config, TrainerClient& trainer,
               InferenceService& service, std::string model_dir);
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
  Notification stop_;  // cuts the poller's sleep short
  std::thread poller_;
};

}  // namespace renju

#endif  // RENJU_INFERENCE_INFERENCE_SERVICE_H_
