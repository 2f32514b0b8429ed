#include "nn/encoding.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::kDoubleThreeMoves;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;

// Encodes `game` and reads planes back by name.
class Planes {
 public:
  explicit Planes(Game& game)
      : size_(game.size()), data_(EncodedSize(game.size()), -1.0f) {
    EncodePosition(game, data_.data());
  }
  float At(int plane, const std::string& point) const {
    const Point p = Pt(point, size_);
    return data_[plane * size_ * size_ + p.y * size_ + p.x];
  }
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
  EXPECT_EQ(EncodedSize(20), kNumInputPlanes * 400);
}

TEST(EncodingTest, LeavesTheGameUnchanged) {
  Game game = MakeGame(kDoubleThreeMoves);
  const uint64_t hash = game.hash();
  Planes planes(game);
  EXPECT_EQ(game.hash(), hash);
  EXPECT_TRUE(game.board().IsConsistent());
}

}  // namespace
}  // namespace renju
