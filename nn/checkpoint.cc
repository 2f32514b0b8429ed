#include "nn/checkpoint.h"

#include <iterator>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace renju {
namespace {

constexpr char kModelKind[] = "model";
// Optional: present (as 1) only for a net with auxiliary heads.
constexpr char kAuxHeadsKey[] = "aux_heads";

struct ConfigField {
  const char* name;
  int NetworkConfig::*member;
};
constexpr ConfigField kConfigFields[] = {
    {"board_size", &NetworkConfig::board_size},
    {"blocks", &NetworkConfig::blocks},
    {"channels", &NetworkConfig::channels},
    {"global_pool_every", &NetworkConfig::global_pool_every},
    {"global_pool_channels", &NetworkConfig::global_pool_channels},
    {"policy_channels", &NetworkConfig::policy_channels},
    {"value_channels", &NetworkConfig::value_channels},
    {"value_hidden", &NetworkConfig::value_hidden},
};

std::vector<std::pair<std::string, std::string>> InfoToMetadata(
    const CheckpointInfo& info) {
  std::vector<std::pair<std::string, std::string>> out = {
      {"encoding_version", absl::StrCat(info.config.encoding_version)},
      {"variants", absl::StrJoin(info.variants, ",",
                                 [](std::string* s, Variant v) {
                                   absl::StrAppend(s, VariantName(v));
                                 })},
      {"generation", absl::StrCat(info.generation)},
      {"training_step", absl::StrCat(info.training_step)},
  };
  for (const ConfigField& f : kConfigFields) {
    out.emplace_back(f.name, absl::StrCat(info.config.*f.member));
  }
  if (info.config.aux_heads) out.emplace_back(kAuxHeadsKey, "1");
  return out;
}

absl::Status BadField(absl::string_view key, absl::string_view value,
                      absl::string_view expected) {
  return absl::DataLossError(
      absl::StrCat("metadata ", key, " is '", value, "', expected ", expected));
}

absl::Status ParseVariants(absl::string_view text, CheckpointInfo& info) {
  info.variants.clear();
  for (absl::string_view name : absl::StrSplit(text, ',')) {
    absl::StatusOr<Variant> v = ParseVariant(name);
    if (!v.ok()) return BadField("variants", text, "variant names");
    info.variants.push_back(*v);
  }
  return absl::OkStatus();
}

// Takes `key` out of `fields` into `value`.
template <typename T>
absl::Status TakeNumber(absl::flat_hash_map<std::string, std::string>& fields,
                        absl::string_view key, T& value) {
  auto it = fields.find(key);
  if (it == fields.end()) {
    return absl::DataLossError(absl::StrCat("metadata has no ", key));
  }
  if (!absl::SimpleAtoi(it->second, &value)) {
    return BadField(key, it->second, "an integer");
  }
  fields.erase(it);
  return absl::OkStatus();
}

absl::Status MetadataToInfo(
    const std::vector<std::pair<std::string, std::string>>& metadata,
    CheckpointInfo& info) {
  absl::flat_hash_map<std::string, std::string> fields;
  for (const auto& [key, value] : metadata) {
    if (!fields.emplace(key, value).second) {
      return absl::DataLossError(absl::StrCat("metadata repeats ", key));
    }
  }
  auto variants = fields.find("variants");
  if (variants == fields.end()) {
    return absl::DataLossError("metadata has no variants");
  }
  if (absl::Status s = ParseVariants(variants->second, info); !s.ok()) return s;
  fields.erase(variants);
  for (absl::Status s :
       {TakeNumber(fields, "encoding_version", info.config.encoding_version),
        TakeNumber(fields, "generation", info.generation),
        TakeNumber(fields, "training_step", info.training_step)}) {
    if (!s.ok()) return s;
  }
  for (const ConfigField& f : kConfigFields) {
    if (absl::Status s = TakeNumber(fields, f.name, info.config.*f.member);
        !s.ok()) {
      return s;
    }
  }
  if (auto aux = fields.find(kAuxHeadsKey); aux != fields.end()) {
    if (aux->second != "0" && aux->second != "1") {
      return BadField(kAuxHeadsKey, aux->second, "0 or 1");
    }
    info.config.aux_heads = aux->second == "1";
    fields.erase(aux);
  }
  if (!fields.empty()) {
    return absl::DataLossError(
        absl::StrCat("metadata has unknown key ", fields.begin()->first));
  }
  return absl::OkStatus();
}

absl::Status CheckInfo(const CheckpointInfo& info) {
  const int version = info.config.encoding_version;
  if (!IsKnownEncodingVersion(version)) {
    return absl::FailedPreconditionError(
        absl::StrCat("encoding version ", version, ", this build reads ",
                     kMinEncodingVersion, "..", kMaxEncodingVersion));
  }
  return info.config.Validate();
}

}  // namespace

absl::StatusOr<std::string> WriteCheckpoint(const std::string& path,
                                            const CheckpointInfo& info,
                                            std::vector<TensorRecord> tensors) {
  if (absl::Status s = info.config.Validate(); !s.ok()) return s;
  if (info.variants.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("checkpoint ", path, ": no variants given"));
  }
  TensorFile file;
  file.kind = kModelKind;
  file.metadata = InfoToMetadata(info);
  file.tensors = std::move(tensors);
  if (absl::Status s = WriteTensorFile(path, file); !s.ok()) return s;
  return file.content_hash;
}

absl::StatusOr<Checkpoint> ReadCheckpoint(const std::string& path) {
  absl::StatusOr<TensorFile> file = ReadTensorFile(path);
  if (!file.ok()) return file.status();
  Checkpoint checkpoint;
  absl::Status status =
      file->kind != kModelKind
          ? absl::FailedPreconditionError(absl::StrCat(
                "holds '", file->kind, "', expected '", kModelKind, "'"))
          : MetadataToInfo(file->metadata, checkpoint.info);
  if (status.ok()) status = CheckInfo(checkpoint.info);
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("checkpoint ", path, ": ",
                                                    status.message()));
  }
  checkpoint.tensors = std::move(file->tensors);
  checkpoint.content_hash = std::move(file->content_hash);
  return checkpoint;
}

std::string DescribeConfigDifference(const NetworkConfig& actual,
                                     const NetworkConfig& expected) {
  std::vector<std::string> parts;
  if (actual.encoding_version != expected.encoding_version) {
    parts.push_back(absl::StrCat("input encoding version ",
                                 actual.encoding_version, " (expected ",
                                 expected.encoding_version, ")"));
  }
  for (const ConfigField& f : kConfigFields) {
    if (actual.*f.member == expected.*f.member) continue;
    parts.push_back(absl::StrCat(f.name, " ", actual.*f.member, " (expected ",
                                 expected.*f.member, ")"));
  }
  if (actual.aux_heads != expected.aux_heads) {
    parts.push_back(absl::StrCat(kAuxHeadsKey, " ", actual.aux_heads ? 1 : 0,
                                 " (expected ", expected.aux_heads ? 1 : 0,
                                 ")"));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace renju
