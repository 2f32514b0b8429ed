// Checkpoints: a tensor file (tensor_file.h) of kind "model" whose metadata
// is a CheckpointInfo: the NetworkConfig (its input encoding version
// included), the variants the net was trained for, generation and training
// step. The metadata lines are "encoding_version 1", "variants
// freestyle,standard,renju", "generation 3", "training_step 12000" and one
// line per other NetworkConfig field ("blocks 4"); unknown or missing keys
// are errors. A checkpoint is played with the encoding it records. The one
// optional key is "aux_heads 1", written only for a net with auxiliary
// heads, so files without them are as they were and older files still load.
#ifndef RENJU_NN_CHECKPOINT_H_
#define RENJU_NN_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nn/encoding.h"
#include "nn/network_config.h"
#include "nn/tensor_file.h"
#include "rules/types.h"

namespace renju {

struct CheckpointInfo {
  // config.encoding_version is the "encoding_version" line.
  NetworkConfig config;
  // The variants the net was trained to play; never empty in a file.
  std::vector<Variant> variants = {Variant::kFreestyle, Variant::kStandard,
                                   Variant::kRenju};
  int64_t generation = 0;
  int64_t training_step = 0;
};

struct Checkpoint {
  CheckpointInfo info;
  std::vector<TensorRecord> tensors;
  std::string content_hash;
};

// Writes a "model" tensor file; returns its content hash.
absl::StatusOr<std::string> WriteCheckpoint(const std::string& path,
                                            const CheckpointInfo& info,
                                            std::vector<TensorRecord> tensors);
// Reads a "model" tensor file and checks its metadata: every field present
// and valid, the config valid, and the encoding version one this build
// knows (IsKnownEncodingVersion). Whether the tensors fit the config is
// checked when they are loaded into a network (ImportTensors in network.h).
absl::StatusOr<Checkpoint> ReadCheckpoint(const std::string& path);

// "blocks 6 (expected 4), channels 64 (expected 32)": the fields that differ,
// the encoding version first ("input encoding version 1 (expected 2)").
std::string DescribeConfigDifference(const NetworkConfig& actual,
                                     const NetworkConfig& expected);

}  // namespace renju

#endif  // RENJU_NN_CHECKPOINT_H_
