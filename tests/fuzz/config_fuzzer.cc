// Config text (`--config` of train, selfplay, trainer, arena, serve,
// gomocup): ParseRunConfig, which parses protobuf text format and checks
// every range. A config that passes converts to valid component settings,
// and its printed text parses back to the same message.
#include <string>

#include "config/config.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  absl::StatusOr<pb::RunConfig> config =
      ParseRunConfig(fuzz::AsText(data, size), "fuzz");
  if (!config.ok()) return 0;
  RENJU_CHECK(ToNetworkConfig(*config).Validate().ok());
  for (const pb::SearchConfig* search :
       {&config->selfplay().search(), &config->arena().search(),
        &config->server().search()}) {
    const absl::Status s = ToSearchParams(*search).Validate();
    RENJU_CHECK(s.ok()) << s.message();
  }
  const std::string text = RunConfigText(*config);
  absl::StatusOr<pb::RunConfig> again = ParseRunConfig(text, "printed");
  RENJU_CHECK(again.ok()) << again.status().message() << "\n" << text;
  RENJU_CHECK(again->SerializeAsString() == config->SerializeAsString())
      << text;
  return 0;
}
