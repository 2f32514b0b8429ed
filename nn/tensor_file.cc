#include "nn/tensor_file.h"

#include <c10/util/hash.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file_util.h"

namespace renju {
namespace {

// Tensor bytes are written as the host holds them; every host we build for
// is little-endian, which this makes a build error to forget.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "checkpoint files are little-endian");

constexpr char kMagic[8] = {'R', 'E', 'N', 'J', 'U', 'C', 'K', 'P'};
constexpr size_t kHashChars = 40;
constexpr size_t kHeaderBytes = sizeof(kMagic) + 4 + 8 + 8 + kHashChars;
constexpr uint32_t kMaxRank = 8;
constexpr uint32_t kMaxNameBytes = 1024;

template <typename T>
void Append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

// Reads fixed-size values from a byte range; every read is bounds-checked.
class ByteReader {
 public:
  explicit ByteReader(absl::string_view data) : data_(data) {}
  template <typename T>
  bool Read(T& value) {
    if (data_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(&value, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool ReadBytes(uint64_t n, std::string& out) {
    if (data_.size() - pos_ < n) return false;
    out.assign(data_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool done() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }

 private:
  absl::string_view data_;
  size_t pos_ = 0;
};

std::string Sha1Hex(const std::string& bytes) {
  c10::sha1 hasher(bytes);
  return hasher.str();
}

int ElementBytes(TensorDtype dtype) {
  return dtype == TensorDtype::kInt64 ? 8 : 4;
}

void AppendTensor(const TensorRecord& t, std::string& out) {
  Append<uint32_t>(out, t.name.size());
  out += t.name;
  Append<uint8_t>(out, static_cast<uint8_t>(t.dtype));
  Append<uint32_t>(out, t.shape.size());
  for (int64_t d : t.shape) Append<int64_t>(out, d);
  Append<uint64_t>(out, t.data.size());
  out += t.data;
}

absl::Status ReadTensor(ByteReader& in, int index, TensorRecord& t) {
  auto bad = [&](absl::string_view what) {
    return absl::DataLossError(
        absl::StrCat("tensor ", index, " ('", t.name, "'): ", what));
  };
  uint32_t name_bytes = 0;
  if (!in.Read(name_bytes) || name_bytes > kMaxNameBytes ||
      !in.ReadBytes(name_bytes, t.name)) {
    return bad("bad name");
  }
  uint8_t dtype = 0;
  uint32_t rank = 0;
  if (!in.Read(dtype) ||
      (dtype != static_cast<uint8_t>(TensorDtype::kFloat32) &&
       dtype != static_cast<uint8_t>(TensorDtype::kInt64))) {
    return bad(absl::StrCat("unknown dtype ", dtype));
  }
  t.dtype = static_cast<TensorDtype>(dtype);
  if (!in.Read(rank) || rank > kMaxRank) return bad("bad rank");
  t.shape.resize(rank);
  // The elements must fit in the bytes left, which also keeps the product
  // of the dimensions from overflowing.
  uint64_t elements = 1;
  for (int64_t& d : t.shape) {
    if (!in.Read(d) || d < 0 || d > (int64_t{1} << 31)) return bad("bad shape");
    if (d > 0 && elements > in.remaining() / static_cast<uint64_t>(d)) {
      return bad("shape larger than the file");
    }
    elements *= static_cast<uint64_t>(d);
  }
  uint64_t data_bytes = 0;
  if (!in.Read(data_bytes) || data_bytes != elements * ElementBytes(t.dtype) ||
      !in.ReadBytes(data_bytes, t.data)) {
    return bad("data size does not match the shape");
  }
  return absl::OkStatus();
}

absl::Status ParseMetadata(absl::string_view text, TensorFile& file) {
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    ++line_number;
    std::pair<std::string, std::string> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first.empty() || kv.second.empty()) {
      return absl::DataLossError(absl::StrCat("metadata line ", line_number,
                                              ": expected 'key value', got '",
                                              line, "'"));
    }
    if (line_number == 1) {
      if (kv.first != "kind") {
        return absl::DataLossError("metadata does not start with 'kind'");
      }
      file.kind = kv.second;
    } else {
      file.metadata.push_back(std::move(kv));
    }
  }
  if (line_number == 0) return absl::DataLossError("empty metadata");
  return absl::OkStatus();
}

absl::Status ParseBody(absl::string_view metadata, absl::string_view tensors,
                       TensorFile& file) {
  if (absl::Status s = ParseMetadata(metadata, file); !s.ok()) return s;
  ByteReader in(tensors);
  uint32_t count = 0;
  if (!in.Read(count)) return absl::DataLossError("no tensor count");
  // Every tensor takes at least its name length, dtype, rank and data size.
  constexpr size_t kMinTensorBytes = 4 + 1 + 4 + 8;
  if (count > in.remaining() / kMinTensorBytes) {
    return absl::DataLossError(absl::StrCat(count, " tensors cannot fit in ",
                                            in.remaining(), " bytes"));
  }
  file.tensors.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (absl::Status s = ReadTensor(in, i, file.tensors[i]); !s.ok()) return s;
  }
  if (!in.done()) return absl::DataLossError("bytes left after the tensors");
  return absl::OkStatus();
}

absl::Status ParseFile(const std::string& bytes, TensorFile& file) {
  const size_t prefix = std::min(bytes.size(), sizeof(kMagic));
  if (bytes.empty() || std::memcmp(bytes.data(), kMagic, prefix) != 0) {
    return absl::InvalidArgumentError(
        "not a renju checkpoint (it does not start with \"RENJUCKP\")");
  }
  if (bytes.size() < kHeaderBytes) {
    return absl::DataLossError(
        absl::StrCat("truncated (expected a ", kHeaderBytes,
                     "-byte header, found ", bytes.size(), " bytes)"));
  }
  ByteReader header(absl::string_view(bytes).substr(sizeof(kMagic)));
  uint32_t format = 0;
  uint64_t metadata_bytes = 0;
  uint64_t tensor_bytes = 0;
  std::string hash;
  header.Read(format);
  header.Read(metadata_bytes);
  header.Read(tensor_bytes);
  header.ReadBytes(kHashChars, hash);
  if (format != kTensorFileFormat) {
    return absl::FailedPreconditionError(absl::StrCat(
        "format version ", format, ", this build reads ", kTensorFileFormat));
  }
  const uint64_t body = bytes.size() - kHeaderBytes;
  if (metadata_bytes > body || tensor_bytes > body - metadata_bytes) {
    const uint64_t found = body > metadata_bytes ? body - metadata_bytes : 0;
    return absl::DataLossError(
        absl::StrCat("truncated (expected ", tensor_bytes,
                     " bytes of weights, found ", found, ")"));
  }
  if (tensor_bytes < body - metadata_bytes) {
    return absl::DataLossError(
        absl::StrCat("corrupt (", body - metadata_bytes - tensor_bytes,
                     " unexpected bytes after the weights)"));
  }
  file.content_hash = Sha1Hex(bytes.substr(kHeaderBytes));
  if (file.content_hash != hash) {
    return absl::DataLossError(absl::StrCat(
        "content hash mismatch (header says ", hash, ", contents hash to ",
        file.content_hash, "): the file is corrupt"));
  }
  const absl::string_view contents =
      absl::string_view(bytes).substr(kHeaderBytes);
  return ParseBody(contents.substr(0, metadata_bytes),
                   contents.substr(metadata_bytes), file);
}

}  // namespace

int64_t TensorRecord::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

absl::Status WriteTensorFile(const std::string& path, TensorFile& file) {
  std::string metadata = absl::StrCat("kind ", file.kind, "\n");
  for (const auto& [key, value] : file.metadata) {
    absl::StrAppend(&metadata, key, " ", value, "\n");
  }
  std::string tensors;
  Append<uint32_t>(tensors, file.tensors.size());
  for (const TensorRecord& t : file.tensors) AppendTensor(t, tensors);
  const std::string contents = metadata + tensors;
  file.content_hash = Sha1Hex(contents);

  std::string header(kMagic, sizeof(kMagic));
  Append<uint32_t>(header, kTensorFileFormat);
  Append<uint64_t>(header, metadata.size());
  Append<uint64_t>(header, tensors.size());
  header += file.content_hash;

  // One fixed temporary per file: a trainer killed mid-write leaves one
  // stale file that the next save overwrites. On a full disk the old file
  // stays whole and the caller hears RESOURCE_EXHAUSTED.
  absl::Status written =
      WriteFileAtomically(path, header + contents, path + ".tmp");
  if (!written.ok()) {
    return absl::Status(written.code(), absl::StrCat("checkpoint ", path, ": ",
                                                     written.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorFile> ReadTensorFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("checkpoint ", path, ": cannot open"));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  TensorFile file;
  if (absl::Status s = ParseFile(bytes.str(), file); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("checkpoint ", path, ": ", s.message()));
  }
  return file;
}

}  // namespace renju
