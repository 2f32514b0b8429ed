#include "config/config.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cmath>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "config/ranges.h"
#include "nn/encoding.h"
#include "rules/opening.h"

namespace renju {
namespace {

// Collects the first parse error with its position (1-based for people).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!found_) {
      found_ = true;
      text_ = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ",
                           message);
    }
  }
  bool found() const { return found_; }
  const std::string& text() const { return text_; }

 private:
  bool found_ = false;
  std::string text_;
};

// Remembers the first failed check.
class Checker {
 public:
  template <typename T>
  void Range(const std::string& path, T value, T lo, T hi) {
    if (!status_.ok()) return;
    const bool finite = !std::isnan(static_cast<double>(value));
    if (!finite || value < lo || value > hi) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat(path, " = ", value, " is outside ", lo, "..", hi));
    }
  }
  // (0, hi]: for values the search divides by or scales with.
  template <typename T>
  void RangeAboveZero(const std::string& path, T value, T hi) {
    if (!status_.ok()) return;
    if (std::isnan(static_cast<double>(value)) || value <= 0 || value > hi) {
      status_ = absl::InvalidArgumentError(absl::StrCat(
          path, " = ", value, " is outside 0..", hi, " (0 excluded)"));
    }
  }
  void Require(bool ok, const std::string& path, absl::string_view why) {
    if (status_.ok() && !ok) {
      status_ = absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
    }
  }
  // Takes a check's own error as it is.
  void Check(const absl::Status& s) {
    if (status_.ok() && !s.ok()) status_ = s;
  }
  void Merge(const std::string& path, const absl::Status& s) {
    if (status_.ok() && !s.ok()) {
      status_ =
          absl::InvalidArgumentError(absl::StrCat(path, ": ", s.message()));
    }
  }
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
};

void CheckDevice(Checker& c, const std::string& path,
                 const std::string& device) {
  int index = 0;
  const bool cuda_n = absl::StartsWith(device, "cuda:") &&
                      absl::SimpleAtoi(device.substr(5), &index) &&
                      index >= 0 && index < 64 &&
                      device.substr(5) == absl::StrCat(index);
  c.Require(device == "auto" || device == "cpu" || device == "cuda" || cuda_n,
            path,
            absl::StrCat("'", device, "' is not auto, cpu, cuda or cuda:N"));
}

void CheckSearch(Checker& c, const std::string& p, const pb::SearchConfig& s) {
  c.Range<int64_t>(p + ".visits", s.visits(), 0, 10000000);
  c.Range<int64_t>(p + ".time_ms", s.time_ms(), 0, 3600000);
  c.Require(s.visits() > 0 || s.time_ms() > 0, p,
            "visits and time_ms are both 0: no budget");
  c.Range(p + ".threads", s.threads(), 1, 256);
  c.Range(p + ".virtual_loss", s.virtual_loss(), 0.0f, 100.0f);
  if (s.has_minibatch_size()) {
    c.Range(p + ".minibatch_size", s.minibatch_size(), 1, 1024);
  }
  c.Range(p + ".max_collisions", s.max_collisions(), 0, 100000);
  c.RangeAboveZero(p + ".c_puct", s.c_puct(), 100.0f);
  c.Range(p + ".c_puct_log", s.c_puct_log(), 0.0f, 100.0f);
  c.Range(p + ".c_puct_base", s.c_puct_base(), 1.0f, 1e9f);
  c.Range(p + ".fpu_reduction", s.fpu_reduction(), 0.0f, 2.0f);
  c.Range(p + ".root_fpu_reduction", s.root_fpu_reduction(), 0.0f, 2.0f);
  c.Range(p + ".dirichlet_alpha_total", s.dirichlet_alpha_total(), 0.01f,
          1000.0f);
  c.Range(p + ".dirichlet_weight", s.dirichlet_weight(), 0.0f, 1.0f);
  c.Range(p + ".temperature_early", s.temperature_early(), 0.0f, 10.0f);
  c.Range(p + ".temperature_final", s.temperature_final(), 0.0f, 10.0f);
  c.Range(p + ".temperature_halflife_plies", s.temperature_halflife_plies(),
          0.1f, 1000.0f);
  c.Range<int64_t>(p + ".vcf_max_nodes_root", s.vcf_max_nodes_root(), 1,
                   1000000000);
  c.Range<int64_t>(p + ".vcf_max_nodes", s.vcf_max_nodes(), 1, 1000000000);
  c.Range(p + ".vcf_max_depth", s.vcf_max_depth(), 1, kMaxVcfDepth);
  c.Range<int64_t>(p + ".vct_max_nodes_root", s.vct_max_nodes_root(), 0,
                   1000000000);
  c.Range(p + ".vct_max_depth", s.vct_max_depth(), 1, kMaxVctDepth);
  c.RangeAboveZero(p + ".vct_time_share", s.vct_time_share(), 1.0f);
  c.Range(p + ".full_search_probability", s.full_search_probability(), 0.0f,
          1.0f);
  if (s.playout_cap_randomisation()) {
    c.Require(s.visits() > 0, p + ".playout_cap_randomisation",
              "needs a visit budget (visits > 0)");
    c.Range<int64_t>(p + ".cheap_visits", s.cheap_visits(), 1,
                     std::max<int64_t>(1, s.visits()));
  }
  c.Range(p + ".forced_playouts_k", s.forced_playouts_k(), 0.0f, 100.0f);
  c.Range(p + ".gumbel_considered_moves", s.gumbel_considered_moves(), 2, 225);
  c.Range(p + ".gumbel_c_visit", s.gumbel_c_visit(), 0.0f, 1e6f);
  c.Range(p + ".gumbel_c_scale", s.gumbel_c_scale(), 0.0f, 100.0f);
  c.Range<int64_t>(p + ".opening_candidate_visits",
                   s.opening_candidate_visits(), 1, 1000000);
  c.Range(p + ".opening_max_candidates", s.opening_max_candidates(), 1, 225);
  c.Range(p + ".opening_swap2_place_two", s.opening_swap2_place_two(), 0.0f,
          1.0f);
  c.Merge(p, ToSearchParams(s).Validate());
}

void CheckEvaluator(Checker& c, const std::string& p,
                    const pb::EvaluatorConfig& e) {
  c.Range(p + ".max_batch_size", e.max_batch_size(), 1, 4096);
  c.Range(p + ".max_wait_us", e.max_wait_us(), 0, 1000000);
  c.Range(p + ".server_threads", e.server_threads(), 1, 64);
  c.Range(p + ".torch_threads", e.torch_threads(), 0, 256);
  c.Range<int64_t>(p + ".cache_entries", e.cache_entries(), 0, 100000000);
  CheckDevice(c, p + ".device", e.device());
  c.Require(
      e.precision() == "fp32" || e.precision() == "bf16" ||
          e.precision() == "fp16" || e.precision() == "auto",
      p + ".precision",
      absl::StrCat("'", e.precision(), "' is not fp32, bf16, fp16 or auto"));
  c.Require(e.precision() != "fp16" || e.device() != "cpu", p + ".precision",
            "fp16 needs a CUDA device, not cpu");
}

// `variant` and `board_size` are the run's, for the opening rules of the
// mix; an invalid variant was reported already.
void CheckSelfplay(Checker& c, const pb::SelfplayConfig& s,
                   const absl::StatusOr<Variant>& variant, int board_size) {
  c.Range("selfplay.concurrent_games", s.concurrent_games(), 1, 4096);
  CheckSearch(c, "selfplay.search", s.search());
  CheckEvaluator(c, "selfplay.evaluator", s.evaluator());
  const pb::OpeningMix& o = s.openings();
  c.Range("selfplay.openings.empty", o.empty(), 0.0f, 1e6f);
  c.Range("selfplay.openings.canonical", o.canonical(), 0.0f, 1e6f);
  c.Range("selfplay.openings.balanced", o.balanced(), 0.0f, 1e6f);
  double rule_weights = 0;
  std::set<std::string> rules;
  for (int i = 0; i < o.rules_size(); ++i) {
    const pb::OpeningRuleWeight& r = o.rules(i);
    const std::string path = absl::StrCat("selfplay.openings.rules[", i, "]");
    c.Range(path + ".weight", r.weight(), 0.0f, 1e6f);
    rule_weights += r.weight();
    absl::StatusOr<OpeningRule> rule = ParseOpeningRule(r.rule());
    c.Merge(path + ".rule", rule.status());
    if (!rule.ok()) continue;
    c.Require(rules.insert(OpeningRuleName(*rule)).second, path + ".rule",
              absl::StrCat(OpeningRuleName(*rule), " is in the mix twice"));
    if (variant.ok()) {
      c.Merge(path + ".rule",
              OpeningState::Create(*rule, *variant, board_size).status());
    }
  }
  c.Require(o.empty() + o.canonical() + o.balanced() + rule_weights > 0,
            "selfplay.openings", "all weights are 0");
  c.Range("selfplay.openings.balanced_moves", o.balanced_moves(), 1, 20);
  c.Range("selfplay.openings.balanced_radius", o.balanced_radius(), 1, 7);
  c.Range("selfplay.openings.balanced_max_value", o.balanced_max_value(), 0.0f,
          1.0f);
  c.Range("selfplay.resign_threshold", s.resign_threshold(), 0.0f, 0.5f);
  c.Range("selfplay.resign_consecutive_moves", s.resign_consecutive_moves(), 1,
          100);
  c.Range("selfplay.no_resign_fraction", s.no_resign_fraction(), 0.0f, 1.0f);
  c.Range("selfplay.max_plies", s.max_plies(), 1, 1000);
  c.Range("selfplay.upload_batch_games", s.upload_batch_games(), 1, 256);
  c.Range("selfplay.model_poll_seconds", s.model_poll_seconds(), 1, 3600);
  c.Range("selfplay.model_switch_delay_ms", s.model_switch_delay_ms(), 0,
          600000);
}

void CheckTrainer(Checker& c, const pb::TrainerConfig& t) {
  c.Range("trainer.batch_size", t.batch_size(), 1, 65536);
  c.Range("trainer.learning_rate", t.learning_rate(), 1e-6f, 10.0f);
  c.Range("trainer.warmup_steps", t.warmup_steps(), 0, 10000000);
  c.Range("trainer.lr_decay_factor", t.lr_decay_factor(), 0.01f, 1.0f);
  c.Range<int64_t>("trainer.lr_decay_every_steps", t.lr_decay_every_steps(), 0,
                   100000000);
  c.Range("trainer.momentum", t.momentum(), 0.0f, 0.999f);
  c.Range("trainer.weight_decay", t.weight_decay(), 0.0f, 0.1f);
  c.Range<int64_t>("trainer.window_c", t.window_c(), 100, 1000000000);
  c.Range("trainer.window_alpha", t.window_alpha(), 0.01f, 1.0f);
  c.Range("trainer.window_beta", t.window_beta(), 0.0f, 10.0f);
  c.Range<int64_t>("trainer.min_positions", t.min_positions(), 1, 1000000000);
  c.Range("trainer.samples_per_position", t.samples_per_position(), 0.1f,
          1000.0f);
  c.Range("trainer.steps_per_generation", t.steps_per_generation(), 1,
          10000000);
  c.Range("trainer.checkpoint_every_steps", t.checkpoint_every_steps(), 1,
          10000000);
  c.Range("trainer.policy_loss_weight", t.policy_loss_weight(), 0.0f, 100.0f);
  c.Range("trainer.value_loss_weight", t.value_loss_weight(), 0.0f, 100.0f);
  c.Range("trainer.torch_threads", t.torch_threads(), 0, 256);
  c.Range("trainer.log_every_steps", t.log_every_steps(), 1, 1000000);
  c.Range<int64_t>("trainer.selfplay_lead_positions",
                   t.selfplay_lead_positions(), 0, 1000000000);
  c.Range("trainer.opponent_policy_loss_weight",
          t.opponent_policy_loss_weight(), 0.0f, 100.0f);
  c.Range("trainer.short_value_loss_weight", t.short_value_loss_weight(), 0.0f,
          100.0f);
  c.Range("trainer.short_value_horizon_plies", t.short_value_horizon_plies(),
          1.0f, 1000.0f);
  c.Range("trainer.ema_decay", t.ema_decay(), 0.0f, 0.99999f);
  CheckDevice(c, "trainer.device", t.device());
}

// Anchor names become folder names (matches/gen<N>-vs-<name>).
bool IsAnchorName(const std::string& name) {
  if (name.empty() || name.size() > 64 || name == "." || name == "..") {
    return false;
  }
  for (char ch : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(ch)) &&
        std::string("._@+-").find(ch) == std::string::npos) {
      return false;
    }
  }
  return true;
}

void CheckAnchor(Checker& c, const std::string& p, const pb::AnchorPlayer& a) {
  c.Require(
      IsAnchorName(a.name()), p + ".name",
      absl::StrCat("'", a.name(), "' must be 1..64 letters, digits or ._@+-"));
  switch (a.player_case()) {
    case pb::AnchorPlayer::kTactical:
      break;
    case pb::AnchorPlayer::kModel:
      c.Require(!a.model().path().empty(), p + ".model.path",
                "must name a checkpoint");
      c.Range<int64_t>(p + ".model.visits", a.model().visits(), 1, 10000000);
      break;
    case pb::AnchorPlayer::kEngine: {
      const pb::EngineAnchor& e = a.engine();
      c.Require(!absl::StripAsciiWhitespace(e.command()).empty(),
                p + ".engine.command", "must be a command line");
      c.Range<int64_t>(p + ".engine.turn_time_ms", e.turn_time_ms(), 0,
                       3600000);
      c.Range<int64_t>(p + ".engine.match_time_ms", e.match_time_ms(), 0,
                       86400000);
      c.Range<int64_t>(p + ".engine.max_memory_bytes", e.max_memory_bytes(), 0,
                       int64_t{1} << 40);
      c.Range<int64_t>(p + ".engine.startup_ms", e.startup_ms(), 0, 3600000);
      break;
    }
    case pb::AnchorPlayer::PLAYER_NOT_SET:
      c.Require(false, p, "set one of tactical, model or engine");
      break;
  }
  if (a.has_elo()) c.Range(p + ".elo", a.elo(), -100000.0, 100000.0);
}

void CheckAnchors(Checker& c, const pb::ArenaConfig& a) {
  c.Range("arena.anchor_games", a.anchor_games(), 2, 100000);
  c.Require(
      a.anchor_games() % 2 == 0, "arena.anchor_games",
      absl::StrCat(a.anchor_games(), " is odd: each opening is played twice"));
  c.Range("arena.anchor_every_generations", a.anchor_every_generations(), 1,
          100000);
  std::set<std::string> names;
  bool fixed = false;
  for (int i = 0; i < a.anchors_size(); ++i) {
    const pb::AnchorPlayer& anchor = a.anchors(i);
    const std::string path = absl::StrCat("arena.anchors[", i, "]");
    CheckAnchor(c, path, anchor);
    c.Require(names.insert(anchor.name()).second, path + ".name",
              absl::StrCat("'", anchor.name(), "' is used twice"));
    fixed |= anchor.has_elo();
  }
  c.Require(a.anchors_size() == 0 || fixed, "arena.anchors",
            "no anchor has a fixed elo: give at least one an elo so the "
            "ratings have a scale");
}

void CheckArena(Checker& c, const pb::ArenaConfig& a) {
  c.Range("arena.games", a.games(), 2, 100000);
  c.Require(a.games() % 2 == 0, "arena.games",
            absl::StrCat(a.games(), " is odd: each opening is played twice"));
  c.Range("arena.concurrent_games", a.concurrent_games(), 1, 4096);
  CheckSearch(c, "arena.search", a.search());
  c.Require(a.sprt_elo0() < a.sprt_elo1(), "arena.sprt_elo0",
            absl::StrCat(a.sprt_elo0(), " must be below sprt_elo1 (",
                         a.sprt_elo1(), ")"));
  c.Check(CheckSprtErrorRate("arena.sprt_alpha", a.sprt_alpha()));
  c.Check(CheckSprtErrorRate("arena.sprt_beta", a.sprt_beta()));
  c.Range("arena.promote_score", a.promote_score(), 0.0, 1.0);
  CheckAnchors(c, a);
}

void CheckServer(Checker& c, const pb::ServerConfig& s) {
  CheckEvaluator(c, "server.evaluator", s.evaluator());
  CheckSearch(c, "server.search", s.search());
  c.Range<int64_t>("server.max_visits", s.max_visits(), 1, 10000000);
  c.Range<int64_t>("server.max_time_ms", s.max_time_ms(), 1, 600000);
  c.Range("server.max_evaluate_positions", s.max_evaluate_positions(), 1, 4096);
  c.Range("server.max_candidates", s.max_candidates(), 1, 225);
  c.Range("server.max_searches_per_client", s.max_searches_per_client(), 1,
          1024);
  c.Range("server.max_searches", s.max_searches(), 1, 4096);
  c.Range("server.model_poll_seconds", s.model_poll_seconds(), 1, 3600);
  c.Range("server.tree_cache_trees", s.tree_cache_trees(), 0, 1024);
  c.Range("server.tree_cache_seconds", s.tree_cache_seconds(), 1, 86400);
  c.Range<int64_t>("server.tree_cache_visits", s.tree_cache_visits(), 1,
                   100000000);
}

void CheckGomocup(Checker& c, const pb::GomocupConfig& g) {
  c.Range<int64_t>("gomocup.ponder_max_visits", g.ponder_max_visits(), 1,
                   100000000);
}

}  // namespace

absl::StatusOr<pb::RunConfig> ParseRunConfig(absl::string_view text,
                                             absl::string_view source) {
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  pb::RunConfig config;
  if (!parser.ParseFromString(std::string(text), &config)) {
    return absl::InvalidArgumentError(
        absl::StrCat("config ", source, ": ",
                     errors.found() ? errors.text() : "cannot parse"));
  }
  if (absl::Status s = ValidateRunConfig(config); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config ", source, ": ", s.message()));
  }
  return config;
}

absl::StatusOr<pb::RunConfig> OverrideRunConfig(pb::RunConfig config,
                                                absl::string_view text,
                                                absl::string_view source) {
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  // Parse, not Merge, so that a field named twice in the text is an error;
  // MergeFrom then layers the parsed fields over the config.
  pb::RunConfig overrides;
  if (!parser.ParseFromString(std::string(text), &overrides)) {
    return absl::InvalidArgumentError(
        absl::StrCat("config override ", source, ": ",
                     errors.found() ? errors.text() : "cannot parse"));
  }
  config.MergeFrom(overrides);
  if (absl::Status s = ValidateRunConfig(config); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config override ", source, ": ", s.message()));
  }
  return config;
}

absl::StatusOr<pb::RunConfig> LoadRunConfig(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    return absl::NotFoundError(absl::StrCat("config ", path, ": cannot read"));
  }
  return ParseRunConfig(*text, path);
}

absl::Status ValidateRunConfig(const pb::RunConfig& config) {
  Checker c;
  absl::StatusOr<Variant> variant = ParseVariant(config.variant());
  c.Merge("variant", variant.status());
  if (variant.ok()) {
    c.Merge("board_size", ValidateBoardSize(*variant, config.board_size()));
  }
  c.Range<int64_t>("seed", config.seed(), 0, INT64_MAX);
  c.Require(!config.name().empty(), "name", "must not be empty");
  c.Range("network.encoding_version", config.network().encoding_version(),
          kMinEncodingVersion, kMaxEncodingVersion);
  if (c.status().ok()) {
    c.Merge("network", ToNetworkConfig(config).Validate());
  }
  CheckSelfplay(c, config.selfplay(), variant, config.board_size());
  CheckTrainer(c, config.trainer());
  CheckArena(c, config.arena());
  CheckServer(c, config.server());
  CheckGomocup(c, config.gomocup());
  const pb::LauncherConfig& l = config.launcher();
  c.Range("launcher.workers", l.workers(), 1, 64);
  c.Range("launcher.generations", l.generations(), 1, 100000);
  c.Range("launcher.final_match_games", l.final_match_games(), 0, 100000);
  c.Range("launcher.max_cpu_minutes", l.max_cpu_minutes(), 0.0, 1e7);
  c.Require(l.final_match_games() % 2 == 0, "launcher.final_match_games",
            "must be even: each opening is played twice");
  return c.status();
}

std::string RunConfigText(const pb::RunConfig& config) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(config, &text);
  return text;
}

Variant VariantOf(const pb::RunConfig& config) {
  absl::StatusOr<Variant> v = ParseVariant(config.variant());
  return v.ok() ? *v : Variant::kRenju;
}

NetworkConfig ToNetworkConfig(const pb::RunConfig& config) {
  const pb::NetworkShape& n = config.network();
  NetworkConfig out;
  out.board_size = config.board_size();
  out.blocks = n.blocks();
  out.channels = n.channels();
  out.global_pool_every = n.global_pool_every();
  out.global_pool_channels = n.global_pool_channels();
  out.policy_channels = n.policy_channels();
  out.value_channels = n.value_channels();
  out.value_hidden = n.value_hidden();
  out.aux_heads = n.aux_heads();
  out.encoding_version = n.encoding_version();
  return out;
}

SearchParams ToSearchParams(const pb::SearchConfig& s) {
  SearchParams p;
  p.max_visits = s.visits();
  p.max_time_ms = s.time_ms();
  p.num_threads = s.threads();
  p.virtual_loss = s.virtual_loss();
  p.minibatch_size = s.has_minibatch_size() ? s.minibatch_size() : 1;
  p.max_collisions = s.max_collisions();
  p.c_puct = s.c_puct();
  p.c_puct_log = s.c_puct_log();
  p.c_puct_base = s.c_puct_base();
  p.fpu_reduction = s.fpu_reduction();
  p.root_fpu_reduction = s.root_fpu_reduction();
  p.root_noise = s.root_noise();
  p.dirichlet_alpha_total = s.dirichlet_alpha_total();
  p.dirichlet_weight = s.dirichlet_weight();
  p.temperature_early = s.temperature_early();
  p.temperature_final = s.temperature_final();
  p.temperature_halflife_plies = s.temperature_halflife_plies();
  p.tactics = s.tactics();
  p.vcf = s.vcf();
  p.defend_vcf = s.defend_vcf();
  p.defend_vcf_in_tree = s.defend_vcf_in_tree();
  p.centre_first_stone = s.centre_first_stone();
  p.vcf_max_nodes_root = s.vcf_max_nodes_root();
  p.vcf_max_nodes = s.vcf_max_nodes();
  p.vcf_max_depth = s.vcf_max_depth();
  p.vct_max_nodes_root = s.vct_max_nodes_root();
  p.vct_max_depth = s.vct_max_depth();
  p.vct_time_share = s.vct_time_share();
  p.defend_vct = s.defend_vct();
  p.playout_cap_randomisation = s.playout_cap_randomisation();
  p.full_search_probability = s.full_search_probability();
  p.cheap_visits = s.cheap_visits();
  p.forced_playouts_k = s.forced_playouts_k();
  p.policy_target_pruning = s.policy_target_pruning();
  p.gumbel_root = s.gumbel_root();
  p.gumbel_considered_moves = s.gumbel_considered_moves();
  p.gumbel_c_visit = s.gumbel_c_visit();
  p.gumbel_c_scale = s.gumbel_c_scale();
  return p;
}

SearchParams ToPlayTimeSearchParams(const pb::SearchConfig& s) {
  SearchParams p = ToSearchParams(s);
  if (!s.has_minibatch_size()) p.minibatch_size = kPlayTimeMinibatchSize;
  return p;
}

pb::EvaluatorConfig ToPlayTimeEvaluatorConfig(const pb::EvaluatorConfig& e) {
  pb::EvaluatorConfig out = e;
  if (!e.has_precision()) out.set_precision("auto");
  return out;
}

OpeningParams ToOpeningParams(const pb::SearchConfig& s) {
  OpeningParams p;
  p.candidate_visits = s.opening_candidate_visits();
  p.max_candidates = s.opening_max_candidates();
  p.swap2_place_two_share = s.opening_swap2_place_two();
  return p;
}

BatchedEvaluatorOptions ToEvaluatorOptions(const pb::EvaluatorConfig& e) {
  BatchedEvaluatorOptions out;
  out.max_batch_size = e.max_batch_size();
  out.max_wait_us = e.max_wait_us();
  return out;
}

}  // namespace renju
