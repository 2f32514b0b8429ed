// Precision on CPU: "auto" picks bf16 exactly where the CPU computes it
// natively, the combinations that cannot run are refused with a reason, and
// the shipped model in bf16 stays close to its float32 self on real
// positions, which is what lets play run in bf16 by default.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/output.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::Direct;
using ::testing::HasSubstr;

ModelOptions Cpu(Precision precision, bool fold = true) {
  ModelOptions options;
  options.device = "cpu";
  options.precision = precision;
  options.fold_batch_norm = fold;
  return options;
}

TEST(PrecisionTest, NamesParse) {
  EXPECT_EQ(*PrecisionFromName("auto"), Precision::kAuto);
  EXPECT_EQ(*PrecisionFromName("bf16"), Precision::kBFloat16);
  EXPECT_THAT(std::string(PrecisionFromName("int8").status().message()),
              HasSubstr("expected fp32, fp16, bf16 or auto"));
}

TEST(PrecisionTest, AutoIsBf16ExactlyWhereTheCpuComputesItNatively) {
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(TinyNetworkConfig(9), Cpu(Precision::kAuto));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->precision_name(), NativeBf16OnCpu() ? "bf16" : "fp32");
  // A copy (one per evaluator server thread) computes the same way.
  absl::StatusOr<std::unique_ptr<Model>> clone = (*model)->Clone();
  ASSERT_TRUE(clone.ok()) << clone.status();
  EXPECT_EQ((*clone)->precision_name(), (*model)->precision_name());
  // The network as trained (not folded) stays in float32 under auto.
  absl::StatusOr<std::unique_ptr<Model>> unfolded =
      Model::Create(TinyNetworkConfig(9), Cpu(Precision::kAuto, false));
  ASSERT_TRUE(unfolded.ok()) << unfolded.status();
  EXPECT_EQ((*unfolded)->precision_name(), "fp32");
}

TEST(PrecisionTest, WhatCannotRunOnThisCpuIsRefusedWithTheReason) {
  EXPECT_THAT(
      std::string(Model::Create(TinyNetworkConfig(9), Cpu(Precision::kFloat16))
                      .status()
                      .message()),
      HasSubstr("fp16 precision needs a CUDA device"));
  const absl::Status bf16 =
      Model::Create(TinyNetworkConfig(9), Cpu(Precision::kBFloat16)).status();
  const absl::Status unfolded =
      Model::Create(TinyNetworkConfig(9), Cpu(Precision::kBFloat16, false))
          .status();
  if (NativeBf16OnCpu()) {
    EXPECT_TRUE(bf16.ok()) << bf16;
    EXPECT_THAT(std::string(unfolded.message()),
                HasSubstr("runs the folded play network only"));
  } else {
    EXPECT_THAT(std::string(bf16.message()), HasSubstr("AVX512-BF16"));
  }
}

// Every 6th position of the first `num_games` shared games, under renju.
std::vector<Game> SharedPositions(int num_games) {
  std::ifstream in(RENJU_SHARED_DIR "/data/renju-games.jsonl");
  EXPECT_TRUE(in) << RENJU_SHARED_DIR "/data/renju-games.jsonl";
  std::vector<Game> out;
  std::string line;
  for (int g = 0; g < num_games && std::getline(in, line); ++g) {
    Game game(Variant::kRenju, kRenjuBoardSize);
    const nlohmann::json record = nlohmann::json::parse(line);
    for (const auto& name : record.at("moves")) {
      absl::StatusOr<Move> move =
          ParseMove(name.get<std::string>(), kRenjuBoardSize);
      if (!move.ok() || !game.Play(*move).ok() || game.over()) break;
      if (game.ply() % 6 == 0) out.push_back(game);
    }
  }
  return out;
}

int MostLikely(const Evaluation& e) {
  return std::max_element(e.policy.begin(), e.policy.end()) - e.policy.begin();
}

// The tolerance BENCHMARKS.md states for play in bf16 ("Play-time
// throughput"): on the shipped model, no move's probability and no value
// moves by more than these, and the most likely move almost always stays.
TEST(PrecisionTest, ShippedModelInBf16StaysCloseToFloat32OnRealPositions) {
  if (!NativeBf16OnCpu()) {
    GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16)";
  }
  const std::string path = RENJU_SOURCE_DIR "/models/default.model";
  absl::StatusOr<std::unique_ptr<Model>> bf16 =
      Model::Load(path, Cpu(Precision::kBFloat16));
  absl::StatusOr<std::unique_ptr<Model>> fp32 =
      Model::Load(path, Cpu(Precision::kFloat32));
  ASSERT_TRUE(bf16.ok()) << bf16.status();
  ASSERT_TRUE(fp32.ok()) << fp32.status();
  std::vector<Game> positions = SharedPositions(20);
  ASSERT_GE(positions.size(), 80u);
  double max_policy = 0;
  double max_value = 0;
  int same_top = 0;
  for (Game& game : positions) {
    const Evaluation a = Direct(**bf16, game);
    const Evaluation b = Direct(**fp32, game);
    for (size_t i = 0; i < a.policy.size(); ++i) {
      max_policy =
          std::max<double>(max_policy, std::fabs(a.policy[i] - b.policy[i]));
    }
    max_value = std::max<double>(
        max_value, std::fabs((a.win - a.loss) - (b.win - b.loss)));
    if (MostLikely(a) == MostLikely(b)) ++same_top;
  }
  EXPECT_LE(max_policy, 0.05);
  EXPECT_LE(max_value, 0.05);
  EXPECT_GE(same_top, static_cast<int>(positions.size() * 0.95));
  // bf16 is not float32 under another name: the outputs do differ.
  EXPECT_GT(max_policy + max_value, 0);
}

}  // namespace
}  // namespace renju
