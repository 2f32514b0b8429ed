// The shipped default model: where `renju gomocup`, `pbrain-renju` and
// `renju serve` find it when no --model is given (the build tree, an
// install, a renju.model beside the binary), and that they play it rather
// than an untrained network.
#include "cli/default_model.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "gtest/gtest.h"
#include "nn/checkpoint.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

class DefaultModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("default_model_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  static void Touch(const fs::path& path) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "x";
  }

  fs::path root_;
};

TEST_F(DefaultModelTest, ARenjuModelBesideTheBinaryComesFirst) {
  const std::string bin = (root_ / "bin").string() + "/";
  fs::create_directories(root_ / "bin");
  Touch(root_ / "share/renju/default.model");
  EXPECT_EQ(commands::FindDefaultModel(bin),
            bin + "../share/renju/default.model");
  Touch(root_ / "bin/renju.model");
  EXPECT_EQ(commands::FindDefaultModel(bin), bin + "renju.model");
}

TEST_F(DefaultModelTest, TheBuildTreeLayoutIsFound) {
  const std::string build = root_.string() + "/";
  Touch(root_ / "share/renju/default.model");
  EXPECT_EQ(commands::FindDefaultModel(build),
            build + "share/renju/default.model");
}

TEST_F(DefaultModelTest, TheBuildCopiesATrainedModel) {
  const std::string path =
      std::string(RENJU_BINARY_DIR) + "/share/renju/default.model";
  absl::StatusOr<Checkpoint> checkpoint = ReadCheckpoint(path);
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  EXPECT_GT(checkpoint->info.generation, 0);
  EXPECT_GT(checkpoint->info.training_step, 0);
  EXPECT_LE(fs::file_size(path), 8u << 20);
}

// From the build tree, with neither --model nor --config: the engine says
// which model it plays, and answers BEGIN with a move.
TEST_F(DefaultModelTest, TheEnginePlaysTheDefaultModel) {
  testing::CommandResult result = testing::RunRenju(
      "gomocup --turn-ms 300 2>&1 <<'EOF'\nSTART 15\nBEGIN\nEND\nEOF");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("playing the default model " +
                            std::string(RENJU_BINARY_DIR) +
                            "/share/renju/default.model"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("untrained"), std::string::npos) << result.out;
  EXPECT_TRUE(std::regex_search(result.out, std::regex("\n[0-9]+,[0-9]+\n")))
      << result.out;
}

// `cmake --install` into a fresh prefix, the binary run from there under
// the name managers use: it finds the installed model, not the build's.
TEST_F(DefaultModelTest, AnInstalledEngineFindsTheInstalledModel) {
  const fs::path prefix = root_ / "prefix";
  const std::string install = "cmake --install " +
                              std::string(RENJU_BINARY_DIR) + " --prefix " +
                              prefix.string() + " >/dev/null";
  ASSERT_EQ(std::system(install.c_str()), 0) << install;
  ASSERT_TRUE(fs::exists(prefix / "share/renju/default.model"));
  ASSERT_TRUE(fs::exists(prefix / "bin/pbrain-renju"));
  const std::string command =
      (prefix / "bin/pbrain-renju").string() +
      " --turn-ms 300 2>&1 <<'EOF'\nSTART 15\nBEGIN\nEND\nEOF";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("playing the default model " + prefix.string() +
                     "/bin/../share/renju/default.model"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace renju
