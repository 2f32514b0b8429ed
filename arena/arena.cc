#include "arena/arena.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <system_error>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "base/file_util.h"
#include "base/logging.h"
#include "base/random.h"
#include "rpc/game_record.h"
#include "rules/canonical_openings.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/symmetry.h"

namespace renju {
namespace {

std::string EndReasonKey(pb::EndReason reason) {
  return absl::AsciiStrToLower(pb::EndReason_Name(reason));
}

// The opening of pair `pair`: the list in order, then again under the
// other board symmetries.
ArenaOpening OpeningOfPair(const std::vector<ArenaOpening>& openings,
                           int64_t pair, int size) {
  const int64_t n = static_cast<int64_t>(openings.size());
  const ArenaOpening& base = openings[pair % n];
  const Symmetry s = static_cast<Symmetry>((pair / n) % kNumSymmetries);
  if (s == kIdentity) return base;
  return {ApplySymmetry(s, base.moves, size), absl::StrCat(base.name, "/s", s)};
}

// The record's header and the opening's plies.
void StartRecord(const ArenaOptions& options, const ArenaOpening& opening,
                 int64_t index, pb::GameRecord& record) {
  record.set_uid(absl::StrFormat("game-%05d", index));
  record.set_variant(ToProto(options.variant));
  record.set_board_size(options.board_size);
  record.set_worker_id("arena");
  record.set_opening(opening.name);
  record.set_opening_plies(static_cast<int32_t>(opening.moves.size()));
  for (Move m : opening.moves) {
    record.add_plies()->set_move(MoveIndex(m, options.board_size));
  }
}

// The result as the rules (or a fault) decided it, or a draw at the cap.
void FinishRecord(const Game& board, pb::GameRecord& record) {
  if (board.over()) {
    record.set_result(ToProto(board.result()));
    record.set_end_reason(ToProto(board.end_reason()));
  } else {
    record.set_result(pb::DRAW);
    record.set_end_reason(pb::MOVE_CAP);
  }
  record.set_finished_unix_ms(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// Plays `board` on to its end (the rules, a fault or the move cap), the
// players by colour, adding the plies to game.record and its result.
absl::Status PlayOn(const ArenaOptions& options, Game board,
                    GamePlayer* const sides[kNumColors],
                    ArenaPlayer* const players[kNumColors], ArenaGame& game,
                    const std::atomic<bool>* stop) {
  pb::GameRecord& record = game.record;
  while (!board.over() && board.ply() < options.max_plies) {
    if (stop != nullptr && stop->load()) return absl::CancelledError("stopped");
    const Color side = board.side_to_move();
    absl::StatusOr<PlayerMove> answer = sides[Index(side)]->Play(board, stop);
    if (!answer.ok()) return answer.status();
    if (stop != nullptr && stop->load()) return absl::CancelledError("stopped");
    if (answer->fault != EngineFault::kNone) {
      game.fault = answer->fault;
      game.fault_by_a = (side == Color::kBlack) == game.a_is_black;
      game.fault_message = answer->fault_message;
      if (answer->fault == EngineFault::kTimedOut) {
        board.LoseOnTime(side);
      } else {
        board.Resign(side);
      }
      break;
    }
    if (absl::Status s = board.Play(answer->move); !s.ok()) {
      return absl::InternalError(absl::StrCat(
          "player ", players[Index(side)]->name(), " chose a move the game ",
          record.uid(), " cannot take: ", s.message()));
    }
    record.add_plies()->set_move(MoveIndex(answer->move, options.board_size));
  }
  FinishRecord(board, record);
  return absl::OkStatus();
}

// Plays one game from `opening` between `black` and `white`.
absl::StatusOr<ArenaGame> PlayArenaGame(const ArenaOptions& options,
                                        const ArenaOpening& opening,
                                        ArenaPlayer& black, ArenaPlayer& white,
                                        ArenaGame game,
                                        const std::atomic<bool>* stop) {
  absl::StatusOr<Game> start =
      Game::FromMoves(options.variant, options.board_size, opening.moves);
  if (!start.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("opening ", opening.name, ": ", start.status().message()));
  }
  StartRecord(options, opening, game.index, game.record);

  Random seeds(options.seed, static_cast<uint64_t>(game.index));
  ArenaPlayer* const players[kNumColors] = {&black, &white};
  std::unique_ptr<GamePlayer> sides[kNumColors];
  for (int c = 0; c < kNumColors; ++c) {
    absl::StatusOr<std::unique_ptr<GamePlayer>> side =
        players[c]->NewGame(*start, seeds.NextUint64());
    if (!side.ok()) return side.status();
    sides[c] = std::move(*side);
  }
  GamePlayer* const by_colour[kNumColors] = {sides[0].get(), sides[1].get()};
  if (absl::Status s =
          PlayOn(options, *std::move(start), by_colour, players, game, stop);
      !s.ok()) {
    return s;
  }
  return game;
}

// Plays one game under options.opening_rule from the empty board, `first`
// as the first player; each player takes its own opening actions.
absl::StatusOr<ArenaGame> PlayRuleGame(const ArenaOptions& options,
                                       ArenaPlayer& first, ArenaPlayer& second,
                                       ArenaGame game,
                                       const std::atomic<bool>* stop) {
  absl::StatusOr<OpeningState> state = OpeningState::Create(
      *options.opening_rule, options.variant, options.board_size);
  if (!state.ok()) return state.status();
  pb::GameRecord& record = game.record;
  const ArenaOpening empty{{}, OpeningRuleName(*options.opening_rule)};
  StartRecord(options, empty, game.index, record);

  Random seeds(options.seed, static_cast<uint64_t>(game.index));
  ArenaPlayer* const players[2] = {&first, &second};  // by Player
  std::unique_ptr<GamePlayer> sides[2];
  for (int p = 0; p < 2; ++p) {
    absl::StatusOr<std::unique_ptr<GamePlayer>> side =
        players[p]->NewGame(state->game(), seeds.NextUint64());
    if (!side.ok()) return side.status();
    sides[p] = std::move(*side);
  }
  const bool a_first = game.index % 2 == 0;
  auto decide = [&](const OpeningState& s) -> absl::StatusOr<OpeningAction> {
    const Player p = s.to_act();
    SwapCount& swaps =
        (p == Player::kFirst) == a_first ? game.swaps_a : game.swaps_b;
    absl::StatusOr<OpeningAction> action =
        sides[static_cast<int>(p)]->Opening(s, stop);
    if (!action.ok()) return action;
    if (s.Allows(OpeningActionKind::kSwap)) ++swaps.options;
    if (action->kind == OpeningActionKind::kSwap) ++swaps.swaps;
    return action;
  };
  if (absl::Status s = PlayOpening(*state, decide, stop); !s.ok()) {
    if (!absl::IsInternal(s)) return s;
    return absl::InternalError(absl::StrCat("game ", record.uid(), " (first ",
                                            first.name(), ", second ",
                                            second.name(), "): ", s.message()));
  }
  for (int p = 0; p < 2; ++p) {
    const std::string fallback = sides[p]->OpeningFallback();
    if (fallback.empty()) continue;
    ++((p == 0) == a_first ? game.swaps_a : game.swaps_b).fallback_games;
    RENJU_LOG(INFO) << "arena: " << players[p]->name() << " took the "
                    << OpeningRuleName(*options.opening_rule) << " defaults in "
                    << record.uid() << ": " << fallback;
  }
  SetOpening(*state, options.board_size, record);
  for (Move m : state->game().moves()) {
    record.add_plies()->set_move(MoveIndex(m, options.board_size));
  }
  const int black = static_cast<int>(state->black_player());
  game.a_is_black = (black == 0) == a_first;
  GamePlayer* const by_colour[kNumColors] = {sides[black].get(),
                                             sides[1 - black].get()};
  ArenaPlayer* const names[kNumColors] = {players[black], players[1 - black]};
  if (absl::Status s =
          PlayOn(options, state->game(), by_colour, names, game, stop);
      !s.ok()) {
    return s;
  }
  return game;
}

// Writes the game as .game and .psq (a game with a pass has no .psq).
absl::Status WriteArenaGame(const std::string& dir, const ArenaGame& game) {
  const pb::GameRecord& record = game.record;
  const std::string base = (std::filesystem::path(dir) / record.uid()).string();
  if (absl::Status s =
          WriteFileAtomically(base + ".game", record.SerializeAsString());
      !s.ok()) {
    return s;
  }
  GameRecord psq;
  psq.size = record.board_size();
  for (const pb::GamePly& ply : record.plies()) {
    if (ply.move() < 0) return absl::OkStatus();
    psq.moves.push_back(Move::At(PointAt(ply.move(), psq.size)));
  }
  absl::StatusOr<std::string> text = WritePsq(psq);
  if (!text.ok()) return text.status();
  return WriteFileAtomically(base + ".psq", *text);
}

// The match in progress: the shared state of the game threads.
class Match {
 public:
  Match(const ArenaOptions& options, ArenaPlayer& a, ArenaPlayer& b,
        const ArenaCallbacks& callbacks)
      : options_(options), a_(a), b_(b), callbacks_(callbacks) {
    summary_.player_a = a.name();
    summary_.player_b = b.name();
    summary_.max_games = options.max_games;
    summary_.sprt = options.sprt;
    if (options.opening_rule.has_value()) {
      summary_.opening_rule = OpeningRuleName(*options.opening_rule);
    }
  }

  absl::StatusOr<ArenaSummary> Run(const std::atomic<bool>* stop);

 private:
  void PlayGames();
  absl::Status PlayOne(int64_t index);
  // Takes a finished game; counts its pair when both games are in.
  absl::Status Finish(ArenaGame game);
  void CountPair(const ArenaGame& first, const ArenaGame& second)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void CountGame(const ArenaGame& game) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const ArenaOptions& options_;
  ArenaPlayer& a_;
  ArenaPlayer& b_;
  const ArenaCallbacks& callbacks_;
  const std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
  std::atomic<int64_t> next_game_{0};
  std::atomic<bool> stop_{false};  // any reason: caller, SPRT, error

  absl::Mutex mutex_;
  ArenaSummary summary_ ABSL_GUARDED_BY(mutex_);
  std::map<int64_t, ArenaGame> unpaired_ ABSL_GUARDED_BY(mutex_);
  absl::Status error_ ABSL_GUARDED_BY(mutex_);
};

absl::Status Match::PlayOne(int64_t index) {
  if (options_.opening_rule.has_value()) {
    ArenaGame game;
    game.index = index;
    game.opening = OpeningRuleName(*options_.opening_rule);
    ArenaPlayer& first = index % 2 == 0 ? a_ : b_;
    ArenaPlayer& second = index % 2 == 0 ? b_ : a_;
    absl::StatusOr<ArenaGame> played =
        PlayRuleGame(options_, first, second, std::move(game), &stop_);
    if (absl::IsCancelled(played.status())) return absl::OkStatus();
    if (!played.ok()) return played.status();
    return Finish(*std::move(played));
  }
  const int64_t pair = index / 2;
  const ArenaOpening opening =
      OpeningOfPair(options_.openings, pair, options_.board_size);
  ArenaGame game;
  game.index = index;
  game.a_is_black = index % 2 == 0;
  game.opening = opening.name;
  ArenaPlayer& black = game.a_is_black ? a_ : b_;
  ArenaPlayer& white = game.a_is_black ? b_ : a_;
  absl::StatusOr<ArenaGame> played =
      PlayArenaGame(options_, opening, black, white, std::move(game), &stop_);
  if (absl::IsCancelled(played.status())) return absl::OkStatus();
  if (!played.ok()) return played.status();
  return Finish(*std::move(played));
}

void Match::PlayGames() {
  for (;;) {
    if (stop_.load()) return;
    const int64_t index = next_game_.fetch_add(1);
    if (index >= options_.max_games) return;
    if (absl::Status s = PlayOne(index); !s.ok()) {
      absl::MutexLock lock(&mutex_);
      if (error_.ok()) error_ = s;
      stop_ = true;
      return;
    }
  }
}

absl::Status Match::Finish(ArenaGame game) {
  absl::MutexLock lock(&mutex_);
  const int64_t partner = game.index ^ 1;
  auto it = unpaired_.find(partner);
  if (it == unpaired_.end()) {
    unpaired_.emplace(game.index, std::move(game));
    return absl::OkStatus();
  }
  ArenaGame other = std::move(it->second);
  unpaired_.erase(it);
  // The pair in index order: A black first, or A the first player.
  const bool game_first = game.index % 2 == 0;
  const ArenaGame& first = game_first ? game : other;
  const ArenaGame& second = game_first ? other : game;
  if (!options_.out_dir.empty()) {
    for (const ArenaGame* g : {&first, &second}) {
      if (absl::Status s = WriteArenaGame(options_.out_dir, *g); !s.ok()) {
        return s;
      }
    }
  }
  CountPair(first, second);
  if (callbacks_.on_pair) callbacks_.on_pair(summary_);
  if (callbacks_.on_game) {
    callbacks_.on_game(first);
    callbacks_.on_game(second);
  }
  return absl::OkStatus();
}

void Match::CountGame(const ArenaGame& game) {
  ++summary_.games;
  ColourRecord& record = game.a_is_black ? summary_.a_black : summary_.a_white;
  const double score = game.a_score();
  record.wins += score == 1.0;
  record.draws += score == 0.5;
  record.losses += score == 0.0;
  ++summary_.end_reasons[EndReasonKey(game.record.end_reason())];
  for (const auto& [from, to] : {std::pair{&game.swaps_a, &summary_.swaps_a},
                                 std::pair{&game.swaps_b, &summary_.swaps_b}}) {
    to->options += from->options;
    to->swaps += from->swaps;
    to->fallback_games += from->fallback_games;
  }
  if (game.fault != EngineFault::kNone) {
    auto& faults = game.fault_by_a ? summary_.faults_a : summary_.faults_b;
    ++faults[static_cast<int>(game.fault)];
    RENJU_LOG(INFO) << "arena: "
                    << (game.fault_by_a ? summary_.player_a : summary_.player_b)
                    << " lost " << game.record.uid()
                    << " by a fault: " << game.fault_message;
  }
}

void Match::CountPair(const ArenaGame& first, const ArenaGame& second) {
  CountGame(first);
  CountGame(second);
  summary_.pentanomial.AddPair(first.a_score(), second.a_score());
  summary_.elo = EstimateElo(summary_.pentanomial);
  summary_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
          .count();
  if (!summary_.sprt.has_value()) return;
  summary_.llr = SprtLlr(summary_.pentanomial, *summary_.sprt);
  summary_.decision = SprtDecide(summary_.llr, *summary_.sprt);
  if (summary_.decision != SprtDecision::kContinue) stop_ = true;
}

absl::StatusOr<ArenaSummary> Match::Run(const std::atomic<bool>* stop) {
  std::vector<std::thread> threads;
  const int64_t num_threads =
      std::min<int64_t>(options_.concurrent_games, options_.max_games);
  for (int64_t t = 0; t < num_threads; ++t) {
    threads.emplace_back([this] { PlayGames(); });
  }
  // Folds the caller's flag into ours, which searches and games watch.
  std::atomic<bool> done{false};
  bool interrupted = false;
  std::thread watcher([&] {
    while (!done.load()) {
      if (stop != nullptr && stop->load() && !stop_.load()) {
        interrupted = true;
        stop_ = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  for (std::thread& t : threads) t.join();
  done = true;
  watcher.join();

  absl::MutexLock lock(&mutex_);
  if (!error_.ok()) return error_;
  summary_.discarded_games = static_cast<int64_t>(unpaired_.size());
  summary_.stop_reason = summary_.decision != SprtDecision::kContinue ? "sprt"
                         : interrupted || summary_.games < options_.max_games
                             ? "interrupted"
                             : "completed";
  summary_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
          .count();
  return summary_;
}

}  // namespace

std::vector<ArenaOpening> CanonicalArenaOpenings(uint64_t seed, int size) {
  std::vector<ArenaOpening> openings;
  Random rng(seed, /*stream=*/0x0be7);
  // The openings sit in the central 5 x 5 of 15 x 15; move them to the
  // centre of another board.
  const int shift = size / 2 - kRenjuBoardSize / 2;
  for (int i = 0; i < kNumCanonicalOpenings; ++i) {
    const Symmetry s = static_cast<Symmetry>(rng.UniformInt(kNumSymmetries));
    std::vector<Move> moves;
    for (Move m : ApplySymmetry(s, CanonicalOpeningMoves(i), kRenjuBoardSize)) {
      moves.push_back(
          Move::At(Point(m.point().x + shift, m.point().y + shift)));
    }
    openings.push_back(
        {std::move(moves),
         absl::StrCat("canonical:", CanonicalOpenings()[i].name)});
  }
  return openings;
}

absl::StatusOr<std::vector<ArenaOpening>> ArenaOpeningsFromFile(
    const std::string& path, const OpeningFormat& format) {
  absl::StatusOr<std::vector<Opening>> read = ReadOpeningFile(path, format);
  if (!read.ok()) return read.status();
  const std::string file = std::filesystem::path(path).filename().string();
  std::vector<ArenaOpening> openings;
  for (size_t i = 0; i < read->size(); ++i) {
    openings.push_back({(*read)[i], absl::StrCat(file, "#", i + 1)});
  }
  return openings;
}

absl::Status ArenaOptions::Validate() const {
  if (absl::Status s = ValidateBoardSize(variant, board_size); !s.ok()) {
    return s;
  }
  if (opening_rule.has_value()) {
    absl::StatusOr<OpeningState> state =
        OpeningState::Create(*opening_rule, variant, board_size);
    if (!state.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("arena: opening_rule: ", state.status().message()));
    }
  } else if (openings.empty()) {
    return absl::InvalidArgumentError("arena: no openings to play");
  }
  if (max_games < 2 || max_games % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "arena: max_games = ", max_games,
        " must be even and at least 2 (each opening is played twice)"));
  }
  if (concurrent_games < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "arena: concurrent_games = ", concurrent_games, " must be at least 1"));
  }
  if (max_plies < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("arena: max_plies = ", max_plies, " must be at least 1"));
  }
  if (sprt.has_value()) return sprt->Validate();
  return absl::OkStatus();
}

double ArenaGame::a_score() const {
  switch (record.result()) {
    case pb::BLACK_WIN:
      return a_is_black ? 1.0 : 0.0;
    case pb::WHITE_WIN:
      return a_is_black ? 0.0 : 1.0;
    default:
      return 0.5;
  }
}

absl::StatusOr<ArenaSummary> RunArenaMatch(const ArenaOptions& options,
                                           ArenaPlayer& a, ArenaPlayer& b,
                                           const ArenaCallbacks& callbacks,
                                           const std::atomic<bool>* stop) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (!options.out_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.out_dir, error);
    if (error) {
      // A full disk is worth waiting out (the trainer retries a publish
      // that met one); anything else is the folder's fault.
      const bool full = error == std::errc::no_space_on_device;
      return absl::Status(
          full ? absl::StatusCode::kResourceExhausted
               : absl::StatusCode::kPermissionDenied,
          absl::StrCat("arena: cannot create ", options.out_dir, ": ",
                       error.message(), full ? " (disk full)" : ""));
    }
  }
  Match match(options, a, b, callbacks);
  return match.Run(stop);
}

}  // namespace renju
