// The network ready for inference: weights on a device, forward on a batch
// that is already encoded. No threads and no batching here; the evaluator
// (batched_evaluator.h) owns those. This header includes no LibTorch, so the
// evaluator, tests and benches compile quickly (KataGo's nninterface.h keeps
// its backends behind the same kind of wall).
//
//   auto model = Model::Load("gen3.ckpt", ModelOptions{});
//   (*model)->Forward(planes, batch, policy_logits, wdl_logits);
#ifndef RENJU_NN_MODEL_H_
#define RENJU_NN_MODEL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nn/checkpoint.h"
#include "nn/network_config.h"

namespace renju {

enum class Precision : uint8_t {
  kFloat32 = 0,
  kFloat16 = 1,  // CUDA only
  // On CUDA; and on a CPU with native bf16 arithmetic (NativeBf16OnCpu),
  // where only the folded play network runs in it: the weights are folded
  // in float32 and rounded once, and oneDNN's bf16 convolutions forward
  // about twice the positions/s of float32 (BENCHMARKS.md, "Play-time
  // throughput", with the outputs' distance from float32's).
  kBFloat16 = 2,
  // kBFloat16 where it is native on a CPU, else kFloat32 (CUDA included).
  kAuto = 3,
};

// Building the first CPU model also tunes glibc's malloc for the process
// (large blocks stay in the heap; see model.cc), which makes CPU forwards
// several times faster.
// "fp32", "fp16", "bf16" or "auto"; anything else is InvalidArgument.
absl::StatusOr<Precision> PrecisionFromName(const std::string& name);

// Whether this CPU computes in bf16 natively (AVX512-BF16; AMX CPUs have it
// too). Without it oneDNN emulates bf16, slower than float32, so a CPU
// model refuses kBFloat16 and kAuto means kFloat32.
bool NativeBf16OnCpu();

struct ModelOptions {
  // "auto" (CUDA when the linked LibTorch has it and a GPU is visible, else
  // CPU), "cpu", "cuda" or "cuda:N".
  std::string device = "auto";
  // Weights and activations; the outputs are always float32. A CPU model
  // in bf16 needs fold_batch_norm.
  Precision precision = Precision::kFloat32;
  // Forward through the network with its batch norms folded into the
  // convolutions (InferenceNet in network.h); false runs the module as
  // trained, for comparing the two (nn_bench, the network tests).
  bool fold_batch_norm = true;
};

class Model {
 public:
  // A freshly initialised network. Seeds LibTorch's global generator with
  // `seed`, so equal seeds give equal weights.
  static absl::StatusOr<std::unique_ptr<Model>> Create(
      const NetworkConfig& config, const ModelOptions& options,
      uint64_t seed = 0);
  // Loads a checkpoint (checkpoint.h), mapping it to CPU first so a file
  // saved on a GPU host loads anywhere; the model's config, and so its input
  // encoding, are the checkpoint's. With `expected`, a checkpoint of another
  // architecture or input encoding version is an error naming the
  // differing fields; the auxiliary training heads (NetworkConfig::aux_heads)
  // do not count, as Forward never computes them.
  static absl::StatusOr<std::unique_ptr<Model>> Load(
      const std::string& path, const ModelOptions& options,
      const std::optional<NetworkConfig>& expected = std::nullopt);

  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // A copy with the same weights and info on the same device, e.g. one per
  // evaluator server thread.
  absl::StatusOr<std::unique_ptr<Model>> Clone() const;

  // Writes the weights with info() as a checkpoint and records its hash.
  absl::Status Save(const std::string& path);

  // Runs the network on `batch` positions (>= 1). `inputs` holds batch *
  // input_floats() floats, encoded by EncodePosition with the config's
  // encoding_version. Writes batch *
  // policy_size() policy logits (unmasked) and batch * 3 win/draw/loss
  // logits. Not thread-safe: one caller at a time.
  absl::Status Forward(const float* inputs, int batch, float* policy_logits,
                       float* wdl_logits);

  const NetworkConfig& config() const { return info_.config; }
  int input_floats() const;
  int policy_size() const { return config().board_size * config().board_size; }
  // Generation, training step and variants travel with the weights.
  const CheckpointInfo& info() const { return info_; }
  CheckpointInfo& mutable_info() { return info_; }
  // The content hash of the checkpoint last loaded or saved; empty for a
  // fresh network.
  const std::string& content_hash() const { return content_hash_; }
  // "cpu" or "cuda:0".
  std::string device_name() const;
  // The precision it computes in, kAuto resolved: "fp32", "fp16" or "bf16".
  std::string precision_name() const;

 private:
  struct Impl;
  Model(std::unique_ptr<Impl> impl, CheckpointInfo info);
  // Create without touching LibTorch's generator when `seed` is empty.
  static absl::StatusOr<std::unique_ptr<Model>> Build(
      const NetworkConfig& config, const ModelOptions& options,
      std::optional<uint64_t> seed);

  std::unique_ptr<Impl> impl_;
  CheckpointInfo info_;
  std::string content_hash_;
};

// Threads LibTorch uses inside one operator (a process-wide setting); n >= 1.
void SetIntraOpThreads(int n);
int IntraOpThreads();
// Whether the linked LibTorch has CUDA and sees a GPU.
bool CudaAvailable();

}  // namespace renju

#endif  // RENJU_NN_MODEL_H_
