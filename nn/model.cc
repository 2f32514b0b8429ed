#include "nn/model.h"

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/cuda.h>
#include <torch/utils.h>

#include <cstring>

#ifdef __GLIBC__
#endif

#include "absl/strings/str_cat.h"
#include "nn/encoding.h"
#include "nn/network.h"
#include "nn/torch_util.h"

namespace renju {
namespace {

// The precision a model on `device` computes in: kAuto resolved, and the
// combinations that do not run (or run slower than float32) refused.
absl::StatusOr<Precision> ResolvePrecision(Precision precision,
                                           const torch::Device& device,
                                           bool fold_batch_norm) {
  if (precision == Precision::kAuto) {
    return device.is_cpu() && NativeBf16OnCpu() && fold_batch_norm
               ? Precision::kBFloat16
               : Precision::kFloat32;
  }
  if (precision == Precision::kFloat32 || device.is_cuda()) return precision;
  if (precision == Precision::kFloat16) {
    return absl::InvalidArgumentError(
        "fp16 precision needs a CUDA device; use fp32 or bf16 on CPU");
  }
  if (!NativeBf16OnCpu()) {
    return absl::InvalidArgumentError(
        "bf16 precision on CPU needs a CPU with native bf16 (AVX512-BF16), "
        "which this one lacks (emulated it is slower than fp32); use fp32");
  }
  if (!fold_batch_norm) {
    return absl::InvalidArgumentError(
        "bf16 precision on CPU runs the folded play network only; the "
        "network as trained (fold_batch_norm false) runs in fp32");
  }
  return precision;
}

torch::ScalarType ToScalarType(Precision precision) {
  return precision == Precision::kFloat16    ? torch::kFloat16
         : precision == Precision::kBFloat16 ? torch::kBFloat16
                                             : torch::kFloat32;
}

// Moves the net to its device and precision, with conv weights in
// channels-last layout: oneDNN on CPU (and cuDNN's tensor cores on GPU) run
// convs on NHWC without reordering around every layer; on the development
// machine's CPU that made forwards 5-18% faster.
// Module::to(dtype) would also turn batch norm's int64 step counters into
// floats, which would then not match a float32 net's; only floating-point
// tensors change type.
void MoveNet(PolicyValueNetImpl& net, const torch::Device& device,
             torch::ScalarType dtype) {
  net.to(device);
  torch::NoGradGuard no_grad;
  for (torch::Tensor& t : net.parameters()) {
    if (t.dim() == 4)
      t.set_data(t.contiguous(torch::MemoryFormat::ChannelsLast));
    if (dtype != torch::kFloat32) t.set_data(t.to(dtype));
  }
  for (torch::Tensor& t : net.buffers()) {
    if (t.is_floating_point() && dtype != torch::kFloat32) {
      t.set_data(t.to(dtype));
    }
  }
}

}  // namespace

struct Model::Impl {
  PolicyValueNet net;
  torch::Device device;
  Precision precision;      // resolved: never kAuto
  torch::ScalarType dtype;  // net's weights
  // The folded network's weights and the inputs it gets. On a CPU in bf16
  // only the folded network is in bf16 (folded from float32 weights); the
  // module stays float32 for exporting and cloning.
  torch::ScalarType play_dtype;
  bool fold_batch_norm = true;
  // Built by the first Forward: by then the weights are final (Load and
  // Clone import them before handing the model out).
  std::unique_ptr<InferenceNet> folded;
};

Model::Model(std::unique_ptr<Impl> impl, CheckpointInfo info)
    : impl_(std::move(impl)), info_(std::move(info)) {}

Model::~Model() = default;

absl::StatusOr<std::unique_ptr<Model>> Model::Create(
    const NetworkConfig& config, const ModelOptions& options, uint64_t seed) {
  return Build(config, options, seed);
}

absl::StatusOr<std::unique_ptr<Model>> Model::Build(
    const NetworkConfig& config, const ModelOptions& options,
    std::optional<uint64_t> seed) {
  if (absl::Status s = config.Validate(); !s.ok()) return s;
  absl::StatusOr<torch::Device> device =
      ParseTorchDevice(options.device, "device");
  if (!device.ok()) return device.status();
  absl::StatusOr<Precision> precision =
      ResolvePrecision(options.precision, *device, options.fold_batch_norm);
  if (!precision.ok()) return precision.status();
  const torch::ScalarType play_dtype = ToScalarType(*precision);
  const torch::ScalarType dtype =
      device->is_cpu() ? torch::kFloat32 : play_dtype;
  if (device->is_cpu()) KeepActivationsInHeap();
  std::unique_ptr<Model> model;
  absl::Status status = TorchGuarded("creating the network", [&] {
    // Loading and cloning overwrite the weights: leave the generator alone.
    if (seed.has_value()) torch::manual_seed(*seed);
    auto impl = std::make_unique<Impl>(Impl{PolicyValueNet(config), *device,
                                            *precision, dtype, play_dtype,
                                            options.fold_batch_norm, nullptr});
    impl->net->eval();
    MoveNet(*impl->net, *device, dtype);
    CheckpointInfo info;
    info.config = config;
    model.reset(new Model(std::move(impl), std::move(info)));
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return model;
}

absl::StatusOr<std::unique_ptr<Model>> Model::Load(
    const std::string& path, const ModelOptions& options,
    const std::optional<NetworkConfig>& expected) {
  absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(path);
  if (!checkpoint.ok()) return checkpoint.status();
  const NetworkConfig& config = checkpoint->info.config;
  // Auxiliary heads are for training: a net plays the same with or
  // without them, so they are no difference here (the net is built with
  // them, to keep the checkpoint whole, and forward() never runs them).
  NetworkConfig playing = config;
  if (expected.has_value()) playing.aux_heads = expected->aux_heads;
  if (expected.has_value() && playing != *expected) {
    return absl::FailedPreconditionError(
        absl::StrCat("checkpoint ", path, ": architecture differs: ",
                     DescribeConfigDifference(config, *expected)));
  }
  absl::StatusOr<std::unique_ptr<Model>> model =
      Build(config, options, std::nullopt);
  if (!model.ok()) return model.status();
  absl::Status status = TorchGuarded(absl::StrCat("checkpoint ", path), [&] {
    return ImportTensors(checkpoint->tensors, absl::StrCat("checkpoint ", path),
                         *(*model)->impl_->net);
  });
  if (!status.ok()) return status;
  (*model)->info_ = checkpoint->info;
  (*model)->content_hash_ = checkpoint->content_hash;
  return model;
}

absl::StatusOr<std::unique_ptr<Model>> Model::Clone() const {
  ModelOptions options;
  options.device = impl_->device.str();
  options.precision = impl_->precision;
  options.fold_batch_norm = impl_->fold_batch_norm;
  absl::StatusOr<std::unique_ptr<Model>> clone =
      Build(config(), options, std::nullopt);
  if (!clone.ok()) return clone.status();
  absl::Status status = TorchGuarded("cloning the network", [&] {
    return ImportTensors(ExportTensors(*impl_->net), "clone",
                         *(*clone)->impl_->net);
  });
  if (!status.ok()) return status;
  (*clone)->info_ = info_;
  (*clone)->content_hash_ = content_hash_;
  return clone;
}

absl::Status Model::Save(const std::string& path) {
  std::vector<TensorRecord> tensors;
  absl::Status status = TorchGuarded("exporting the network", [&] {
    tensors = ExportTensors(*impl_->net);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  absl::StatusOr<std::string> hash =
      WriteCheckpoint(path, info_, std::move(tensors));
  if (!hash.ok()) return hash.status();
  content_hash_ = *hash;
  return absl::OkStatus();
}

absl::Status Model::Forward(const float* inputs, int batch,
                            float* policy_logits, float* wdl_logits) {
  if (batch < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("forward on a batch of ", batch));
  }
  return TorchGuarded("forward", [&] {
    c10::InferenceMode inference_mode;
    const int size = config().board_size;
    const int planes = NumInputPlanes(config().encoding_version);
    torch::Tensor x =
        torch::from_blob(const_cast<float*>(inputs),
                         {batch, planes, size, size}, torch::kFloat32);
    // LibTorch gives oneDNN only convs with batch > 1 (or large inputs);
    // a lone position would take the native im2col path, which with
    // Debian's reference BLAS is ~10x slower than two positions in oneDNN.
    if (batch == 1 && impl_->device.is_cpu()) {
      x = x.expand({2, planes, size, size});
    }
    // Unfolded, play_dtype is dtype (ResolvePrecision).
    if (impl_->device.is_cuda() || impl_->play_dtype != torch::kFloat32) {
      x = x.to(impl_->device, impl_->play_dtype);
    }
    x = x.contiguous(torch::MemoryFormat::ChannelsLast);
    torch::Tensor policy;
    torch::Tensor wdl;
    if (impl_->fold_batch_norm) {
      if (!impl_->folded) {
        impl_->folded =
            std::make_unique<InferenceNet>(*impl_->net, impl_->play_dtype);
      }
      std::tie(policy, wdl) = impl_->folded->forward(x);
    } else {
      std::tie(policy, wdl) = impl_->net->forward(x);
    }
    policy = policy.to(torch::kCPU, torch::kFloat32).contiguous();
    wdl = wdl.to(torch::kCPU, torch::kFloat32).contiguous();
    std::memcpy(policy_logits, policy.data_ptr<float>(),
                sizeof(float) * batch * policy_size());
    std::memcpy(wdl_logits, wdl.data_ptr<float>(), sizeof(float) * batch * 3);
    return absl::OkStatus();
  });
}

int Model::input_floats() const {
  return EncodedSize(config().board_size, config().encoding_version);
}

std::string Model::device_name() const { return impl_->device.str(); }

std::string Model::precision_name() const {
  return impl_->precision == Precision::kFloat16    ? "fp16"
         : impl_->precision == Precision::kBFloat16 ? "bf16"
                                                    : "fp32";
}

void SetIntraOpThreads(int n) { at::set_num_threads(n); }

int IntraOpThreads() { return at::get_num_threads(); }

bool CudaAvailable() { return torch::cuda::is_available(); }

absl::StatusOr<Precision> PrecisionFromName(const std::string& name) {
  if (name == "fp32") return Precision::kFloat32;
  if (name == "fp16") return Precision::kFloat16;
  if (name == "bf16") return Precision::kBFloat16;
  if (name == "auto") return Precision::kAuto;
  return absl::InvalidArgumentError(absl::StrCat(
      "precision '", name, "': expected fp32, fp16, bf16 or auto"));
}

bool NativeBf16OnCpu() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool native = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bf16") != 0;
  }();
  return native;
#else
  return false;
#endif
}

}  // namespace renju
