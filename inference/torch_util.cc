#include "inference/torch_util.h"

#include <malloc.h>

#include <mutex>

namespace renju {

absl::StatusOr<torch::Device> ParseTorchDevice(const std::string& name,
                                               absl::string_view what) {
  const bool cuda = torch::cuda::is_available();
  if (name == "auto") {
    return cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  }
  const absl::Status bad = absl::InvalidArgumentError(absl::StrCat(
      what, " '", name, "': expected auto, cpu, cuda or cuda:N"));
  if (name != "cpu" && name.rfind("cuda", 0) != 0) return bad;
  try {
    torch::Device device(name);
    if (device.is_cuda() && !cuda) {
      return absl::FailedPreconditionError(
          absl::StrCat(what, " '", name,
                       "': this LibTorch has no CUDA or no GPU is visible"));
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
