// The opening rules' procedures (RULES.md §6), the symmetry test for
// 5th-move candidates and the OpeningState machine. Names, the actions'
// text form and replaying or playing an opening: opening_actions.cc.
#include "rules/opening.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/logging.h"
#include "rules/opening_internal.h"
#include "rules/symmetry.h"

namespace renju {
namespace {

using Kind = OpeningActionKind;
using opening_internal::kNumRuleKinds;
using opening_internal::PointsText;
using opening_internal::PointText;
using opening_internal::RuleTitle;

// --- Procedures: each rule as a list of steps --------------------------------

// Areas are squares centred on h8 (RULES.md §6), given by their half-width.
constexpr int kAnywhere = -1;
constexpr int kCentrePoint = 0;
constexpr int k3x3 = 1;
constexpr int k5x5 = 2;
constexpr int k7x7 = 3;
constexpr int k9x9 = 4;
constexpr Point kAreaCentre(kRenjuBoardSize / 2, kRenjuBoardSize / 2);

// OfferFifth counts the table cannot fix.
constexpr int kDeclared = -1;    // Yamaguchi: what black declared
constexpr int kTaraguchiN = -2;  // the rule's N

// Advancing this far runs past every procedure's last step: opening over.
constexpr int kEnd = 100;

// One step: the player holding `actor` takes one of the allowed actions.
struct Step {
  explicit Step(Color c) : actor(c) {}
  Step& On(Kind kind, int steps_ahead = 1) {
    advance[static_cast<int>(kind)] = steps_ahead;
    return *this;
  }

  Color actor;
  int area = kAnywhere;  // where Place and OfferFifth points must lie
  int offer_count = 0;
  // Per action kind: 0 when not allowed, else how many steps it moves on.
  std::array<int, kNumOpeningActionKinds> advance{};
};

Step Place(Color actor, int area = kAnywhere) {
  Step step = Step(actor).On(Kind::kPlace);
  step.area = area;
  return step;
}
Step SwapOption(Color actor) {
  return Step(actor).On(Kind::kSwap).On(Kind::kKeepColours);
}
Step Declare(Color actor) { return Step(actor).On(Kind::kDeclareCount); }
Step Offer(Color actor, int count, int area = kAnywhere) {
  Step step = Step(actor).On(Kind::kOfferFifth);
  step.offer_count = count;
  step.area = area;
  return step;
}
Step Choose(Color actor) { return Step(actor).On(Kind::kChooseFifth); }

// The table of RULES.md §6. Moves 1-3 of RIF and Yamaguchi are placed by
// tentative black, stones of both colours; the areas make them one of the
// 26 canonical openings (canonical_openings.h).
std::vector<Step> BuildProcedure(OpeningRuleKind kind) {
  switch (kind) {
    case OpeningRuleKind::kFree:
      return {};
    case OpeningRuleKind::kCentre:
      return {Place(kBlack, kCentrePoint)};
    case OpeningRuleKind::kSwap1:
      return {Place(kBlack), SwapOption(kWhite)};
    case OpeningRuleKind::kSwap3:
      return {Place(kBlack), Place(kBlack), Place(kBlack), SwapOption(kWhite)};
    case OpeningRuleKind::kRif:
      return {Place(kBlack, kCentrePoint),
              Place(kBlack, k3x3),
              Place(kBlack, k5x5),
              SwapOption(kWhite),
              Place(kWhite),
              Offer(kBlack, 2),
              Choose(kWhite)};
    case OpeningRuleKind::kYamaguchi:
      return {Place(kBlack, kCentrePoint), Place(kBlack, k3x3),
              Place(kBlack, k5x5),         Declare(kBlack),
              SwapOption(kWhite),          Place(kWhite),
              Offer(kBlack, kDeclared),    Choose(kWhite)};
    case OpeningRuleKind::kTarannikov:
      return {Place(kBlack, kCentrePoint), SwapOption(kWhite),
              Place(kWhite, k3x3),         SwapOption(kBlack),
              Place(kBlack, k5x5),         SwapOption(kWhite),
              Place(kWhite, k7x7),         SwapOption(kBlack),
              Place(kBlack, k9x9),         SwapOption(kWhite)};
    case OpeningRuleKind::kTaraguchi:
      // After move 4 black either (A) offers N 5th moves and white keeps
      // one, or (B) swaps; the new black places move 5 (in the 9x9, like
      // every 5th move of the rule) and the swapper may swap once more.
      return {Place(kBlack, kCentrePoint),
              SwapOption(kWhite),
              Place(kWhite, k3x3),
              SwapOption(kBlack),
              Place(kBlack, k5x5),
              SwapOption(kWhite),
              Place(kWhite, k7x7),
              Offer(kBlack, kTaraguchiN, k9x9).On(Kind::kSwap, 2),  // A or B
              Choose(kWhite).On(Kind::kChooseFifth, kEnd),          // A ends
              Place(kBlack, k9x9),                                  // B
              SwapOption(kWhite)};                                  // B ends
    case OpeningRuleKind::kSwap2:
      // The second player takes a colour now, or places moves 4 and 5 and
      // hands the choice back.
      return {Place(kBlack),
              Place(kBlack),
              Place(kBlack),
              SwapOption(kWhite)
                  .On(Kind::kSwap, kEnd)
                  .On(Kind::kKeepColours, kEnd)
                  .On(Kind::kPlace, 1),
              Place(kWhite),
              SwapOption(kBlack)};
  }
  return {};
}

const std::vector<Step>& Procedure(OpeningRuleKind kind) {
  static const auto* const procedures = [] {
    auto* all = new std::array<std::vector<Step>, kNumRuleKinds>;
    for (int i = 0; i < kNumRuleKinds; ++i) {
      (*all)[i] = BuildProcedure(static_cast<OpeningRuleKind>(i));
    }
    return all;
  }();
  return (*procedures)[static_cast<int>(kind)];
}

// The current step, or nullptr once the opening is over.
const Step* StepAt(const OpeningRule& rule, int index) {
  const std::vector<Step>& steps = Procedure(rule.kind);
  return index < static_cast<int>(steps.size()) ? &steps[index] : nullptr;
}

bool UsesCentralAreas(OpeningRuleKind kind) {
  for (const Step& step : Procedure(kind)) {
    if (step.area != kAnywhere) return true;
  }
  return false;
}

bool InArea(Point p, int area) {
  return area == kAnywhere || (std::abs(p.x - kAreaCentre.x) <= area &&
                               std::abs(p.y - kAreaCentre.y) <= area);
}

// "on h8", "inside the central 5x5 (f6-j10)", "anywhere".
std::string AreaText(int area) {
  if (area == kAnywhere) return "anywhere";
  if (area == kCentrePoint) return absl::StrCat("on ", PointName(kAreaCentre));
  const int width = 2 * area + 1;
  return absl::StrCat(
      "inside the central ", width, "x", width, " (",
      PointName(Point(kAreaCentre.x - area, kAreaCentre.y - area)), "-",
      PointName(Point(kAreaCentre.x + area, kAreaCentre.y + area)), ")");
}

// "a", "a or b", "a, b or c".
std::string JoinWithOr(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return absl::StrJoin(parts, "");
  return absl::StrCat(absl::StrJoin(parts.begin(), parts.end() - 1, ", "),
                      " or ", parts.back());
}

// --- Candidate symmetry ------------------------------------------------------

using Coord = std::pair<int, int>;

// The points under symmetry s, mirrored through the origin (size 1 makes
// ApplySymmetry's mirrors x -> -x), then shifted; sorted.
std::vector<Coord> Image(const std::vector<Point>& points, Symmetry s,
                         Coord shift) {
  std::vector<Coord> out;
  out.reserve(points.size());
  for (Point p : points) {
    const Point q = ApplySymmetry(s, p, 1);
    out.emplace_back(q.x + shift.first, q.y + shift.second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool SymmetricFifthCandidates(const std::vector<Point>& black,
                              const std::vector<Point>& white, Point a,
                              Point b) {
  if (a == b) return true;
  const std::vector<Point>& anchor = black.empty() ? white : black;
  if (anchor.empty()) return true;  // a translation carries a onto b
  const std::vector<Coord> black_set = Image(black, kIdentity, {0, 0});
  const std::vector<Coord> white_set = Image(white, kIdentity, {0, 0});
  const Coord anchor_first = Image(anchor, kIdentity, {0, 0}).front();
  for (Symmetry s = 0; s < kNumSymmetries; ++s) {
    // A translation keeps the (x, y) order, so it must carry the smallest
    // turned anchor stone onto the smallest anchor stone.
    const Coord turned_first = Image(anchor, s, {0, 0}).front();
    const Coord shift(anchor_first.first - turned_first.first,
                      anchor_first.second - turned_first.second);
    if (Image(black, s, shift) == black_set &&
        Image(white, s, shift) == white_set &&
        Image({a}, s, shift).front() == Coord(b.x, b.y)) {
      return true;
    }
  }
  return false;
}

// --- The state machine -------------------------------------------------------

OpeningState::OpeningState(OpeningRule rule, Game game)
    : rule_(rule), game_(std::move(game)) {}

absl::StatusOr<OpeningState> OpeningState::Create(OpeningRule rule,
                                                  Variant variant, int size) {
  const bool taraguchi = rule.kind == OpeningRuleKind::kTaraguchi;
  if (taraguchi &&
      (rule.taraguchi_count < 1 || rule.taraguchi_count > kMaxTaraguchiCount)) {
    return absl::InvalidArgumentError(absl::StrCat("Taraguchi-N needs N in 1..",
                                                   kMaxTaraguchiCount, ", got ",
                                                   rule.taraguchi_count));
  }
  if (!taraguchi && rule.taraguchi_count != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("only Taraguchi takes a count; ", OpeningRuleName(rule),
                     " got ", rule.taraguchi_count));
  }
  absl::StatusOr<Game> game = Game::Create(variant, size);
  if (!game.ok()) return game.status();
  if (UsesCentralAreas(rule.kind) && size != kRenjuBoardSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", RuleTitle(rule), " opening rule uses the central areas of the ",
        "15 x 15 board; it cannot be played on ", size, " x ", size));
  }
  return OpeningState(rule, *std::move(game));
}

bool OpeningState::done() const { return StepAt(rule_, step_) == nullptr; }

Player OpeningState::to_act() const {
  const Step* step = StepAt(rule_, step_);
  return PlayerOf(step ? step->actor : game_.side_to_move());
}

bool OpeningState::Allows(OpeningActionKind kind) const {
  const Step* step = StepAt(rule_, step_);
  return step != nullptr && step->advance[static_cast<int>(kind)] != 0;
}

int OpeningState::RequiredOfferCount() const {
  if (!Allows(Kind::kOfferFifth)) return 0;
  const int count = StepAt(rule_, step_)->offer_count;
  if (count == kDeclared) return declared_count_.value_or(0);
  if (count == kTaraguchiN) return rule_.taraguchi_count;
  return count;
}

std::vector<Point> OpeningState::PlacementPoints() const {
  if (!Allows(Kind::kPlace) && !Allows(Kind::kOfferFifth)) return {};
  const int area = StepAt(rule_, step_)->area;
  std::vector<Point> points;
  for (int y = 0; y < game_.size(); ++y) {
    for (int x = 0; x < game_.size(); ++x) {
      const Point p(x, y);
      if (game_.board().IsEmpty(p) && InArea(p, area)) points.push_back(p);
    }
  }
  return points;
}

std::string OpeningState::Expectation() const {
  const Step* step = StepAt(rule_, step_);
  if (step == nullptr) {
    const Color c = game_.side_to_move();
    return absl::StrCat("the ", RuleTitle(rule_), " opening is over; ",
                        ColorName(c), " (the ", PlayerName(PlayerOf(c)),
                        " player) has move ", game_.ply() + 1);
  }
  std::vector<std::string> choices;
  if (Allows(Kind::kPlace)) {
    choices.push_back(absl::StrCat("place move ", game_.ply() + 1, " ",
                                   AreaText(step->area)));
  }
  if (Allows(Kind::kOfferFifth)) {
    const int n = RequiredOfferCount();
    std::string offer =
        absl::StrCat("offer ", n,
                     n == 1 ? " 5th-move candidate"
                            : " mutually non-symmetric 5th-move candidates");
    if (step->area != kAnywhere) {
      absl::StrAppend(&offer, " ", AreaText(step->area));
    }
    choices.push_back(offer);
  }
  if (Allows(Kind::kDeclareCount)) {
    choices.push_back("declare how many 5th-move candidates black will offer");
  }
  if (Allows(Kind::kChooseFifth)) {
    choices.push_back(absl::StrCat("choose one of the ", offered_.size(),
                                   " offered 5th moves (", PointsText(offered_),
                                   ")"));
  }
  if (Allows(Kind::kSwap)) choices.push_back("swap colours");
  if (Allows(Kind::kKeepColours)) {
    choices.push_back(Allows(Kind::kSwap) ? "keep them" : "keep colours");
  }
  return absl::StrCat(RuleTitle(rule_), " expects ", ColorName(step->actor),
                      " (the ", PlayerName(PlayerOf(step->actor)),
                      " player) to ", JoinWithOr(choices));
}

absl::Status OpeningState::Apply(Player player, const OpeningAction& action) {
  if (!done() && player != to_act()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "out of turn: ", Expectation(), ", got ", action.ToString(),
        " from the ", PlayerName(player), " player"));
  }
  return Apply(action);
}

absl::Status OpeningState::Apply(const OpeningAction& action) {
  if (done()) {
    return absl::FailedPreconditionError(absl::StrCat(
        Expectation(), "; ", action.ToString(), " is not an opening action"));
  }
  if (action.kind == Kind::kPass) {
    return absl::FailedPreconditionError(absl::StrCat(
        "passing is not allowed during the opening (RULES.md §5): ",
        Expectation()));
  }
  if (!Allows(action.kind)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "out of phase: ", Expectation(), ", got ", action.ToString()));
  }
  if (absl::Status s = CheckContent(action); !s.ok()) return s;
  const int advance =
      StepAt(rule_, step_)->advance[static_cast<int>(action.kind)];
  Perform(action);
  actions_.push_back(action);
  step_ += advance;
  return absl::OkStatus();
}

absl::Status OpeningState::CheckContent(const OpeningAction& action) const {
  switch (action.kind) {
    case Kind::kPlace:
      return CheckPlace(action.point);
    case Kind::kDeclareCount:
      if (action.count < 1 || action.count > kMaxDeclaredFifthCount) {
        return absl::InvalidArgumentError(
            absl::StrCat("the number of 5th-move candidates must be in 1..",
                         kMaxDeclaredFifthCount, ", got ", action.count));
      }
      return absl::OkStatus();
    case Kind::kOfferFifth:
      return CheckOffer(action.points);
    case Kind::kChooseFifth:
      return CheckChoice(action.point);
    default:
      return absl::OkStatus();
  }
}

absl::Status OpeningState::CheckInArea(Point p, absl::string_view what) const {
  const int area = StepAt(rule_, step_)->area;
  if (InArea(p, area)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " must be ", AreaText(area), ", got ", PointName(p)));
}

absl::Status OpeningState::CheckPlace(Point p) const {
  if (absl::Status s = game_.CheckMove(Move::At(p)); !s.ok()) return s;
  return CheckInArea(p, absl::StrCat("move ", game_.ply() + 1));
}

absl::Status OpeningState::CheckOffer(
    const std::vector<Point>& candidates) const {
  const int n = RequiredOfferCount();
  if (static_cast<int>(candidates.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat(RuleTitle(rule_), " expects ", n, " 5th-move candidates",
                     declared_count_ ? " (as declared)" : "", ", got ",
                     candidates.size(), ": ", PointsText(candidates)));
  }
  const Board& board = game_.board();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Point p = candidates[i];
    if (!board.OnBoard(p)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "5th-move candidate ", i + 1, " ", PointText(p, kMaxBoardSize),
          " is off the ", game_.size(), "x", game_.size(), " board"));
    }
    if (!board.IsEmpty(p)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "5th-move candidate ", PointName(p), " is on an occupied point"));
    }
    if (absl::Status s = CheckInArea(p, "a 5th-move candidate"); !s.ok()) {
      return s;
    }
  }
  const std::vector<Point> black = board.Stones(kBlack).ToVector();
  const std::vector<Point> white = board.Stones(kWhite).ToVector();
  for (size_t i = 0; i < candidates.size(); ++i) {
    for (size_t j = i + 1; j < candidates.size(); ++j) {
      const Point a = candidates[i];
      const Point b = candidates[j];
      if (a == b) {
        return absl::InvalidArgumentError(absl::StrCat(
            "5th-move candidate ", PointName(a), " is offered twice"));
      }
      if (SymmetricFifthCandidates(black, white, a, b)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "5th-move candidates ", PointName(a), " and ", PointName(b),
            " are symmetric: a rotation or reflection of the grid, with a ",
            "translation and ignoring the edge, maps the ", game_.ply(),
            " stones onto themselves colour by colour and one candidate onto ",
            "the other"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status OpeningState::CheckChoice(Point p) const {
  if (std::find(offered_.begin(), offered_.end(), p) != offered_.end()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      PointText(p, game_.size()), " is not one of the offered 5th moves (",
      PointsText(offered_), ")"));
}

void OpeningState::Perform(const OpeningAction& action) {
  switch (action.kind) {
    case Kind::kPlace:
    case Kind::kChooseFifth: {
      // At most three stones of a colour: nothing can win or be forbidden.
      const absl::Status s = game_.Play(Move::At(action.point));
      RENJU_CHECK(s.ok() && !game_.over()) << s;
      break;
    }
    case Kind::kSwap:
      black_player_ = OtherPlayer(black_player_);
      break;
    case Kind::kDeclareCount:
      declared_count_ = action.count;
      break;
    case Kind::kOfferFifth:
      offered_ = action.points;
      break;
    case Kind::kKeepColours:
    case Kind::kPass:
      break;
  }
}

}  // namespace renju
