#include "nn/encoding.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/forbidden.h"
#include "rules/symmetry.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::kDoubleThreeMoves;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;

// Encodes `game` and reads planes back by name.
class Planes {
 public:
  explicit Planes(Game& game, int encoding_version = 1)
      : size_(game.size()),
        data_(EncodedSize(game.size(), encoding_version), -1.0f) {
    EncodePosition(game, encoding_version, data_.data());
  }
  float At(int plane, const std::string& point) const {
    return At(plane, Pt(point, size_));
  }
  float At(int plane, Point p) const {
    return data_[plane * size_ * size_ + p.y * size_ + p.x];
  }
  const std::vector<float>& data() const { return data_; }
  // The points set to 1 on `plane`, as names in cell order.
  std::vector<std::string> Ones(int plane) const {
    std::vector<std::string> out;
    for (int i = 0; i < size_ * size_; ++i) {
      const float v = data_[plane * size_ * size_ + i];
      EXPECT_TRUE(v == 0.0f || v == 1.0f) << "plane " << plane << " " << v;
      if (v == 1.0f) out.push_back(PointName(Point(i % size_, i / size_)));
    }
    return out;
  }
  int CountOnes(int plane) const { return Ones(plane).size(); }
  int area() const { return size_ * size_; }

 private:
  int size_;
  std::vector<float> data_;
};

using Names = std::vector<std::string>;

// A position with `black` and `white` stones ("h8 h9 ...", placed in that
// order) and `to_move` to play. The colours alternate; whichever has fewer
// stones passes in between, so the game is never ended by two passes.
Game Position(const std::string& black, const std::string& white,
              Color to_move = Color::kBlack,
              Variant variant = Variant::kRenju) {
  const std::vector<std::string> b =
      absl::StrSplit(black, ' ', absl::SkipEmpty());
  const std::vector<std::string> w =
      absl::StrSplit(white, ' ', absl::SkipEmpty());
  const size_t black_moves = to_move == Color::kBlack
                                 ? std::max(b.size(), w.size())
                                 : std::max(b.size(), w.size() + 1);
  const size_t white_moves =
      to_move == Color::kBlack ? black_moves : black_moves - 1;
  std::string moves;
  for (size_t i = 0; i < black_moves; ++i) {
    moves += (i < b.size() ? b[i] : "pass") + " ";
    if (i < white_moves) moves += (i < w.size() ? w[i] : "pass") + " ";
  }
  Game game = MakeGame(moves, variant);
  EXPECT_FALSE(game.over()) << moves;
  EXPECT_EQ(game.side_to_move(), to_move) << moves;
  return game;
}

TEST(EncodingTest, BlackToMoveSeesOwnAndOpponentStones) {
  Game game = MakeGame("h8 h9 j10 k11");
  Planes planes(game);
  EXPECT_EQ(planes.Ones(kOwnStonesPlane), (Names{"h8", "j10"}));
  EXPECT_EQ(planes.Ones(kOpponentStonesPlane), (Names{"h9", "k11"}));
  EXPECT_EQ(planes.CountOnes(kBlackToMovePlane), planes.area());
}

TEST(EncodingTest, WhiteToMoveSwapsOwnAndOpponent) {
  Game game = MakeGame("h8 h9 j10");
  Planes planes(game);
  EXPECT_EQ(planes.Ones(kOwnStonesPlane), (Names{"h9"}));
  EXPECT_EQ(planes.Ones(kOpponentStonesPlane), (Names{"h8", "j10"}));
  EXPECT_EQ(planes.CountOnes(kBlackToMovePlane), 0);
}

TEST(EncodingTest, ForbiddenPlaneForBlackToMoveUnderRenju) {
  Game game = MakeGame(kDoubleThreeMoves);
  Planes planes(game);
  EXPECT_EQ(planes.Ones(kForbiddenPlane), (Names{"i8"}));
  EXPECT_EQ(planes.At(kLegalPlane, "i8"), 0.0f);
  EXPECT_EQ(planes.At(kLegalPlane, "j8"), 1.0f);
  // 225 points less 8 stones less the forbidden point.
  EXPECT_EQ(planes.CountOnes(kLegalPlane), 225 - 8 - 1);
}

TEST(EncodingTest, NoForbiddenPlaneWithWhiteToMove) {
  // i8 stays forbidden for black, but white is to move.
  Game game = MakeGame(std::string(kDoubleThreeMoves) + " o15");
  Planes planes(game);
  EXPECT_EQ(planes.CountOnes(kForbiddenPlane), 0);
  EXPECT_EQ(planes.At(kLegalPlane, "i8"), 1.0f);
  EXPECT_EQ(planes.CountOnes(kLegalPlane), 225 - 9);
}

TEST(EncodingTest, NoForbiddenPlaneOutsideRenju) {
  for (Variant variant : {Variant::kStandard, Variant::kFreestyle}) {
    Game game = MakeGame(kDoubleThreeMoves, variant);
    Planes planes(game);
    EXPECT_EQ(planes.CountOnes(kForbiddenPlane), 0) << VariantName(variant);
    EXPECT_EQ(planes.At(kLegalPlane, "i8"), 1.0f);
  }
}

TEST(EncodingTest, LegalPlaneExcludesStones) {
  Game game = MakeGame("h8 h9");
  Planes planes(game);
  EXPECT_EQ(planes.At(kLegalPlane, "h8"), 0.0f);
  EXPECT_EQ(planes.At(kLegalPlane, "h9"), 0.0f);
  EXPECT_EQ(planes.CountOnes(kLegalPlane), 223);
}

TEST(EncodingTest, LastMovesMostRecentFirst) {
  Game game = MakeGame("a1 b2 c3 d4 e5 f6");
  Planes planes(game);
  EXPECT_EQ(planes.Ones(kLastMovesPlane + 0), (Names{"f6"}));
  EXPECT_EQ(planes.Ones(kLastMovesPlane + 1), (Names{"e5"}));
  EXPECT_EQ(planes.Ones(kLastMovesPlane + 2), (Names{"d4"}));
  EXPECT_EQ(planes.Ones(kLastMovesPlane + 3), (Names{"c3"}));
}

TEST(EncodingTest, LastMovesEmptyForPassesAndBeforeTheStart) {
  Game game = MakeGame("h8 pass");
  Planes planes(game);
  EXPECT_EQ(planes.CountOnes(kLastMovesPlane + 0), 0);  // the pass
  EXPECT_EQ(planes.Ones(kLastMovesPlane + 1), (Names{"h8"}));
  EXPECT_EQ(planes.CountOnes(kLastMovesPlane + 2), 0);
  EXPECT_EQ(planes.CountOnes(kLastMovesPlane + 3), 0);
}

TEST(EncodingTest, VariantAndOnBoardPlanes) {
  for (Variant variant :
       {Variant::kFreestyle, Variant::kStandard, Variant::kRenju}) {
    Game game = MakeGame("h8", variant);
    Planes planes(game);
    EXPECT_EQ(planes.CountOnes(kOnBoardPlane), 225);
    for (int v = 0; v < kNumVariants; ++v) {
      EXPECT_EQ(planes.CountOnes(kVariantPlane + v),
                v == static_cast<int>(variant) ? 225 : 0)
          << VariantName(variant) << " plane " << v;
    }
  }
}

TEST(EncodingTest, OtherBoardSizes) {
  Game game = MakeGame("a1 t20", Variant::kFreestyle, 20);
  Planes planes(game);
  EXPECT_EQ(planes.Ones(kOwnStonesPlane), (Names{"a1"}));
  EXPECT_EQ(planes.Ones(kOpponentStonesPlane), (Names{"t20"}));
  EXPECT_EQ(planes.CountOnes(kOnBoardPlane), 400);
  EXPECT_EQ(EncodedSize(20, 1), kNumInputPlanesV1 * 400);
  EXPECT_EQ(EncodedSize(20, 2), kNumInputPlanesV2 * 400);
}

TEST(EncodingTest, LeavesTheGameUnchanged) {
  Game game = MakeGame(kDoubleThreeMoves);
  const uint64_t hash = game.hash();
  Planes planes(game);
  EXPECT_EQ(game.hash(), hash);
  EXPECT_TRUE(game.board().IsConsistent());
}

// --- Version 2: the threat planes ------------------------------------------

constexpr int kThreatPlanes[] = {kOwnFivePlane,      kOwnFourPlane,
                                 kOwnThreePlane,     kOpponentFivePlane,
                                 kOpponentFourPlane, kOpponentThreePlane};

TEST(ThreatPlanesTest, VersionTwoStartsWithVersionOne) {
  for (const char* moves : {"", "h8 h9 j10", kDoubleThreeMoves}) {
    Game game = MakeGame(moves);
    const Planes v1(game, 1);
    const Planes v2(game, 2);
    ASSERT_EQ(v2.data().size(),
              v1.data().size() * kNumInputPlanesV2 / kNumInputPlanesV1);
    EXPECT_TRUE(
        std::equal(v1.data().begin(), v1.data().end(), v2.data().begin()))
        << moves;
  }
}

TEST(ThreatPlanesTest, EmptyBoardHasNoThreats) {
  Game game;
  const Planes planes(game, 2);
  for (int k : kThreatPlanes) EXPECT_EQ(planes.CountOnes(k), 0) << k;
}

// g8 h8: f8 and i8 make open threes, e8 and j8 split threes; the same
// points serve either colour, on the own or the opponent planes.
TEST(ThreatPlanesTest, ThreePointsOfAnOpenTwoForEitherSide) {
  const Names threes = {"e8", "f8", "i8", "j8"};
  Game black = Position("g8 h8", "", Color::kBlack);
  const Planes own(black, 2);
  EXPECT_EQ(own.Ones(kOwnThreePlane), threes);
  for (int k : kThreatPlanes) {
    if (k != kOwnThreePlane) EXPECT_EQ(own.CountOnes(k), 0) << k;
  }
  Game white_stones = Position("", "g8 h8", Color::kBlack);
  const Planes opponent(white_stones, 2);
  EXPECT_EQ(opponent.Ones(kOpponentThreePlane), threes);
  EXPECT_EQ(opponent.CountOnes(kOwnThreePlane), 0);
  Game white_to_move = Position("", "g8 h8", Color::kWhite);
  EXPECT_EQ(Planes(white_to_move, 2).Ones(kOwnThreePlane), threes);
}

// An open three f8 g8 h8: e8 and i8 make straight fours, d8 and j8 simple
// fours; the same for white on row 4.
TEST(ThreatPlanesTest, FourPointsOfAnOpenThree) {
  Game game = Position("f8 g8 h8", "f4 g4 h4", Color::kBlack);
  const Planes planes(game, 2);
  EXPECT_EQ(planes.Ones(kOwnFourPlane), (Names{"d8", "e8", "i8", "j8"}));
  EXPECT_EQ(planes.Ones(kOpponentFourPlane), (Names{"d4", "e4", "i4", "j4"}));
  for (int k : {kOwnFivePlane, kOwnThreePlane, kOpponentFivePlane,
                kOpponentThreePlane}) {
    EXPECT_EQ(planes.CountOnes(k), 0) << k;
  }
}

// d8-g8 across and h9-h11 down: h8 makes a five across and a four down, so
// it is a five point and not a four point.
TEST(ThreatPlanesTest, AFivePointIsNotAFourPoint) {
  Game game = Position("d8 e8 f8 g8 h9 h10 h11", "", Color::kBlack);
  const Planes planes(game, 2);
  EXPECT_EQ(planes.Ones(kOwnFivePlane), (Names{"c8", "h8"}));
  EXPECT_EQ(planes.Ones(kOwnFourPlane), (Names{"h7", "h12", "h13"}));
  EXPECT_EQ(planes.At(kOwnThreePlane, "h8"), 0.0f);
}

// d e f _ h i on row 8 (black) and row 4 (white): the gap makes six. That
// is a five for white under renju and for both under freestyle, nothing
// under standard, and a forbidden overline for black under renju.
TEST(ThreatPlanesTest, FivePointsFollowTheVariant) {
  const std::string black = "d8 e8 f8 h8 i8", white = "d4 e4 f4 h4 i4";
  Game renju = Position(black, white, Color::kBlack, Variant::kRenju);
  const Planes r(renju, 2);
  EXPECT_EQ(r.CountOnes(kOwnFivePlane), 0);
  EXPECT_EQ(r.Ones(kOpponentFivePlane), (Names{"g4"}));
  EXPECT_EQ(r.Ones(kForbiddenPlane), (Names{"g8"}));
  EXPECT_EQ(r.At(kOwnFourPlane, "g8"), 0.0f);
  EXPECT_EQ(r.At(kOwnThreePlane, "g8"), 0.0f);

  Game standard = Position(black, white, Color::kBlack, Variant::kStandard);
  const Planes s(standard, 2);
  EXPECT_EQ(s.CountOnes(kOwnFivePlane), 0);
  EXPECT_EQ(s.CountOnes(kOpponentFivePlane), 0);

  Game freestyle = Position(black, white, Color::kBlack, Variant::kFreestyle);
  const Planes f(freestyle, 2);
  EXPECT_EQ(f.Ones(kOwnFivePlane), (Names{"g8"}));
  EXPECT_EQ(f.Ones(kOpponentFivePlane), (Names{"g4"}));
}

// kDoubleThreeMoves: black i8 would make two live threes, so it is
// forbidden and no black three point, whoever is to move; the single
// threes around it are.
TEST(ThreatPlanesTest, ADoubleThreePointIsNoBlackThreePoint) {
  Game game = MakeGame(kDoubleThreeMoves);
  const Planes planes(game, 2);
  EXPECT_EQ(planes.At(kForbiddenPlane, "i8"), 1.0f);
  EXPECT_EQ(planes.At(kOwnThreePlane, "i8"), 0.0f);
  for (const char* three : {"e8", "f8", "j8", "i7", "i11", "i12"}) {
    EXPECT_EQ(planes.At(kOwnThreePlane, three), 1.0f) << three;
  }
  Game white_to_move = MakeGame(std::string(kDoubleThreeMoves) + " o15");
  const Planes opponent(white_to_move, 2);
  EXPECT_EQ(opponent.At(kForbiddenPlane, "i8"), 0.0f);  // version 1's rule
  EXPECT_EQ(opponent.At(kOpponentThreePlane, "i8"), 0.0f);
  EXPECT_EQ(opponent.At(kOpponentThreePlane, "f8"), 1.0f);
}

// Without forbidden points the same point makes two threes and counts.
TEST(ThreatPlanesTest, DoubleThreePointsCountOutsideRenjuAndForWhite) {
  for (Variant variant : {Variant::kStandard, Variant::kFreestyle}) {
    Game game = MakeGame(kDoubleThreeMoves, variant);
    EXPECT_EQ(Planes(game, 2).At(kOwnThreePlane, "i8"), 1.0f)
        << VariantName(variant);
  }
  Game white = Position("", "g8 h8 i9 i10", Color::kWhite);
  EXPECT_EQ(Planes(white, 2).At(kOwnThreePlane, "i8"), 1.0f);
}

// g8 h8 with white d8: f8 and j8 make threes whose only straight-four point
// is i8. Black stones i6 i7 i9 i10 i11 make i8 an overline point, so those
// threes are false (RULES.md §3) and f8 and j8 are no three points.
TEST(ThreatPlanesTest, AThreeWhoseFourPointIsForbiddenIsNotLive) {
  Game plain = Position("g8 h8", "d8", Color::kBlack);
  EXPECT_EQ(Planes(plain, 2).Ones(kOwnThreePlane), (Names{"f8", "i8", "j8"}));

  Game game = Position("g8 h8 i6 i7 i9 i10 i11", "d8", Color::kBlack);
  const Planes planes(game, 2);
  EXPECT_EQ(planes.At(kForbiddenPlane, "i8"), 1.0f);
  EXPECT_EQ(planes.At(kOwnThreePlane, "f8"), 0.0f);
  EXPECT_EQ(planes.At(kOwnThreePlane, "j8"), 0.0f);
}

// f8 g8 with white d8: h8 makes a three whose only straight-four point is
// i8. With i9-i12, i8 also completes a five down the i-file, so by the
// literal RIF reading (RULES.md §3) h8's three is no three at all.
TEST(ThreatPlanesTest, AThreeWhoseFourPointMakesAFiveIsNotLive) {
  Game plain = Position("f8 g8", "d8", Color::kBlack);
  EXPECT_EQ(Planes(plain, 2).At(kOwnThreePlane, "h8"), 1.0f);

  Game game = Position("f8 g8 i9 i10 i11 i12", "d8", Color::kBlack);
  const Planes planes(game, 2);
  EXPECT_EQ(planes.Ones(kOwnFivePlane), (Names{"i8", "i13"}));
  EXPECT_EQ(planes.At(kOwnThreePlane, "h8"), 0.0f);
}

// --- Version 2 against the rules, on random positions ----------------------

// A game of `plies` seeded random legal moves, each within two points of an
// earlier stone (the first on h8), so that shapes form as in real games.
Game ClusteredGame(Variant variant, uint32_t seed, int plies) {
  std::mt19937 rng(seed);
  Game game(variant, kRenjuBoardSize);
  EXPECT_TRUE(game.Play(Move::At(Point(7, 7))).ok());
  while (game.ply() < plies && !game.over()) {
    std::vector<Point> near;
    for (Point p : game.LegalPoints()) {
      bool close = false;
      for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
          const Point q(p.x + dx, p.y + dy);
          close |= q.OnBoard(game.size()) && !game.board().IsEmpty(q);
        }
      }
      if (close) near.push_back(p);
    }
    EXPECT_TRUE(game.Play(Move::At(near[rng() % near.size()])).ok());
  }
  if (game.over()) game.Undo();
  return game;
}

// encoding.h's definitions read directly off RULES.md §2-4, with virtual
// stones on one line instead of the board's shape tables; forbidden points
// come from the rules core. Slow and plain: the reference for the planes.
class Reference {
 public:
  Reference(Board& board, Color c)
      : board_(board),
        c_(c),
        renju_black_(c == Color::kBlack && board.variant() == Variant::kRenju),
        exact_five_(board.variant() == Variant::kStandard || renju_black_) {}

  bool Five(Point p) const {
    for (int d = 0; d < kNumDirections; ++d) {
      if (FiveOnLine(p, d, {})) return true;
    }
    return false;
  }
  bool Four(Point p) const {
    if (Five(p) || Forbidden(p)) return false;
    for (int d = 0; d < kNumDirections; ++d) {
      if (FourOnLine(p, d)) return true;
    }
    return false;
  }
  // Some line without a four on which one more stone q makes a straight
  // four holding p, with q playable for black under renju (RULES.md §3).
  bool Three(Point p) const {
    if (Five(p) || Forbidden(p)) return false;
    for (int d = 0; d < kNumDirections; ++d) {
      if (FourOnLine(p, d)) continue;
      for (int k = -4; k <= 4; ++k) {
        const Point q = Step(p, d, k);
        if (k == 0 || !Empty(q) || !StraightFour(p, d, k)) continue;
        if (!renju_black_) return true;
        bool q_makes_five = false;
        for (int e = 0; e < kNumDirections; ++e) {
          q_makes_five |= FiveOnLine(q, e, {p});
        }
        if (q_makes_five) continue;
        ScopedStone stone(board_, p, Color::kBlack);
        if (!IsForbidden(board_, q)) return true;
      }
    }
    return false;
  }

 private:
  static Point Step(Point p, int d, int k) {
    static constexpr int kDx[] = {1, 0, 1, 1};
    static constexpr int kDy[] = {0, 1, 1, -1};
    return Point(p.x + k * kDx[d], p.y + k * kDy[d]);
  }
  bool Empty(Point p) const { return board_.OnBoard(p) && board_.IsEmpty(p); }
  bool Own(Point p, const std::vector<Point>& extra) const {
    if (!board_.OnBoard(p)) return false;
    for (Point e : extra) {
      if (e == p) return true;
    }
    return board_.at(p) == StoneOf(c_);
  }
  // The run of own stones along d through p, with p and `extra` own: its
  // ends at offsets *lo <= 0 <= *hi from p.
  int Run(Point p, int d, std::vector<Point> extra, int* lo, int* hi) const {
    extra.push_back(p);
    *lo = 0;
    *hi = 0;
    while (Own(Step(p, d, *lo - 1), extra)) --*lo;
    while (Own(Step(p, d, *hi + 1), extra)) ++*hi;
    return *hi - *lo + 1;
  }
  bool IsFive(int run) const { return exact_five_ ? run == 5 : run >= 5; }
  // With p own, one more stone e on line d makes a five holding p.
  bool FourOnLine(Point p, int d) const {
    for (int k = -4; k <= 4; ++k) {
      const Point e = Step(p, d, k);
      int lo, hi;
      if (k == 0 || !Empty(e)) continue;
      // p sits at offset -k from e.
      if (IsFive(Run(e, d, {p}, &lo, &hi)) && lo <= -k && -k <= hi) {
        return true;
      }
    }
    return false;
  }
  bool FiveOnLine(Point p, int d, const std::vector<Point>& extra) const {
    int lo, hi;
    return IsFive(Run(p, d, extra, &lo, &hi));
  }
  // With p and q = Step(p, d, k) own: four in a row along d holding both,
  // whose two ends are empty and each completes a five.
  bool StraightFour(Point p, int d, int k) const {
    const Point q = Step(p, d, k);
    int lo, hi;
    if (Run(q, d, {p}, &lo, &hi) != 4 || -k < lo || -k > hi) return false;
    const Point left = Step(q, d, lo - 1), right = Step(q, d, hi + 1);
    return Empty(left) && Empty(right) && FiveOnLine(left, d, {p, q}) &&
           FiveOnLine(right, d, {p, q});
  }
  bool Forbidden(Point p) const {
    return renju_black_ && IsForbidden(board_, p);
  }

  Board& board_;
  Color c_;
  bool renju_black_;
  bool exact_five_;
};

// Whether black on p has a line whose shape is a three but no live three:
// the renju case the exact test exists for.
bool OnlyFalseThrees(Board& board, Point p, const Planes& planes, int plane) {
  if (!board.IsEmpty(p) || planes.At(plane, p) == 1.0f ||
      board.FivePoints(Color::kBlack).Contains(p) || IsForbidden(board, p)) {
    return false;
  }
  for (int d = 0; d < kNumDirections; ++d) {
    const auto dir = static_cast<Direction>(d);
    if (board.ShapeAt(p, Color::kBlack, dir) == LineShape::kThree) return true;
  }
  return false;
}

TEST(ThreatPlanesTest, AgreeWithTheRulesOnRandomPositions) {
  int threes = 0, false_threes = 0;
  for (Variant variant :
       {Variant::kRenju, Variant::kStandard, Variant::kFreestyle}) {
    for (uint32_t seed = 1; seed <= 30; ++seed) {
      Game game = ClusteredGame(variant, seed, 10 + 2 * seed);
      const Planes planes(game, 2);
      const Color me = game.side_to_move();
      Board& board = game.mutable_board();
      for (Color c : {me, Opponent(me)}) {
        const Reference reference(board, c);
        const int base = c == me ? kOwnFivePlane : kOpponentFivePlane;
        for (int y = 0; y < game.size(); ++y) {
          for (int x = 0; x < game.size(); ++x) {
            const Point p(x, y);
            const bool empty = board.IsEmpty(p);
            SCOPED_TRACE(absl::StrCat(VariantName(variant), " seed ", seed, " ",
                                      ColorName(c), " ", PointName(p)));
            ASSERT_EQ(planes.At(base, p), empty && reference.Five(p))
                << RenderBoard(board);
            ASSERT_EQ(planes.At(base + 1, p), empty && reference.Four(p))
                << RenderBoard(board);
            ASSERT_EQ(planes.At(base + 2, p), empty && reference.Three(p))
                << RenderBoard(board);
            threes += planes.At(base + 2, p) == 1.0f;
            if (variant == Variant::kRenju && c == Color::kBlack) {
              false_threes += OnlyFalseThrees(board, p, planes, base + 2);
            }
          }
        }
      }
      EXPECT_TRUE(game.board().IsConsistent());
    }
  }
  // The positions do have threats, and false threes among them.
  EXPECT_GT(threes, 100);
  EXPECT_GT(false_threes, 0);
  RecordProperty("threes", threes);
  RecordProperty("false_threes", false_threes);
}

// The encoding of a transformed position is the transformed encoding, for
// every plane of version 2 and every symmetry.
TEST(ThreatPlanesTest, EncodingCommutesWithTheSymmetries) {
  for (Variant variant :
       {Variant::kRenju, Variant::kStandard, Variant::kFreestyle}) {
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      Game game = ClusteredGame(variant, 100 + seed, 12 + 8 * seed);
      const Planes planes(game, 2);
      for (Symmetry s = 1; s < kNumSymmetries; ++s) {
        absl::StatusOr<Game> turned = Game::FromMoves(
            variant, game.size(), ApplySymmetry(s, game.moves(), game.size()));
        ASSERT_TRUE(turned.ok()) << turned.status();
        const Planes turned_planes(*turned, 2);
        for (int k = 0; k < kNumInputPlanesV2; ++k) {
          for (int y = 0; y < game.size(); ++y) {
            for (int x = 0; x < game.size(); ++x) {
              const Point p(x, y);
              ASSERT_EQ(turned_planes.At(k, ApplySymmetry(s, p, game.size())),
                        planes.At(k, p))
                  << VariantName(variant) << " seed " << seed << " symmetry "
                  << int{s} << " plane " << k << " " << PointName(p);
            }
          }
        }
      }
    }
  }
}

TEST(ThreatPlanesTest, LeavesTheGameUnchanged) {
  Game game = Position("g8 h8 i6 i7 i9 i10 i11", "d8", Color::kBlack);
  const uint64_t hash = game.hash();
  const Planes planes(game, 2);
  EXPECT_EQ(game.hash(), hash);
  EXPECT_TRUE(game.board().IsConsistent());
}

}  // namespace
}  // namespace renju
