#include "arena/arena_players.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/logging.h"
#include "base/random.h"
#include "gomocup/gomocup_protocol.h"
#include "gomocup/swap2.h"
#include "search/search.h"
#include "search/search_result.h"
#include "search/stoppers.h"

namespace renju {
namespace {

// One game of a ModelPlayer: its own tree, kept across moves.
class ModelGame : public GamePlayer {
 public:
  ModelGame(const SearchParams& params, const OpeningParams& opening,
            Evaluator& evaluator, const Game& start, uint64_t seed)
      : params_(params),
        search_(params, evaluator, start),
        opening_(params, opening, evaluator),
        rng_(seed) {}

  absl::StatusOr<OpeningAction> Opening(
      const OpeningState& state, const std::atomic<bool>* stop) override {
    FlagStopper stopper(stop);
    absl::StatusOr<OpeningDecision> decision =
        opening_.Decide(state, rng_, stop != nullptr ? &stopper : nullptr);
    if (!decision.ok()) return decision.status();
    return decision->action;
  }

  absl::StatusOr<PlayerMove> Play(const Game& game,
                                  const std::atomic<bool>* stop) override {
    // Catch up with the moves made since this side last searched (its own
    // and the opponent's), keeping the matching subtree.
    if (absl::Status s = search_.AdvanceTo(game); !s.ok()) return s;
    FlagStopper stopper(stop);
    RunOptions options;
    if (stop != nullptr) options.stopper = &stopper;
    absl::StatusOr<SearchResult> result = search_.Run(rng_, options);
    if (!result.ok()) return result.status();
    PlayerMove answer;
    answer.move = ChooseMove(*result, params_, game.ply(), rng_);
    return answer;
  }

 private:
  const SearchParams params_;
  Search search_;
  OpeningPlayer opening_;
  Random rng_;
};

class RandomGame : public GamePlayer {
 public:
  explicit RandomGame(uint64_t seed) : rng_(seed) {}

  absl::StatusOr<PlayerMove> Play(const Game& game,
                                  const std::atomic<bool>*) override {
    Game probe = game;  // LegalPoints probes the board
    const std::vector<Point> points = probe.LegalPoints();
    PlayerMove answer;
    if (!points.empty()) {
      answer.move =
          Move::At(points[rng_.UniformInt(static_cast<int>(points.size()))]);
    }
    return answer;
  }

 private:
  Random rng_;
};

class TacticalGame : public GamePlayer {
 public:
  explicit TacticalGame(uint64_t seed) : brain_(seed) {}

  absl::StatusOr<PlayerMove> Play(const Game& game,
                                  const std::atomic<bool>* stop) override {
    Game probe = game;  // the brain probes the board
    absl::StatusOr<Move> move = brain_.ChooseMove(probe, MoveLimits{}, stop);
    if (!move.ok()) return move.status();
    PlayerMove answer;
    answer.move = *move;
    return answer;
  }

 private:
  TacticalBrain brain_;
};

Evaluator& EvaluatorOf(const std::shared_ptr<EvaluatorStack>& stack) {
  RENJU_CHECK(stack != nullptr) << "ModelPlayer needs an evaluator stack";
  return stack->evaluator();
}

bool HasPass(const Game& game) {
  for (Move m : game.moves()) {
    if (m.is_pass()) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<OpeningAction> GamePlayer::Opening(const OpeningState& state,
                                                  const std::atomic<bool>*) {
  Random rng(state.game().hash(), state.actions().size());
  return DefaultOpeningAction(state, rng);
}

ModelPlayer::ModelPlayer(std::string name,
                         std::shared_ptr<EvaluatorStack> stack,
                         const SearchParams& params,
                         const OpeningParams& opening)
    : name_(std::move(name)),
      stack_(std::move(stack)),
      evaluator_(EvaluatorOf(stack_)),
      params_(params),
      opening_(opening) {}

ModelPlayer::ModelPlayer(std::string name, Evaluator& evaluator,
                         const SearchParams& params,
                         const OpeningParams& opening)
    : name_(std::move(name)),
      evaluator_(evaluator),
      params_(params),
      opening_(opening) {}

absl::StatusOr<std::unique_ptr<GamePlayer>> ModelPlayer::NewGame(
    const Game& start, uint64_t seed) {
  return std::make_unique<ModelGame>(params_, opening_, evaluator_, start,
                                     seed);
}

absl::StatusOr<std::unique_ptr<GamePlayer>> RandomPlayer::NewGame(
    const Game&, uint64_t seed) {
  return std::make_unique<RandomGame>(seed);
}

absl::StatusOr<std::unique_ptr<GamePlayer>> TacticalPlayer::NewGame(
    const Game&, uint64_t seed) {
  return std::make_unique<TacticalGame>(seed);
}

// One game of an EnginePlayer. Hands its process back to the pool at the
// end unless the engine faulted (then the client has already killed it).
class EnginePlayer::EngineGame : public GamePlayer {
 public:
  EngineGame(EnginePlayer& owner, std::unique_ptr<GomocupClient> client,
             EngineFault fault, std::string fault_message)
      : owner_(owner),
        client_(std::move(client)),
        fault_(fault),
        fault_message_(std::move(fault_message)) {}

  ~EngineGame() override {
    if (fault_ == EngineFault::kNone && client_->running()) {
      owner_.Release(std::move(client_));
    }
  }

  absl::StatusOr<OpeningAction> Opening(
      const OpeningState& state, const std::atomic<bool>* stop) override {
    if (!pending_.empty()) {
      OpeningAction action = std::move(pending_.front());
      pending_.erase(pending_.begin());
      return action;
    }
    if (state.rule().kind != OpeningRuleKind::kSwap2 ||
        fault_ != EngineFault::kNone || !fallback_.empty()) {
      return GamePlayer::Opening(state, stop);
    }
    absl::StatusOr<Swap2Turn> turn = client_->Swap2Board(state);
    if (turn.ok()) {
      pending_.assign(turn->actions.begin() + 1, turn->actions.end());
      if (turn->move.has_value()) next_move_ = Move::At(*turn->move);
      return turn->actions.front();
    }
    switch (client_->fault()) {
      case EngineFault::kNone:
        return turn.status();
      case EngineFault::kRefused:
        fallback_ = std::string(turn.status().message());
        break;
      default:
        fault_ = client_->fault();
        fault_message_ = std::string(turn.status().message());
        break;
    }
    return GamePlayer::Opening(state, stop);
  }

  std::string OpeningFallback() const override { return fallback_; }

  absl::StatusOr<PlayerMove> Play(const Game& game,
                                  const std::atomic<bool>*) override {
    PlayerMove answer;
    if (fault_ != EngineFault::kNone) return Faulted();
    if (next_move_.has_value()) {
      // The move its swap2 answer gave with the opening's last action;
      // Swap2Board checked it against this position.
      answer.move = *next_move_;
      next_move_.reset();
      return answer;
    }
    if (HasPass(game)) return answer;  // see the class comment
    absl::StatusOr<Move> move = client_->GetMove(game);
    if (move.ok()) {
      answer.move = *move;
      return answer;
    }
    if (client_->fault() == EngineFault::kNone) return move.status();
    fault_ = client_->fault();
    fault_message_ = std::string(move.status().message());
    return Faulted();
  }

 private:
  PlayerMove Faulted() const {
    PlayerMove answer;
    answer.fault = fault_;
    answer.fault_message = fault_message_;
    return answer;
  }

  EnginePlayer& owner_;
  std::unique_ptr<GomocupClient> client_;
  EngineFault fault_;
  std::string fault_message_;
  // The rest of a swap2 answer: its further actions, then its move.
  std::vector<OpeningAction> pending_;
  std::optional<Move> next_move_;
  std::string fallback_;  // why the opening took the rule's defaults
};

EnginePlayer::EnginePlayer(std::string name, GomocupClientOptions options)
    : name_(std::move(name)), options_(std::move(options)) {}

EnginePlayer::~EnginePlayer() {
  absl::MutexLock lock(&mutex_);
  for (std::unique_ptr<GomocupClient>& client : idle_) client->Quit();
}

int64_t EnginePlayer::launches() const {
  absl::MutexLock lock(&mutex_);
  return launches_;
}

void EnginePlayer::Release(std::unique_ptr<GomocupClient> client) {
  absl::MutexLock lock(&mutex_);
  idle_.push_back(std::move(client));
}

absl::StatusOr<std::unique_ptr<GamePlayer>> EnginePlayer::NewGame(
    const Game& start, uint64_t) {
  std::unique_ptr<GomocupClient> client;
  {
    absl::MutexLock lock(&mutex_);
    if (!idle_.empty()) {
      client = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (client != nullptr) {
    if (client->NewGame(start.variant(), start.size()).ok()) {
      return std::make_unique<EngineGame>(*this, std::move(client),
                                          EngineFault::kNone, "");
    }
    // It died while idle: not this game's fault; start a fresh one.
    client.reset();
  }
  absl::StatusOr<std::unique_ptr<GomocupClient>> launched =
      GomocupClient::Launch(options_);
  if (!launched.ok()) return launched.status();
  {
    absl::MutexLock lock(&mutex_);
    ++launches_;
  }
  client = std::move(*launched);
  const absl::Status started = client->NewGame(start.variant(), start.size());
  if (started.ok()) {
    return std::make_unique<EngineGame>(*this, std::move(client),
                                        EngineFault::kNone, "");
  }
  // A fresh engine that fails START faults at its first move; one that
  // answered nothing we recognise counts as crashed.
  const EngineFault fault = client->fault() != EngineFault::kNone
                                ? client->fault()
                                : EngineFault::kCrashed;
  client->Quit();
  return std::make_unique<EngineGame>(*this, std::move(client), fault,
                                      std::string(started.message()));
}

absl::StatusOr<std::unique_ptr<EnginePlayer>> MakeEnginePlayer(
    std::string name, absl::string_view command_line,
    GomocupClientOptions options) {
  options.argv = absl::StrSplit(command_line, ' ', absl::SkipWhitespace());
  if (options.argv.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("engine '", name, "' has no command line"));
  }
  return std::make_unique<EnginePlayer>(std::move(name), std::move(options));
}

}  // namespace renju
