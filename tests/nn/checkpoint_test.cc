#include "nn/checkpoint.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nn/batched_evaluator.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/tensor_file.h"
#include "tests/nn/test_util.h"

namespace renju {
namespace {

using ::renju::testing::IndexOf;
using ::renju::testing::kDoubleThreeMoves;
using ::renju::testing::MakeGame;
using ::renju::testing::Pt;
using ::testing::HasSubstr;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

ModelOptions DeviceOptions(const std::string& device) {
  ModelOptions options;
  options.device = device;
  return options;
}

ModelOptions CpuOptions() { return DeviceOptions("cpu"); }

NetworkConfig SmallConfig() {
  NetworkConfig config = TinyNetworkConfig();
  config.blocks = 2;
  config.channels = 16;
  config.global_pool_channels = 4;
  return config;
}

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/renju_checkpoint_test_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() +
            ".ckpt";
    absl::StatusOr<std::unique_ptr<Model>> model =
        Model::Create(SmallConfig(), CpuOptions(), 42);
    ASSERT_TRUE(model.ok()) << model.status();
    model_ = *std::move(model);
    model_->mutable_info().generation = 3;
    model_->mutable_info().training_step = 12000;
    model_->mutable_info().variants = {Variant::kRenju, Variant::kStandard};
    ASSERT_TRUE(model_->Save(path_).ok());
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // Loads path_ and returns the error, failing the test if it loaded.
  absl::Status LoadError(
      const std::optional<NetworkConfig>& expected = std::nullopt) {
    absl::StatusOr<std::unique_ptr<Model>> loaded =
        Model::Load(path_, CpuOptions(), expected);
    EXPECT_FALSE(loaded.ok());
    return loaded.status();
  }

  // Rewrites path_ with one metadata value changed.
  void SetMetadata(const std::string& key, const std::string& value) {
    absl::StatusOr<TensorFile> file = ReadTensorFile(path_);
    ASSERT_TRUE(file.ok()) << file.status();
    bool found = false;
    for (auto& [k, v] : file->metadata) {
      if (k == key) {
        v = value;
        found = true;
      }
    }
    if (!found) file->metadata.emplace_back(key, value);
    ASSERT_TRUE(WriteTensorFile(path_, *file).ok());
  }

  std::string path_;
  std::unique_ptr<Model> model_;
};

// Runs `model` on one position and returns policy and WDL logits.
std::vector<float> Outputs(Model& model) {
  Game game = MakeGame("h8 h9 j10");
  std::vector<float> planes(model.input_floats());
  EncodePosition(game, model.config().encoding_version, planes.data());
  std::vector<float> out(model.policy_size() + 3);
  EXPECT_TRUE(model
                  .Forward(planes.data(), 1, out.data(),
                           out.data() + model.policy_size())
                  .ok());
  return out;
}

TEST_F(CheckpointTest, CraftedShapesAreErrorsNotAllocations) {
  // A file whose hash is right but whose shape claims 2^93 elements: the
  // reader must refuse it before multiplying or allocating.
  absl::StatusOr<TensorFile> file = ReadTensorFile(path_);
  ASSERT_TRUE(file.ok()) << file.status();
  file->tensors[0].shape = {int64_t{1} << 31, int64_t{1} << 31,
                            int64_t{1} << 31};
  ASSERT_TRUE(WriteTensorFile(path_, *file).ok());
  absl::StatusOr<TensorFile> crafted = ReadTensorFile(path_);
  ASSERT_FALSE(crafted.ok());
  EXPECT_EQ(crafted.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(crafted.status().message().find("shape larger than the file"),
            std::string::npos)
      << crafted.status();
}

TEST_F(CheckpointTest, SaveLoadIsBitExact) {
  absl::StatusOr<std::unique_ptr<Model>> loaded =
      Model::Load(path_, CpuOptions(), SmallConfig());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->content_hash(), model_->content_hash());
  EXPECT_EQ((*loaded)->content_hash().size(), 40u);
  EXPECT_EQ(Outputs(**loaded), Outputs(*model_));

  const CheckpointInfo& info = (*loaded)->info();
  EXPECT_EQ(info.config, SmallConfig());
  EXPECT_EQ(info.config.encoding_version, 1);
  EXPECT_EQ(info.generation, 3);
  EXPECT_EQ(info.training_step, 12000);
  EXPECT_EQ(info.variants,
            (std::vector<Variant>{Variant::kRenju, Variant::kStandard}));

  // Saving the loaded model again writes the very same bytes.
  const std::string resaved = path_ + ".again";
  ASSERT_TRUE((*loaded)->Save(resaved).ok());
  EXPECT_EQ(ReadBytes(resaved), ReadBytes(path_));
  std::remove(resaved.c_str());
}

TEST_F(CheckpointTest, ClonesAndEqualSeedsGiveEqualWeights) {
  absl::StatusOr<std::unique_ptr<Model>> clone = model_->Clone();
  ASSERT_TRUE(clone.ok()) << clone.status();
  EXPECT_EQ(Outputs(**clone), Outputs(*model_));
  auto a = Model::Create(SmallConfig(), CpuOptions(), 5);
  auto b = Model::Create(SmallConfig(), CpuOptions(), 5);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(Outputs(**a), Outputs(**b));
  EXPECT_NE(Outputs(**a), Outputs(*model_));
}

// Each case damages the saved file's bytes and names the error it expects.
struct Damage {
  const char* what;
  std::function<std::string(std::string)> damage;
  absl::StatusCode code;
  std::string message;
};

TEST_F(CheckpointTest, DamagedFilesGiveClearErrors) {
  const std::string good = ReadBytes(path_);
  const std::vector<Damage> cases = {
      {"truncated weights",
       [](std::string b) { return b.substr(0, b.size() - 100); },
       absl::StatusCode::kDataLoss,
       absl::StrCat("checkpoint ", path_, ": truncated (expected ")},
      {"truncated header", [](std::string b) { return b.substr(0, 20); },
       absl::StatusCode::kDataLoss,
       "truncated (expected a 68-byte header, found 20 bytes)"},
      {"empty file", [](std::string) { return std::string(); },
       absl::StatusCode::kInvalidArgument, "not a renju checkpoint"},
      {"wrong magic",
       [](std::string b) {
         b[0] = 'X';
         return b;
       },
       absl::StatusCode::kInvalidArgument, "not a renju checkpoint"},
      {"trailing bytes", [](std::string b) { return b + "junk"; },
       absl::StatusCode::kDataLoss, "4 unexpected bytes after the weights"},
      {"flipped weight bit",
       [](std::string b) {
         b[b.size() - 10] ^= 0x01;
         return b;
       },
       absl::StatusCode::kDataLoss, "content hash mismatch"},
  };
  for (const Damage& c : cases) {
    SCOPED_TRACE(c.what);
    WriteBytes(path_, c.damage(good));
    const absl::Status status = LoadError();
    EXPECT_EQ(status.code(), c.code) << status;
    EXPECT_THAT(status.message(), HasSubstr(c.message));
  }
  WriteBytes(path_, good.substr(0, good.size() - 100));
  EXPECT_THAT(LoadError().message(), HasSubstr("bytes of weights, found "));
}

TEST_F(CheckpointTest, BadMetadataGivesClearErrors) {
  const std::string good = ReadBytes(path_);
  struct Case {
    const char* key;
    const char* value;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"encoding_version", "3", "encoding version 3, this build reads 1..2"},
      {"encoding_version", "0", "encoding version 0, this build reads 1..2"},
      // Version 2 weights need a wider stem.
      {"encoding_version", "2",
       "has shape [16,13,3,3], the network wants [16,19,3,3]"},
      {"blocks", "0", "blocks is 0, expected 1..64"},
      {"generation", "three",
       "metadata generation is 'three', expected an integer"},
      {"variants", "renju,chess", "metadata variants is 'renju,chess'"},
      {"colour", "blue", "unknown key colour"},
      {"aux_heads", "2", "metadata aux_heads is '2', expected 0 or 1"},
      // Claims auxiliary heads the weights do not have.
      {"aux_heads", "1", "is missing"},
      // A valid config, but not the one these weights were made for.
      {"channels", "24",
       "has shape [16,13,3,3], the network wants [24,13,3,3]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.key);
    WriteBytes(path_, good);
    SetMetadata(c.key, c.value);
    const absl::Status status = LoadError();
    EXPECT_THAT(status.message(), HasSubstr(c.message)) << status;
    EXPECT_THAT(status.message(), HasSubstr(path_));
  }
}

TEST_F(CheckpointTest, MismatchesGiveClearErrors) {
  NetworkConfig expected = SmallConfig();
  expected.blocks = 6;
  EXPECT_THAT(LoadError(expected).message(),
              HasSubstr("architecture differs: blocks 2 (expected 6)"));

  absl::StatusOr<TensorFile> file = ReadTensorFile(path_);
  ASSERT_TRUE(file.ok());
  file->kind = "training-state";
  ASSERT_TRUE(WriteTensorFile(path_, *file).ok());
  EXPECT_THAT(LoadError().message(),
              HasSubstr("holds 'training-state', expected 'model'"));

  std::remove(path_.c_str());
  EXPECT_EQ(LoadError().code(), absl::StatusCode::kNotFound);
}

// "aux_heads 1" is written only for a net with auxiliary heads, so other
// files are as before; such a checkpoint loads for play wherever its
// config without the heads is expected, and plays as its main heads do.
TEST_F(CheckpointTest, AuxHeadsAreAnOptionalKeyAndLoadForPlay) {
  auto has_key = [](const std::string& path) {
    absl::StatusOr<TensorFile> file = ReadTensorFile(path);
    EXPECT_TRUE(file.ok()) << file.status();
    for (const auto& [key, value] : file->metadata) {
      if (key == "aux_heads") return value;
    }
    return std::string("absent");
  };
  EXPECT_EQ(has_key(path_), "absent");

  NetworkConfig aux = SmallConfig();
  aux.aux_heads = true;
  auto model = Model::Create(aux, CpuOptions(), 42);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_TRUE((*model)->Save(path_).ok());
  EXPECT_EQ(has_key(path_), "1");
  auto loaded = Model::Load(path_, CpuOptions(), SmallConfig());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE((*loaded)->config().aux_heads);
  // Equal seeds draw the main weights alike with or without the heads.
  EXPECT_EQ(Outputs(**loaded), Outputs(*model_));

  NetworkConfig wider = SmallConfig();
  wider.channels = 24;
  EXPECT_THAT(LoadError(wider).message(),
              HasSubstr("architecture differs: channels 16 (expected 24)"));
  EXPECT_EQ(DescribeConfigDifference(aux, SmallConfig()),
            "aux_heads 1 (expected 0)");
}

TEST_F(CheckpointTest, VersionTwoLoadsWithItsOwnEncoding) {
  NetworkConfig v2 = SmallConfig();
  v2.encoding_version = 2;
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Create(v2, CpuOptions(), 7);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_TRUE((*model)->Save(path_).ok());
  absl::StatusOr<std::unique_ptr<Model>> loaded =
      Model::Load(path_, CpuOptions());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->config(), v2);
  EXPECT_EQ((*loaded)->input_floats(), kNumInputPlanesV2 * 225);
  EXPECT_EQ(Outputs(**loaded), Outputs(**model));
  EXPECT_EQ(ReadTensorFile(path_)->metadata.front(),
            (std::pair<std::string, std::string>{"encoding_version", "2"}));

  const absl::Status status = LoadError(SmallConfig());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr(path_));
  EXPECT_THAT(status.message(),
              HasSubstr("input encoding version 2 (expected 1)"));
}

// tests/data/tiny-gen3.model was written before encoding version 2 existed:
// it loads and plays with its own version-1 encoding, and a config that
// asks for version 2 refuses it.
TEST(CheckpointFileTest, VersionOneModelStillLoadsAndEvaluates) {
  const std::string path =
      std::string(RENJU_SOURCE_DIR) + "/tests/data/tiny-gen3.model";
  absl::StatusOr<std::unique_ptr<Model>> model =
      Model::Load(path, CpuOptions(), TinyNetworkConfig());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->config().encoding_version, 1);
  EXPECT_EQ((*model)->input_floats(), kNumInputPlanesV1 * 225);
  std::vector<std::unique_ptr<Model>> models;
  models.push_back(*std::move(model));
  absl::StatusOr<std::unique_ptr<BatchedEvaluator>> evaluator =
      BatchedEvaluator::Create(std::move(models), BatchedEvaluatorOptions{});
  ASSERT_TRUE(evaluator.ok()) << evaluator.status();
  Game game = MakeGame(kDoubleThreeMoves);
  Evaluation out;
  ASSERT_TRUE((*evaluator)->Evaluate(game, out).ok());
  EXPECT_NEAR(std::accumulate(out.policy.begin(), out.policy.end(), 0.0), 1.0,
              1e-5);
  EXPECT_EQ(out.policy[IndexOf(Pt("i8"))], 0.0f);  // forbidden
  EXPECT_NEAR(out.win + out.draw + out.loss, 1.0f, 1e-6);

  NetworkConfig v2 = TinyNetworkConfig();
  v2.encoding_version = 2;
  const absl::Status status = Model::Load(path, CpuOptions(), v2).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr(path));
  EXPECT_THAT(status.message(),
              HasSubstr("input encoding version 1 (expected 2)"));
}

TEST(TensorFileTest, RoundTripsInt64AndFloatTensors) {
  const std::string path = ::testing::TempDir() + "/renju_tensor_file_test";
  TensorFile file;
  file.kind = "training-state";
  file.metadata = {{"optimizer", "sgd momentum 0.9"}};
  TensorRecord step{"step", TensorDtype::kInt64, {}, std::string(8, '\0')};
  step.data[0] = 7;
  TensorRecord weights{"w", TensorDtype::kFloat32, {2, 1}, "abcdefgh"};
  file.tensors = {step, weights};
  ASSERT_TRUE(WriteTensorFile(path, file).ok());
  absl::StatusOr<TensorFile> read = ReadTensorFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->kind, "training-state");
  EXPECT_EQ(read->metadata, file.metadata);
  EXPECT_EQ(read->content_hash, file.content_hash);
  ASSERT_EQ(read->tensors.size(), 2u);
  EXPECT_EQ(read->tensors[0].data, step.data);
  EXPECT_EQ(read->tensors[1].shape, weights.shape);
  EXPECT_EQ(read->tensors[1].data, "abcdefgh");
  std::remove(path.c_str());
}

TEST(ModelTest, BadOptionsAreErrors) {
  EXPECT_EQ(Model::Create(SmallConfig(), DeviceOptions("tpu")).status().code(),
            absl::StatusCode::kInvalidArgument);
  ModelOptions half;
  half.device = "cpu";
  half.precision = Precision::kFloat16;
  EXPECT_EQ(Model::Create(SmallConfig(), half).status().code(),
            absl::StatusCode::kInvalidArgument);
  NetworkConfig bad = SmallConfig();
  bad.channels = 4;
  EXPECT_THAT(Model::Create(bad, CpuOptions()).status().message(),
              HasSubstr("channels is 4"));
  float dummy[1];
  auto model = Model::Create(SmallConfig(), CpuOptions());
  ASSERT_TRUE(model.ok());
  EXPECT_FALSE((*model)->Forward(dummy, 0, dummy, dummy).ok());
  if (!CudaAvailable()) {
    EXPECT_EQ(
        Model::Create(SmallConfig(), DeviceOptions("cuda")).status().code(),
        absl::StatusCode::kFailedPrecondition);
  }
}

}  // namespace
}  // namespace renju
