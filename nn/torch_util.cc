#include "nn/torch_util.h"

#include <malloc.h>
#include <torch/cuda.h>

#include <mutex>

namespace renju {

absl::StatusOr<c10::Device> ParseTorchDevice(const std::string& name,
                                             absl::string_view what) {
  const bool cuda = torch::cuda::is_available();
  if (name == "auto") {
    return cuda ? c10::Device(c10::kCUDA, 0) : c10::Device(c10::kCPU);
  }
  const absl::Status bad = absl::InvalidArgumentError(
      absl::StrCat(what, " '", name, "': expected auto, cpu, cuda or cuda:N"));
  if (name != "cpu" && name.rfind("cuda", 0) != 0) return bad;
  try {
    c10::Device device(name);
    if (device.is_cuda() && !cuda) {
      return absl::FailedPreconditionError(
          absl::StrCat(what, " '", name,
                       "': this LibTorch has no CUDA or no GPU is visible"));
    }
    // "cuda" means the first GPU; naming it keeps logs and device_name()
    // saying which one.
    if (device.is_cuda() && !device.has_index()) {
      device = c10::Device(c10::kCUDA, 0);
    }
    if (device.is_cuda() &&
        device.index() >= static_cast<int>(torch::cuda::device_count())) {
      return absl::FailedPreconditionError(
          absl::StrCat(what, " '", name, "': only ",
                       torch::cuda::device_count(), " GPU(s) visible"));
    }
    return device;
  } catch (const std::exception&) {
    return bad;
  }
}

void KeepActivationsInHeap() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest allowed value
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
  });
#endif
}

}  // namespace renju
