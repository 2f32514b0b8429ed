#include "trainer/network_trainer.h"

#include <torch/cuda.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>
#include <torch/utils.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#ifdef __GLIBC__
#endif

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "nn/encoding.h"
#include "nn/network.h"
#include "nn/tensor_file.h"
#include "nn/torch_util.h"
#include "trainer/distributed.h"
#include "trainer/losses.h"

namespace renju {
namespace {

constexpr char kStateKind[] = "training-state";
constexpr int kStateFormat = 1;
constexpr char kModelPrefix[] = "model.";
constexpr char kAveragePrefix[] = "ema.";
constexpr char kOptimizerTensor[] = "optimizer.archive";

absl::Status ValidateOptions(const TrainingOptions& o) {
  auto bad = [](absl::string_view field, double value,
                absl::string_view range) {
    return absl::InvalidArgumentError(absl::StrCat(
        "training option ", field, " = ", value, " is outside ", range));
  };
  if (!(o.learning_rate > 0))
    return bad("learning_rate", o.learning_rate, "(0, inf)");
  if (o.warmup_steps < 0) return bad("warmup_steps", o.warmup_steps, "0..");
  if (!(o.lr_decay_factor > 0 && o.lr_decay_factor <= 1)) {
    return bad("lr_decay_factor", o.lr_decay_factor, "(0, 1]");
  }
  if (o.lr_decay_every_steps < 0) {
    return bad("lr_decay_every_steps", o.lr_decay_every_steps, "0..");
  }
  if (!(o.momentum >= 0 && o.momentum < 1))
    return bad("momentum", o.momentum, "[0, 1)");
  if (!(o.weight_decay >= 0))
    return bad("weight_decay", o.weight_decay, "[0, inf)");
  if (!(o.policy_loss_weight >= 0)) {
    return bad("policy_loss_weight", o.policy_loss_weight, "[0, inf)");
  }
  if (!(o.value_loss_weight >= 0)) {
    return bad("value_loss_weight", o.value_loss_weight, "[0, inf)");
  }
  if (!(o.opponent_policy_loss_weight >= 0)) {
    return bad("opponent_policy_loss_weight", o.opponent_policy_loss_weight,
               "[0, inf)");
  }
  if (!(o.short_value_loss_weight >= 0)) {
    return bad("short_value_loss_weight", o.short_value_loss_weight,
               "[0, inf)");
  }
  if (!(o.ema_decay >= 0 && o.ema_decay < 1)) {
    return bad("ema_decay", o.ema_decay, "[0, 1)");
  }
  return absl::OkStatus();
}

const char* OptimizerName(TrainingOptions::Optimizer o) {
  return o == TrainingOptions::Optimizer::kSgd ? "sgd" : "adamw";
}

// Conv and linear weights are decayed; biases and batch norm are not.
std::unique_ptr<torch::optim::Optimizer> MakeOptimizer(
    PolicyValueNetImpl& net, const TrainingOptions& o) {
  std::vector<torch::Tensor> decayed, plain;
  for (const torch::Tensor& p : net.parameters()) {
    (p.dim() > 1 ? decayed : plain).push_back(p);
  }
  const double lr = LearningRate(o, 0);
  if (o.optimizer == TrainingOptions::Optimizer::kSgd) {
    auto options = [&](double wd) {
      return torch::optim::SGDOptions(lr).momentum(o.momentum).weight_decay(wd);
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decayed, std::make_unique<torch::optim::SGDOptions>(
                                     options(o.weight_decay)));
    groups.emplace_back(plain,
                        std::make_unique<torch::optim::SGDOptions>(options(0)));
    return std::make_unique<torch::optim::SGD>(std::move(groups), options(0));
  }
  auto options = [&](double wd) {
    return torch::optim::AdamWOptions(lr).weight_decay(wd);
  };
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(decayed, std::make_unique<torch::optim::AdamWOptions>(
                                   options(o.weight_decay)));
  groups.emplace_back(plain,
                      std::make_unique<torch::optim::AdamWOptions>(options(0)));
  return std::make_unique<torch::optim::AdamW>(std::move(groups), options(0));
}

// Parameters, then buffers: the tensors the average follows, in an order
// two nets of one config share.
std::vector<torch::Tensor> AllTensors(PolicyValueNetImpl& net) {
  std::vector<torch::Tensor> out = net.parameters();
  for (const torch::Tensor& b : net.buffers()) out.push_back(b);
  return out;
}

// average = d * average + (1 - d) * live for floating-point tensors; the
// integer ones (batch norm's step counters) are copied.
void UpdateAverage(const std::vector<torch::Tensor>& live,
                   std::vector<torch::Tensor>& average, double d) {
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < live.size(); ++i) {
    if (average[i].is_floating_point()) {
      average[i].mul_(d).add_(live[i], 1 - d);
    } else {
      average[i].copy_(live[i]);
    }
  }
}

std::vector<torch::Tensor> BatchNormStatistics(PolicyValueNetImpl& net) {
  std::vector<torch::Tensor> out;
  for (const torch::Tensor& b : net.buffers()) {
    if (b.is_floating_point()) out.push_back(b);
  }
  return out;
}

// Bytes carried in an int64 tensor (tensor files have no byte dtype); the
// exact length goes in the metadata.
TensorRecord BytesRecord(const std::string& name, const std::string& bytes) {
  TensorRecord record;
  record.name = name;
  record.dtype = TensorDtype::kInt64;
  record.shape = {static_cast<int64_t>((bytes.size() + 7) / 8)};
  record.data = bytes;
  record.data.resize(record.shape[0] * 8, '\0');
  return record;
}

// Sums this rank's gradients, batch-norm running statistics and `sums`
// over the ranks in one all-reduce, then divides the gradients and the
// statistics by the number of ranks. Every rank then takes the same step;
// the batch statistics inside batch norm stay per rank, as in PyTorch's
// DistributedDataParallel without SyncBatchNorm.
absl::Status AverageOverRanks(DataParallelGroup& group,
                              std::vector<torch::Tensor>& parameters,
                              std::vector<torch::Tensor>& batch_norm_statistics,
                              torch::Tensor& sums) {
  std::vector<torch::Tensor> grads;
  for (torch::Tensor& p : parameters) {
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    grads.push_back(p.grad());
  }
  std::vector<torch::Tensor> pieces;
  for (const torch::Tensor& g : grads) pieces.push_back(g.reshape(-1));
  for (const torch::Tensor& b : batch_norm_statistics) {
    pieces.push_back(b.reshape(-1));
  }
  pieces.push_back(sums.to(torch::kFloat32));
  torch::Tensor flat = torch::cat(pieces);
  if (absl::Status s = group.AllReduceSum(flat); !s.ok()) return s;

  const double ranks = group.world_size();
  int64_t offset = 0;
  auto take = [&](torch::Tensor& target, double scale) {
    const int64_t count = target.numel();
    target.copy_(flat.narrow(0, offset, count).view(target.sizes()) / scale);
    offset += count;
  };
  for (torch::Tensor& g : grads) take(g, ranks);
  for (torch::Tensor& b : batch_norm_statistics) take(b, ranks);
  sums = flat.narrow(0, offset, losses::kNumStats).clone();
  return absl::OkStatus();
}

absl::Status TrainingStateError(const std::string& path,
                                absl::string_view what) {
  return absl::FailedPreconditionError(
      absl::StrCat("training state ", path, ": ", what));
}

// A training state's metadata as SaveState writes it, and the keys its
// caller added (`extra`).
struct TrainingStateMetadata {
  int64_t step = -1, optimizer_bytes = -1;
  // States written before the key existed are all version 1.
  std::string format, network, optimizer, encoding_version = "1";
  std::vector<std::pair<std::string, std::string>> extra;
};

TrainingStateMetadata ReadTrainingStateMetadata(
    const std::vector<std::pair<std::string, std::string>>& metadata) {
  TrainingStateMetadata m;
  for (const auto& [key, value] : metadata) {
    if (key == "format") {
      m.format = value;
    } else if (key == "network") {
      m.network = value;
    } else if (key == "encoding_version") {
      m.encoding_version = value;
    } else if (key == "optimizer") {
      m.optimizer = value;
    } else if (key == "step") {
      if (!absl::SimpleAtoi(value, &m.step) || m.step < 0) m.step = -1;
    } else if (key == "optimizer_bytes") {
      if (!absl::SimpleAtoi(value, &m.optimizer_bytes)) m.optimizer_bytes = -1;
    } else {
      m.extra.emplace_back(key, value);
    }
  }
  return m;
}

// Whether the state at `path` was saved by a trainer of this network and
// optimizer.
absl::Status CheckTrainingStateMetadata(const TrainingStateMetadata& m,
                                        const NetworkConfig& config,
                                        TrainingOptions::Optimizer optimizer,
                                        const std::string& path) {
  if (m.format != absl::StrCat(kStateFormat)) {
    return TrainingStateError(
        path, absl::StrCat("format '", m.format, "', expected ", kStateFormat));
  }
  if (m.encoding_version != absl::StrCat(config.encoding_version)) {
    return TrainingStateError(
        path,
        absl::StrCat("input encoding version ", m.encoding_version,
                     ", the network config expects ", config.encoding_version));
  }
  if (m.network != config.DebugString()) {
    return TrainingStateError(path,
                              absl::StrCat("network ", m.network, ", expected ",
                                           config.DebugString()));
  }
  if (m.optimizer != OptimizerName(optimizer)) {
    return TrainingStateError(
        path, absl::StrCat("optimizer '", m.optimizer, "', the config says '",
                           OptimizerName(optimizer), "'"));
  }
  if (m.step < 0) return TrainingStateError(path, "missing or bad step");
  return absl::OkStatus();
}

// A training state's tensors by their name's prefix (which they lose), and
// its optimizer archive, still in the file's tensors.
struct TrainingStateTensors {
  std::vector<TensorRecord> model, average;
  const TensorRecord* archive = nullptr;
};

absl::StatusOr<TrainingStateTensors> SplitTrainingStateTensors(
    std::vector<TensorRecord>& tensors, int64_t optimizer_bytes,
    const std::string& path) {
  TrainingStateTensors split;
  for (TensorRecord& t : tensors) {
    if (t.name == kOptimizerTensor) {
      split.archive = &t;
    } else if (t.name.rfind(kModelPrefix, 0) == 0) {
      t.name = t.name.substr(std::strlen(kModelPrefix));
      split.model.push_back(std::move(t));
    } else if (t.name.rfind(kAveragePrefix, 0) == 0) {
      t.name = t.name.substr(std::strlen(kAveragePrefix));
      split.average.push_back(std::move(t));
    } else {
      return TrainingStateError(path,
                                absl::StrCat("unexpected tensor ", t.name));
    }
  }
  if (split.archive == nullptr || optimizer_bytes < 0 ||
      optimizer_bytes > static_cast<int64_t>(split.archive->data.size())) {
    return TrainingStateError(path, "missing or bad optimizer state");
  }
  return split;
}

}  // namespace

double LearningRate(const TrainingOptions& options, int64_t step) {
  double lr = options.learning_rate;
  if (step < options.warmup_steps) {
    lr *= static_cast<double>(step + 1) / options.warmup_steps;
  }
  if (options.lr_decay_every_steps > 0) {
    lr *= std::pow(options.lr_decay_factor,
                   static_cast<double>(step / options.lr_decay_every_steps));
  }
  return lr;
}

struct NetworkTrainer::Impl {
  PolicyValueNet net{nullptr};
  torch::Device device{torch::kCPU};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::vector<torch::Tensor> parameters;
  std::vector<torch::Tensor> batch_norm_statistics;
  // With ema_decay > 0: the averaged copy, and both nets' AllTensors.
  PolicyValueNet average{nullptr};
  std::vector<torch::Tensor> live_tensors;
  std::vector<torch::Tensor> average_tensors;
};

NetworkTrainer::NetworkTrainer(NetworkConfig config, TrainingOptions options,
                               DataParallelGroup* group)
    : config_(std::move(config)),
      options_(std::move(options)),
      group_(group),
      impl_(std::make_unique<Impl>()) {}

NetworkTrainer::~NetworkTrainer() = default;

PolicyValueNetImpl& NetworkTrainer::network() { return *impl_->net; }

PolicyValueNetImpl& NetworkTrainer::published_network() const {
  return impl_->average ? *impl_->average : *impl_->net;
}

absl::StatusOr<std::unique_ptr<NetworkTrainer>> NetworkTrainer::Create(
    const NetworkConfig& config, const TrainingOptions& options, uint64_t seed,
    DataParallelGroup* group) {
  if (absl::Status s = config.Validate(); !s.ok()) return s;
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  absl::StatusOr<torch::Device> device =
      ParseTorchDevice(options.device, "trainer device");
  if (!device.ok()) return device.status();
  if (device->is_cpu()) KeepActivationsInHeap();
  std::unique_ptr<NetworkTrainer> trainer(
      new NetworkTrainer(config, options, group));
  Impl& impl = *trainer->impl_;
  absl::Status status = TorchGuarded("creating the network to train", [&] {
    // The initial weights come from LibTorch's global generator; two
    // trainers built at once (ranks on threads) must not interleave draws.
    static absl::Mutex generator_mutex(absl::kConstInit);
    absl::MutexLock lock(&generator_mutex);
    torch::manual_seed(seed);
    impl.device = *device;
    impl.net = PolicyValueNet(config);
    impl.net->train();
    impl.net->to(impl.device);
    impl.parameters = impl.net->parameters();
    impl.batch_norm_statistics = BatchNormStatistics(*impl.net);
    impl.optimizer = MakeOptimizer(*impl.net, options);
    if (options.ema_decay > 0) {
      // Built after the live net, so its weights are drawn as without it;
      // they are overwritten by the live ones below.
      impl.average = PolicyValueNet(config);
      impl.average->to(impl.device);
      impl.live_tensors = AllTensors(*impl.net);
      impl.average_tensors = AllTensors(*impl.average);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (group != nullptr) {
    // Equal seeds give equal weights already; broadcasting rank 0's makes
    // that a guarantee rather than an assumption.
    torch::NoGradGuard no_grad;
    for (torch::Tensor& t : impl.net->parameters()) {
      if (absl::Status s = group->Broadcast(t); !s.ok()) return s;
    }
    for (torch::Tensor& t : impl.net->buffers()) {
      if (absl::Status s = group->Broadcast(t); !s.ok()) return s;
    }
  }
  // The average starts at the (broadcast) initial weights.
  UpdateAverage(impl.live_tensors, impl.average_tensors, 0);
  return trainer;
}

absl::StatusOr<StepStats> NetworkTrainer::Step(const TrainingBatch& batch) {
  if (batch.board_size != config_.board_size || batch.size < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "training batch of ", batch.size, " positions on a ", batch.board_size,
        "x", batch.board_size, " board; the network needs >= 1 on ",
        config_.board_size, "x", config_.board_size));
  }
  if (batch.encoding_version != config_.encoding_version) {
    return absl::InvalidArgumentError(absl::StrCat(
        "training batch in input encoding version ", batch.encoding_version,
        "; the network reads version ", config_.encoding_version));
  }
  if (batch.has_aux_targets() != config_.aux_heads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "training batch ", batch.has_aux_targets() ? "with" : "without",
        " auxiliary targets for a network ",
        config_.aux_heads ? "with" : "without", " aux heads"));
  }
  const double lr = LearningRate(options_, step_);
  torch::Tensor sums;
  absl::Status status = TorchGuarded("training step", [&] {
    Impl& impl = *impl_;
    const losses::BatchTensors b = losses::ToTensors(batch, impl.device);
    for (auto& group : impl.optimizer->param_groups()) {
      group.options().set_lr(lr);
    }
    impl.optimizer->zero_grad();
    const NetworkOutputs out = impl.net->ForwardWithAux(b.x);
    torch::Tensor loss;
    losses::ComputeLosses(out, b, options_, loss, sums);
    loss.backward();
    if (group_ != nullptr) {
      torch::NoGradGuard no_grad;
      if (absl::Status s = AverageOverRanks(*group_, impl.parameters,
                                            impl.batch_norm_statistics, sums);
          !s.ok()) {
        return s;
      }
    }
    impl.optimizer->step();
    if (impl.average) {
      const double t = static_cast<double>(step_);
      UpdateAverage(impl.live_tensors, impl.average_tensors,
                    std::min(options_.ema_decay, (1 + t) / (10 + t)));
    }
    sums = sums.to(torch::kCPU, torch::kFloat64);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  ++step_;
  return losses::Summarize(sums.data_ptr<double>(), options_, step_, lr);
}

absl::Status NetworkTrainer::SaveState(
    const std::string& path,
    const std::vector<std::pair<std::string, std::string>>& extra) const {
  TensorFile file;
  file.kind = kStateKind;
  std::string archive_bytes;
  absl::Status status = TorchGuarded("saving the training state", [&] {
    torch::serialize::OutputArchive archive;
    impl_->optimizer->save(archive);
    std::ostringstream out;
    archive.save_to(out);
    archive_bytes = out.str();
    for (TensorRecord& t : ExportTensors(*impl_->net)) {
      t.name = kModelPrefix + t.name;
      file.tensors.push_back(std::move(t));
    }
    if (impl_->average) {
      for (TensorRecord& t : ExportTensors(*impl_->average)) {
        t.name = kAveragePrefix + t.name;
        file.tensors.push_back(std::move(t));
      }
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  file.tensors.push_back(BytesRecord(kOptimizerTensor, archive_bytes));
  file.metadata = {
      {"format", absl::StrCat(kStateFormat)},
      {"network", config_.DebugString()},
      {"encoding_version", absl::StrCat(config_.encoding_version)},
      {"optimizer", OptimizerName(options_.optimizer)},
      {"step", absl::StrCat(step_)},
      {"optimizer_bytes", absl::StrCat(archive_bytes.size())},
  };
  absl::flat_hash_set<std::string> keys = {"kind"};
  for (const auto& [key, value] : file.metadata) keys.insert(key);
  for (const auto& [key, value] : extra) {
    if (!keys.insert(key).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "training state key '", key, "' is reserved or repeated"));
    }
    file.metadata.emplace_back(key, value);
  }
  return WriteTensorFile(path, file);
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
NetworkTrainer::LoadState(const std::string& path) {
  absl::StatusOr<TensorFile> file = ReadTensorFile(path);
  if (!file.ok()) return file.status();
  if (file->kind != kStateKind) {
    return TrainingStateError(
        path,
        absl::StrCat("kind '", file->kind, "', expected '", kStateKind, "'"));
  }
  TrainingStateMetadata metadata = ReadTrainingStateMetadata(file->metadata);
  if (absl::Status s = CheckTrainingStateMetadata(metadata, config_,
                                                  options_.optimizer, path);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<TrainingStateTensors> tensors =
      SplitTrainingStateTensors(file->tensors, metadata.optimizer_bytes, path);
  if (!tensors.ok()) return tensors.status();
  const std::vector<TensorRecord>& model = tensors->model;
  const std::vector<TensorRecord>& average = tensors->average;
  const TensorRecord* archive = tensors->archive;
  const int64_t optimizer_bytes = metadata.optimizer_bytes;
  absl::Status status =
      TorchGuarded(absl::StrCat("training state ", path), [&] {
        if (absl::Status s = ImportTensors(
                model, absl::StrCat("training state ", path), *impl_->net);
            !s.ok()) {
          return s;
        }
        torch::serialize::InputArchive input;
        input.load_from(archive->data.data(), optimizer_bytes, impl_->device);
        impl_->optimizer->load(input);
        if (!impl_->average) return absl::OkStatus();
        if (average.empty()) {
          UpdateAverage(impl_->live_tensors, impl_->average_tensors, 0);
          return absl::OkStatus();
        }
        return ImportTensors(
            average, absl::StrCat("training state ", path, " (average)"),
            *impl_->average);
      });
  if (!status.ok()) return status;
  step_ = metadata.step;
  return std::move(metadata.extra);
}

absl::StatusOr<std::string> NetworkTrainer::ExportModel(
    const std::string& path, CheckpointInfo info) const {
  info.config = config_;
  std::vector<TensorRecord> tensors;
  absl::Status status = TorchGuarded("exporting the network", [&] {
    tensors = ExportTensors(published_network());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return WriteCheckpoint(path, info, std::move(tensors));
}

}  // namespace renju
