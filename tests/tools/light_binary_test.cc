// The light `renju` binary (tools/main.cc): it loads neither LibTorch nor
// gRPC, answers every command's --help by itself (the same text as
// renju-full's), runs the commands that need no network, and hands every
// other command line to renju-full beside it unchanged.
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/temp_dir.h"
#include "tests/tools/run_command.h"
#include "tools/command_list.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::Contains;
using testing::RunRenju;
using testing::RunShell;

const std::string kBinaryDir = RENJU_BINARY_DIR;

TEST(LightBinaryTest, LoadsNeitherLibTorchNorGrpc) {
  // What the dynamic loader would load, transitive libraries included (as
  // ldd prints it).
  const CommandResult loaded =
      RunShell("LD_TRACE_LOADED_OBJECTS=1 " + kBinaryDir + "/renju");
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out;
  EXPECT_TRUE(Contains(loaded.out, "libc.so")) << loaded.out;
  for (const char* heavy : {"libtorch", "libc10", "libgrpc", "libdnnl"}) {
    EXPECT_FALSE(Contains(loaded.out, heavy)) << heavy << "\n" << loaded.out;
  }
  // The full binary does load them: the check above can see them.
  const CommandResult full =
      RunShell("LD_TRACE_LOADED_OBJECTS=1 " + kBinaryDir + "/renju-full");
  EXPECT_TRUE(Contains(full.out, "libtorch")) << full.out;
}

// Alone in a folder, without renju-full beside it, the light binary still
// answers --help for every command and runs the local ones; the others
// fail, naming the binary they need.
TEST(LightBinaryTest, AnswersEveryHelpAndTheLocalCommandsByItself) {
  const fs::path dir = testing::TestDir("renju_light_");
  fs::copy_file(kBinaryDir + "/renju", dir / "renju");
  const std::string alone = (dir / "renju").string();
  for (const commands::CommandSummary& c : commands::kCommandList) {
    const CommandResult light = RunShell(alone + " " + c.name + " --help 2>&1");
    EXPECT_EQ(light.exit_code, 0) << c.name << ": " << light.out;
    EXPECT_TRUE(Contains(light.out, std::string("usage: renju ") + c.name))
        << light.out;
  }
  // The stored texts are renju-full's own (one start of it is enough to
  // show the build stored them; each start loads LibTorch).
  const CommandResult light = RunShell(alone + " serve --help 2>&1");
  const CommandResult full =
      RunShell(kBinaryDir + "/renju-full serve --help 2>&1");
  EXPECT_EQ(light.out, full.out);
  EXPECT_TRUE(Contains(light.out, "--tls-client-ca")) << light.out;
  const CommandResult show = RunShell(alone + " show --moves 'h8 h9'");
  EXPECT_EQ(show.exit_code, 0) << show.out;
  EXPECT_TRUE(Contains(show.out, "side to move: black")) << show.out;

  const CommandResult train = RunShell(alone + " train --generations 1 2>&1");
  EXPECT_EQ(train.exit_code, 127) << train.out;
  EXPECT_TRUE(Contains(
      train.out,
      "cannot start " + (dir / "renju-full").string() + " for 'train'"))
      << train.out;
  fs::remove_all(dir);
}

TEST(LightBinaryTest, HandsTheOtherCommandsToTheFullBinary) {
  // A flag only the suggest command knows reaches it unchanged.
  CommandResult r = RunRenju("suggest --server 127.0.0.1:1 --bogus 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(Contains(r.out, "suggest: unknown flag --bogus")) << r.out;
  // Unknown commands stop in the light binary.
  r = RunRenju("trian 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(Contains(r.out, "renju: unknown command 'trian'")) << r.out;
  // Started under a Gomocup engine's name, it plays through renju-full.
  const fs::path dir = testing::TestDir("renju_light_");
  fs::create_symlink(kBinaryDir + "/renju", dir / "pbrain-light");
  r = RunShell("printf 'ABOUT\\nEND\\n' | " + (dir / "pbrain-light").string() +
               " --brain tactical 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(Contains(r.out, "name=\"renju-zero\"")) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace renju
