#include "nn/output.h"

#include <cmath>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(MaskedSoftmaxTest, ZeroOnIllegalPointsAndSumsToOne) {
  std::vector<float> legal = {1, 0, 1, 0, 1};
  std::vector<float> logits = {0.0f, 50.0f, 1.0f, -3.0f, 2.0f};
  MaskedSoftmax(legal.data(), logits.size(), logits.data());
  EXPECT_EQ(logits[1], 0.0f);
  EXPECT_EQ(logits[3], 0.0f);
  EXPECT_NEAR(std::accumulate(logits.begin(), logits.end(), 0.0), 1.0, 1e-6);
  EXPECT_LT(logits[0], logits[2]);
  EXPECT_LT(logits[2], logits[4]);
  EXPECT_NEAR(logits[4] / logits[2], std::exp(1.0f), 1e-4);
}

TEST(MaskedSoftmaxTest, HugeLogitsDoNotOverflow) {
  std::vector<float> legal = {1, 1};
  std::vector<float> logits = {1000.0f, 1000.0f};
  MaskedSoftmax(legal.data(), logits.size(), logits.data());
  EXPECT_FLOAT_EQ(logits[0], 0.5f);
  EXPECT_FLOAT_EQ(logits[1], 0.5f);
}

TEST(MaskedSoftmaxTest, NothingLegalGivesAllZero) {
  std::vector<float> legal = {0, 0, 0};
  std::vector<float> logits = {1.0f, 2.0f, 3.0f};
  MaskedSoftmax(legal.data(), logits.size(), logits.data());
  EXPECT_EQ(logits, (std::vector<float>{0, 0, 0}));
}

TEST(SetWdlTest, SoftmaxOverThreeLogits) {
  const float logits[3] = {2.0f, 0.0f, -1.0f};
  Evaluation e;
  SetWdl(logits, e);
  EXPECT_NEAR(e.win + e.draw + e.loss, 1.0f, 1e-6);
  EXPECT_GT(e.win, e.draw);
  EXPECT_GT(e.draw, e.loss);
  EXPECT_NEAR(e.win / e.draw, std::exp(2.0f), 1e-4);
}

}  // namespace
}  // namespace renju
