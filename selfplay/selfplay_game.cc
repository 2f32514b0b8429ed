#include "selfplay/selfplay_game.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "config/config.h"
#include "rpc/game_record.h"
#include "rules/opening.h"
#include "search/search.h"
#include "search/stoppers.h"
#include "selfplay/openings.h"

namespace renju {
namespace {

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Target probabilities below this are dropped and the rest renormalised.
// Visit-share targets never have any (1/visits is far larger); the Gumbel
// root's improved policy gives every legal point some mass, and keeping
// about 200 near-zero entries a ply would multiply the size of records,
// uploads and the replay window for no signal.
constexpr float kMinTargetProbability = 1e-3f;

void RecordTarget(const SearchResult& result, int size, pb::SearchTarget* t) {
  t->set_root_win(result.win);
  t->set_root_draw(result.draw);
  t->set_root_loss(result.loss);
  t->set_visits(static_cast<int32_t>(result.total_visits));
  t->set_full_search(result.full_search);
  if (!result.full_search) return;
  double kept = 0;
  for (float p : result.policy_target) {
    if (p >= kMinTargetProbability) kept += p;
  }
  for (int i = 0; i < static_cast<int>(result.policy_target.size()); ++i) {
    if (result.policy_target[i] >= kMinTargetProbability) {
      t->add_policy_points(i);
      t->add_policy_probs(static_cast<float>(result.policy_target[i] / kept));
    }
  }
  // A root with only a pass has no point target: keep it a value target.
  if (t->policy_points_size() == 0) t->set_full_search(false);
}

// Tracks the resignation rule for both sides.
class ResignTracker {
 public:
  ResignTracker(const SelfplaySettings& s) : settings_(s) {}
  // True when `side`, to move with win probability `win`, should resign.
  bool Update(Color side, float win) {
    int& run = low_moves_[Index(side)];
    run = (settings_.resign_threshold > 0 && win < settings_.resign_threshold)
              ? run + 1
              : 0;
    return run >= settings_.resign_consecutive_moves;
  }

 private:
  const SelfplaySettings& settings_;
  int low_moves_[kNumColors] = {0, 0};
};

// Both sides' opening actions under `rule`, by the opening player.
absl::StatusOr<OpeningState> PlayOpeningPhase(const SelfplaySettings& settings,
                                              OpeningRule rule,
                                              Evaluator& evaluator, Random& rng,
                                              const std::atomic<bool>* stop) {
  absl::StatusOr<OpeningState> state =
      OpeningState::Create(rule, settings.variant, settings.board_size);
  if (!state.ok()) return state.status();
  OpeningPlayer player(settings.search, settings.opening_player, evaluator);
  FlagStopper stopper(stop);
  auto decide = [&](const OpeningState& s) -> absl::StatusOr<OpeningAction> {
    absl::StatusOr<OpeningDecision> decision =
        player.Decide(s, rng, stop != nullptr ? &stopper : nullptr);
    if (!decision.ok()) return decision.status();
    return decision->action;
  };
  if (absl::Status s = PlayOpening(*state, decide, stop); !s.ok()) return s;
  return state;
}

}  // namespace

SelfplaySettings SelfplaySettingsFrom(const pb::RunConfig& config) {
  SelfplaySettings s;
  s.variant = VariantOf(config);
  s.board_size = config.board_size();
  s.search = ToSearchParams(config.selfplay().search());
  s.openings = config.selfplay().openings();
  s.opening_player = ToOpeningParams(config.selfplay().search());
  s.max_plies = config.selfplay().max_plies();
  s.resign_threshold = config.selfplay().resign_threshold();
  s.resign_consecutive_moves = config.selfplay().resign_consecutive_moves();
  s.no_resign_fraction = config.selfplay().no_resign_fraction();
  return s;
}

namespace {

// The game's start: the opening rule's phase or a book line, each ply written
// to the record, which marks where the searched plies begin.
absl::StatusOr<Game> PlayOpening(const SelfplaySettings& settings,
                                 Evaluator& evaluator, Random& rng,
                                 const std::atomic<bool>* stop,
                                 pb::GameRecord& record) {
  absl::StatusOr<OpeningChoice> opening =
      ChooseOpening(settings.openings, settings.variant, settings.board_size,
                    rng, &evaluator);
  if (!opening.ok()) return opening.status();
  record.set_opening(opening->name);
  Game start(settings.variant, settings.board_size);
  if (opening->rule.has_value()) {
    absl::StatusOr<OpeningState> phase =
        PlayOpeningPhase(settings, *opening->rule, evaluator, rng, stop);
    if (!phase.ok()) return phase.status();
    start = phase->game();
    SetOpening(*phase, settings.board_size, record);
  }
  for (Move m : opening->moves) {
    if (absl::Status s = start.Play(m); !s.ok()) return s;
  }
  for (Move m : start.moves()) {
    record.add_plies()->set_move(MoveIndex(m, settings.board_size));
  }
  record.set_opening_plies(record.plies_size());
  return start;
}

}  // namespace

absl::StatusOr<pb::GameRecord> PlaySelfplayGame(
    const SelfplaySettings& settings, Evaluator& evaluator, Random& rng,
    const std::string& uid, const std::atomic<bool>* stop) {
  pb::GameRecord record;
  record.set_uid(uid);
  record.set_variant(ToProto(settings.variant));
  record.set_board_size(settings.board_size);
  record.set_worker_id(settings.worker_id);
  record.set_model_generation(settings.model_generation);
  const bool may_resign = rng.Uniform() >= settings.no_resign_fraction;
  record.set_resignation_disabled(!may_resign);

  absl::StatusOr<Game> start =
      PlayOpening(settings, evaluator, rng, stop, record);
  if (!start.ok()) return start.status();

  Search search(settings.search, evaluator, *start);
  const Game& game = search.game();  // advanced by search.Advance
  FlagStopper stopper(stop);
  RunOptions options;
  if (stop != nullptr) options.stopper = &stopper;
  ResignTracker resign(settings);
  bool resigned = false;
  while (!game.over() && game.ply() < settings.max_plies) {
    if (stop != nullptr && stop->load()) {
      return absl::CancelledError("self-play stopped");
    }
    absl::StatusOr<SearchResult> result = search.Run(rng, options);
    if (!result.ok()) return result.status();
    const Color side = game.side_to_move();
    if (resign.Update(side, result->win)) {
      if (may_resign) {
        resigned = true;
        record.set_result(side == Color::kBlack ? pb::WHITE_WIN
                                                : pb::BLACK_WIN);
        record.set_end_reason(pb::RESIGNATION);
        break;
      }
      if (record.would_resign_ply() == 0) {
        record.set_would_resign_ply(game.ply() + 1);
        record.set_would_resign_color(side == Color::kBlack ? pb::BLACK
                                                            : pb::WHITE);
      }
    }
    // A Gumbel root's winner is already a sample: ChooseMove plays it.
    const Move move = ChooseMove(*result, settings.search, game.ply(), rng);
    pb::GamePly* ply = record.add_plies();
    ply->set_move(MoveIndex(move, settings.board_size));
    RecordTarget(*result, settings.board_size, ply->mutable_target());
    if (absl::Status s = search.Advance(move); !s.ok()) return s;
  }

  if (resigned) {
    // Result set above.
  } else if (game.over()) {
    record.set_result(ToProto(game.result()));
    record.set_end_reason(ToProto(game.end_reason()));
  } else {
    record.set_result(pb::DRAW);
    record.set_end_reason(pb::MOVE_CAP);
  }
  record.set_finished_unix_ms(NowUnixMs());
  return record;
}

}  // namespace renju
