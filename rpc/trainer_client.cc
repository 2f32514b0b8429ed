#include "rpc/trainer_client.h"

#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "rpc/sha256.h"

namespace renju {

absl::StatusOr<std::unique_ptr<TrainerClient>> TrainerClient::Create(
    const ChannelOptions& options, int64_t deadline_ms) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(options);
  if (!channel.ok()) return channel.status();
  return std::unique_ptr<TrainerClient>(
      new TrainerClient(*channel, options, deadline_ms));
}

TrainerClient::TrainerClient(std::shared_ptr<grpc::Channel> channel,
                             const ChannelOptions& options, int64_t deadline_ms)
    : stub_(pb::Trainer::NewStub(channel)),
      options_(options),
      token_(options.token),
      deadline_ms_(deadline_ms) {}

absl::StatusOr<std::vector<pb::GameAck>> TrainerClient::UploadGames(
    const std::string& worker_id, const std::vector<pb::GameRecord>& games) {
  pb::UploadGamesRequest request;
  request.set_worker_id(worker_id);
  for (const pb::GameRecord& g : games) *request.add_games() = g;
  pb::UploadGamesResponse response;
  grpc::ClientContext context;
  PrepareContext(context, token_, deadline_ms_);
  if (grpc::Status s = stub_->UploadGames(&context, request, &response);
      !s.ok()) {
    return ToAbsl(s, "UploadGames", options_);
  }
  if (response.acks_size() != request.games_size()) {
    return absl::InternalError(
        absl::StrCat("UploadGames: ", response.acks_size(), " acks for ",
                     request.games_size(), " games"));
  }
  return std::vector<pb::GameAck>(response.acks().begin(),
                                  response.acks().end());
}

absl::StatusOr<pb::ModelInfo> TrainerClient::GetCurrentModel() {
  pb::ModelInfo info;
  grpc::ClientContext context;
  PrepareContext(context, token_, deadline_ms_);
  if (grpc::Status s =
          stub_->GetCurrentModel(&context, pb::GetCurrentModelRequest(), &info);
      !s.ok()) {
    return ToAbsl(s, "GetCurrentModel", options_);
  }
  return info;
}

absl::StatusOr<std::vector<pb::ModelInfo>> TrainerClient::ListModels() {
  pb::ListModelsResponse response;
  grpc::ClientContext context;
  PrepareContext(context, token_, deadline_ms_);
  if (grpc::Status s =
          stub_->ListModels(&context, pb::ListModelsRequest(), &response);
      !s.ok()) {
    return ToAbsl(s, "ListModels", options_);
  }
  return std::vector<pb::ModelInfo>(response.models().begin(),
                                    response.models().end());
}

absl::StatusOr<pb::TrainerStatus> TrainerClient::GetStatus() {
  pb::TrainerStatus status;
  grpc::ClientContext context;
  PrepareContext(context, token_, deadline_ms_);
  if (grpc::Status s =
          stub_->GetStatus(&context, pb::GetStatusRequest(), &status);
      !s.ok()) {
    return ToAbsl(s, "GetStatus", options_);
  }
  return status;
}

absl::StatusOr<pb::ModelInfo> TrainerClient::FetchModel(
    int64_t generation, const std::string& path) {
  pb::FetchModelRequest request;
  request.set_generation(generation);
  grpc::ClientContext context;
  // Model files take longer than a plain call.
  PrepareContext(context, token_, 10 * deadline_ms_);
  std::unique_ptr<grpc::ClientReader<pb::ModelChunk>> reader =
      stub_->FetchModel(&context, request);
  pb::ModelChunk chunk;
  pb::ModelInfo info;
  std::string bytes;
  bool first = true;
  while (reader->Read(&chunk)) {
    if (first) {
      if (!chunk.has_info()) {
        return absl::DataLossError("FetchModel: first chunk has no model info");
      }
      info = chunk.info();
      first = false;
    }
    if (chunk.offset() != static_cast<int64_t>(bytes.size())) {
      return absl::DataLossError(absl::StrCat("FetchModel: chunk at offset ",
                                              chunk.offset(), ", expected ",
                                              bytes.size()));
    }
    bytes += chunk.data();
  }
  if (grpc::Status s = reader->Finish(); !s.ok())
    return ToAbsl(s, "FetchModel", options_);
  if (first) return absl::DataLossError("FetchModel: empty stream");
  if (static_cast<int64_t>(bytes.size()) != info.size_bytes()) {
    return absl::DataLossError(absl::StrCat(
        "FetchModel: generation ", info.generation(), " truncated: got ",
        bytes.size(), " of ", info.size_bytes(), " bytes"));
  }
  const std::string digest = Sha256Hex(bytes);
  if (digest != info.sha256()) {
    return absl::DataLossError(
        absl::StrCat("FetchModel: generation ", info.generation(),
                     " has sha256 ", digest, ", announced ", info.sha256()));
  }
  if (absl::Status s = WriteFileAtomically(path, bytes); !s.ok()) return s;
  return info;
}

}  // namespace renju
