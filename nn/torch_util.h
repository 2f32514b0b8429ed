// LibTorch plumbing shared by the model wrapper and the trainer: device
// names, exceptions turned into statuses, and the process-wide malloc
// setting that CPU tensors need. Includes LibTorch; only inference/ and
// trainer/ .cc files use it.
#ifndef RENJU_NN_TORCH_UTIL_H_
#define RENJU_NN_TORCH_UTIL_H_

// Only the device type, not <torch/torch.h>: that header alone took 40 s of
// each sanitizer build's compile of this file's users.
#include <c10/core/Device.h>

#include <exception>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace renju {

// "auto" (CUDA when this LibTorch has it and a GPU is visible, else CPU),
// "cpu", "cuda" or "cuda:N". Errors name `what` (e.g. "trainer device").
absl::StatusOr<c10::Device> ParseTorchDevice(const std::string& name,
                                             absl::string_view what);

// Runs fn (returning absl::Status); LibTorch's c10::Error exceptions become
// Internal errors prefixed with `what`, so none escapes a boundary.
template <typename Fn>
absl::Status TorchGuarded(absl::string_view what, Fn&& fn) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat(what, ": ", e.what()));
  }
}

// glibc hands blocks over 128 KB back to the kernel when freed and maps them
// afresh next time, so every forward or training step page-faults all its
// activation tensors again: 3-5x slower CPU forwards at batch 8-128 and half
// the training speed (BENCHMARKS.md). This keeps such blocks in the heap, a
// process-wide setting made once; call it before the first CPU model.
void KeepActivationsInHeap();

}  // namespace renju

#endif  // RENJU_NN_TORCH_UTIL_H_
