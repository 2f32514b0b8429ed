// Config files (protobuf text format against proto/config.proto): parsing
// with errors that name file, line and column; range checks that name the
// field path and the bad value; and the one place where config messages
// become the plain structs the components take (KataGo's Setup::loadParams).
#ifndef RENJU_CONFIG_CONFIG_H_
#define RENJU_CONFIG_CONFIG_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nn/batched_evaluator.h"
#include "nn/network_config.h"
#include "proto/config.pb.h"
#include "rules/types.h"
#include "search/opening_player.h"
#include "search/search_params.h"

namespace renju {

// Reads, parses and validates a config file.
absl::StatusOr<pb::RunConfig> LoadRunConfig(const std::string& path);
// Parses and validates text; `source` names it in errors.
absl::StatusOr<pb::RunConfig> ParseRunConfig(absl::string_view text,
                                             absl::string_view source);
// Sets the fields that `text` (text format, e.g. "trainer { ema_decay: 0.999
// }") names on top of `config`, then validates the result; `source` names
// the text in errors. Singular fields are replaced and messages merged
// field by field; repeated fields are appended to.
absl::StatusOr<pb::RunConfig> OverrideRunConfig(pb::RunConfig config,
                                                absl::string_view text,
                                                absl::string_view source);
// Checks every field's range; the error names the first bad field by path,
// e.g. "selfplay.search.visits = -3 is outside 0..10000000".
absl::Status ValidateRunConfig(const pb::RunConfig& config);

// The config in text form, for logs and for storing beside checkpoints.
std::string RunConfigText(const pb::RunConfig& config);

// Conversions to component structs; the config must be valid.
Variant VariantOf(const pb::RunConfig& config);
NetworkConfig ToNetworkConfig(const pb::RunConfig& config);
SearchParams ToSearchParams(const pb::SearchConfig& config);
// As ToSearchParams, for a search that plays alone (the server, the Gomocup
// engine): an unset minibatch_size gathers kPlayTimeMinibatchSize leaves.
SearchParams ToPlayTimeSearchParams(const pb::SearchConfig& config);
// The evaluator of play (the server, the Gomocup engine): an unset
// precision is "auto", bf16 on a CPU that computes it natively.
pb::EvaluatorConfig ToPlayTimeEvaluatorConfig(
    const pb::EvaluatorConfig& config);
OpeningParams ToOpeningParams(const pb::SearchConfig& config);
BatchedEvaluatorOptions ToEvaluatorOptions(const pb::EvaluatorConfig& config);

}  // namespace renju

#endif  // RENJU_CONFIG_CONFIG_H_
