// Tensor files: the container checkpoints are stored in, readable without
// LibTorch's pickler.
//
// A tensor file holds a kind ("model" for checkpoints, checkpoint.h; later
// "training-state" for the trainer's optimizer state, kept in a file beside
// the model so a model file stays exactly what servers load), text metadata,
// and named tensors as raw little-endian bytes. Layout, integers little-endian:
//   8 bytes   magic "RENJUCKP"
//   u32       format version (kTensorFileFormat)
//   u64       metadata bytes M
//   u64       tensor bytes T
//   40 bytes  content hash: SHA-1 (LibTorch's c10::sha1, so the network
//             library needs nothing beyond LibTorch and Abseil) of the
//             metadata and tensor sections, lower-case hex
//   M bytes   metadata: "key value\n" lines, the first "kind <kind>"
//   T bytes   u32 tensor count, then each tensor: u32 name length, name,
//             u8 dtype, u32 rank, i64 dims[rank], u64 data bytes, data
// Writes go to a temporary file renamed into place, so a reader never sees
// half a file. The hash detects corruption and names the weights; it is not a
// defence against a forger.
#ifndef RENJU_NN_TENSOR_FILE_H_
#define RENJU_NN_TENSOR_FILE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace renju {

inline constexpr uint32_t kTensorFileFormat = 1;

enum class TensorDtype : uint8_t { kFloat32 = 1, kInt64 = 2 };

struct TensorRecord {
  std::string name;
  TensorDtype dtype = TensorDtype::kFloat32;
  std::vector<int64_t> shape;
  std::string data;  // the elements, little-endian, row-major

  int64_t NumElements() const;
};

struct TensorFile {
  std::string kind;
  // Keys are unique words; values are one line of text.
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<TensorRecord> tensors;
  // Hex SHA-1 of the contents: set by ReadTensorFile and WriteTensorFile.
  std::string content_hash;
};

// Writes `file` to `path` atomically and sets file.content_hash.
absl::Status WriteTensorFile(const std::string& path, TensorFile& file);
// Reads and checks `path`: magic, format version, sizes (a short file is
// "truncated (expected N bytes of weights, found M)"), hash, metadata and
// tensor records. Every error message starts "checkpoint <path>: ".
absl::StatusOr<TensorFile> ReadTensorFile(const std::string& path);

}  // namespace renju

#endif  // RENJU_NN_TENSOR_FILE_H_
