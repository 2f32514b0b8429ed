// `renju gomocup`: an engine for Gomocup managers (Piskvork, c-gomoku-cli,
// Yixin-Board, our arena) on stdin/stdout. The same binary started under a
// name beginning with `pbrain-` (the name managers look for; the build makes
// `pbrain-renju`) runs this command directly.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command_util.h"
#include "cli/default_model.h"
#include "config/config.h"
#include "config/evaluator_config.h"
#include "gomocup/gomocup_protocol.h"
#include "gomocup/search_brain.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

// A file named `name` in the folder of the running binary, if there is one:
// managers start engines from their own folder, so a config travels beside
// pbrain-renju.
std::string BesideBinary(const std::string& name) {
  const std::string folder = BinaryFolder();
  if (folder.empty()) return "";
  const std::string path = folder + name;
  return access(path.c_str(), R_OK) == 0 ? path : "";
}

// The players this binary can field; the search brain's config also sets
// the protocol's time management.
absl::StatusOr<std::unique_ptr<GomocupBrain>> MakeBrain(
    const Args& args, GomocupOptions& options) {
  const std::string name = args.GetString("brain");
  const uint64_t seed = static_cast<uint64_t>(args.GetInt("seed"));
  if (name == "tactical") return std::make_unique<TacticalBrain>(seed);
  if (name == "search") {
    std::string config_path = args.GetString("config");
    if (config_path.empty()) config_path = BesideBinary("renju.textproto");
    // Without a file, the schema's defaults (a 4x32 network).
    absl::StatusOr<pb::RunConfig> config =
        config_path.empty() ? ParseRunConfig("", "built-in defaults")
                            : LoadRunConfig(config_path);
    if (!config.ok()) return config.status();
    std::string model = args.GetString("model");
    if (model.empty()) {
      model = FindDefaultModel(BinaryFolder());
      if (model.empty()) {
        std::fprintf(
            stderr,
            "gomocup: no --model and no default model (looked for %s): "
            "playing a fresh, untrained network\n",
            absl::StrJoin(DefaultModelCandidates(BinaryFolder()), ", ")
                .c_str());
      } else {
        std::fprintf(stderr, "gomocup: playing the default model %s\n",
                     model.c_str());
      }
    }
    // No config names the network's shape: the checkpoint's own applies.
    if (config_path.empty() && !model.empty()) {
      if (absl::Status s = AdoptCheckpointNetwork(model, &*config); !s.ok()) {
        return s;
      }
    }
    options.time_management = config->gomocup().time_management();
    return MakeSearchBrain(*config, model, seed);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--brain: unknown brain '", name, "' (expected tactical or search)"));
}

bool WriteLine(absl::string_view line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 && !std::ferror(stdout);
}

}  // namespace

int Gomocup(const Argv& argv) {
  Args args("gomocup",
            "Plays through the Gomocup (Piskvork) pipe protocol on "
            "stdin/stdout: START, BEGIN, TURN, BOARD, INFO, TAKEBACK, END, "
            "ABOUT, and the Yixin-Board YXBOARD, YXSTOP, YXSHOWFORBID. "
            "Coordinates are x,y from the top-left corner. Diagnostics go to "
            "stderr.");
  args.AddString("brain", "search",
                 "who chooses the moves: tactical (win, block, good shape; "
                 "no search) or search (MCTS with the network)");
  args.AddString("model", "",
                 "--brain search: checkpoint to play (default: renju.model "
                 "beside the binary, else the shipped default model, else a "
                 "fresh, untrained network)");
  args.AddString("config", "",
                 "--brain search: run config whose network shape and server "
                 "search/evaluator settings apply (default: renju.textproto "
                 "beside the binary, else the schema's defaults with the "
                 "model's own network shape)");
  args.AddString("rule", "freestyle",
                 "renju, standard or freestyle until the manager sends INFO "
                 "rule");
  args.AddInt("turn-ms", 5000, 0, 86400000,
              "time per move until the manager sends INFO timeout_turn");
  args.AddInt("seed", 1, 0, 1LL << 62, "seed for the brain's tie-breaking");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;

  absl::StatusOr<Variant> variant = ParseVariant(args.GetString("rule"));
  if (!variant.ok()) return Fail(variant.status());
  GomocupOptions options;
  absl::StatusOr<std::unique_ptr<GomocupBrain>> brain =
      MakeBrain(args, options);
  if (!brain.ok()) return Fail(brain.status());
  options.default_variant = *variant;
  options.default_turn_ms = args.GetInt("turn-ms");
  GomocupProtocol protocol(std::move(*brain), options);
  if (absl::Status s = protocol.Run(STDIN_FILENO, WriteLine); !s.ok()) {
    return Fail(s);
  }
  return 0;
}

}  // namespace renju::commands
