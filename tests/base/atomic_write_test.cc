// WriteFileAtomically (base/file_util.h) on a full disk: a 1 MiB tmpfs
// that a larger write cannot fit. The old file must stay whole, no
// temporary may be left, and the error must say the disk is full with a
// code callers wait on. Mounting needs root (or CAP_SYS_ADMIN); elsewhere
// the test skips, saying so.
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "base/file_util.h"
#include "gtest/gtest.h"
#include "tests/common/temp_dir.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

TEST(AtomicWriteTest, AFullDiskKeepsTheOldFileAndLeavesNoTemporary) {
  const fs::path dir = testing::TestDir("atomic_write_");
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=1m") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs on " << dir << " ("
                 << std::strerror(errno) << "): needs root or CAP_SYS_ADMIN";
  }
  const std::string path = (dir / "state").string();
  const std::string fixed_temp = path + ".tmp";
  ASSERT_TRUE(WriteFileAtomically(path, "old contents").ok());

  const std::string too_big(2 << 20, 'x');
  for (const std::string& temp : {std::string(), fixed_temp}) {
    const absl::Status s = WriteFileAtomically(path, too_big, temp);
    EXPECT_TRUE(absl::IsResourceExhausted(s)) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "disk full")) << s;
    EXPECT_EQ(ReadFile(path).value_or(""), "old contents");
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().filename(), "state") << "left behind";
    }
  }
  // Room again: the same call succeeds, through the fixed temporary too.
  EXPECT_TRUE(WriteFileAtomically(path, "new contents", fixed_temp).ok());
  EXPECT_EQ(ReadFile(path).value_or(""), "new contents");
  EXPECT_FALSE(fs::exists(fixed_temp));
  ::umount2(dir.c_str(), MNT_DETACH);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace renju
