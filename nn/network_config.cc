#include "nn/network_config.h"

#include <tuple>

#include "absl/strings/str_cat.h"
#include "nn/encoding.h"
#include "rules/types.h"

namespace renju {
namespace {

absl::Status CheckRange(absl::string_view field, int value, int lo, int hi) {
  if (value >= lo && value <= hi) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "network config: ", field, " is ", value, ", expected ", lo, "..", hi));
}

auto Fields(const NetworkConfig& c) {
  return std::tie(c.board_size, c.blocks, c.channels, c.global_pool_every,
                  c.global_pool_channels, c.policy_channels, c.value_channels,
                  c.value_hidden, c.aux_heads, c.encoding_version);
}

}  // namespace

absl::Status NetworkConfig::Validate() const {
  for (absl::Status s : {
           CheckRange("board_size", board_size, kMinBoardSize, kMaxBoardSize),
           CheckRange("blocks", blocks, 1, 64),
           CheckRange("channels", channels, 8, 512),
           CheckRange("global_pool_every", global_pool_every, 0, blocks),
           CheckRange("policy_channels", policy_channels, 1, 512),
           CheckRange("value_channels", value_channels, 1, 512),
           CheckRange("value_hidden", value_hidden, 1, 4096),
           CheckRange("encoding_version", encoding_version, kMinEncodingVersion,
                      kMaxEncodingVersion),
       }) {
    if (!s.ok()) return s;
  }
  if (global_pool_every > 0) {
    return CheckRange("global_pool_channels", global_pool_channels, 1,
                      channels - 1);
  }
  return absl::OkStatus();
}

std::string NetworkConfig::DebugString() const {
  return absl::StrCat(
      "board_size=", board_size, " blocks=", blocks, " channels=", channels,
      " global_pool_every=", global_pool_every,
      " global_pool_channels=", global_pool_channels,
      " policy_channels=", policy_channels, " value_channels=", value_channels,
      " value_hidden=", value_hidden, aux_heads ? " aux_heads=1" : "");
}

bool operator==(const NetworkConfig& a, const NetworkConfig& b) {
  return Fields(a) == Fields(b);
}

NetworkConfig TinyNetworkConfig(int board_size) {
  NetworkConfig c;
  c.board_size = board_size;
  c.blocks = 4;
  c.channels = 32;
  c.global_pool_every = 2;
  c.global_pool_channels = 8;
  c.policy_channels = 8;
  c.value_channels = 8;
  c.value_hidden = 32;
  return c;
}

NetworkConfig MediumNetworkConfig(int board_size) {
  NetworkConfig c;
  c.board_size = board_size;
  c.blocks = 10;
  c.channels = 96;
  c.global_pool_every = 3;
  c.global_pool_channels = 32;
  c.policy_channels = 32;
  c.value_channels = 32;
  c.value_hidden = 128;
  return c;
}

}  // namespace renju
