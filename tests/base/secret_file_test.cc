// ReadSecretFile (base/file_util.h): the one reader of token files, with
// ssh's rule that a secret open to group or others is refused.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/file_util.h"
#include "gtest/gtest.h"
#include "tests/common/temp_dir.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

std::string Write(const fs::path& dir, const std::string& name,
                  const std::string& text, mode_t mode) {
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  EXPECT_EQ(::chmod(path.c_str(), mode), 0);
  return path;
}

TEST(SecretFileTest, ReadsAnOwnerOnlyFileWithoutTheTrailingNewline) {
  const fs::path dir = testing::TestDir("secret_");
  const std::string path = Write(dir, "token", "s3cret-token \n\n", 0600);
  absl::StatusOr<std::string> token = ReadSecretFile(path);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(*token, "s3cret-token");
  EXPECT_EQ(*ReadSecretFile(Write(dir, "ro", "abc", 0400)), "abc");
}

TEST(SecretFileTest, RefusesAFileOthersCanReadNamingIt) {
  const fs::path dir = testing::TestDir("secret_");
  for (mode_t mode : {0644, 0640, 0604, 0620, 0602}) {
    const std::string path = Write(dir, "token", "s3cret", mode);
    absl::StatusOr<std::string> token = ReadSecretFile(path);
    ASSERT_FALSE(token.ok()) << std::oct << mode;
    EXPECT_EQ(token.status().code(), absl::StatusCode::kPermissionDenied);
    EXPECT_NE(token.status().message().find(path), absl::string_view::npos)
        << token.status();
    // The secret itself is never in the message.
    EXPECT_EQ(token.status().message().find("s3cret"), absl::string_view::npos)
        << token.status();
  }
}

TEST(SecretFileTest, MissingFileIsAnErrorNamingIt) {
  const fs::path dir = testing::TestDir("secret_");
  const std::string path = (dir / "absent").string();
  absl::StatusOr<std::string> token = ReadSecretFile(path);
  ASSERT_FALSE(token.ok());
  EXPECT_EQ(token.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(token.status().message().find(path), absl::string_view::npos);
}

TEST(SecretFileTest, EmptyOrBlankFileIsAnErrorNamingIt) {
  const fs::path dir = testing::TestDir("secret_");
  for (const std::string text : {"", "\n", " \t\n"}) {
    const std::string path = Write(dir, "token", text, 0600);
    absl::StatusOr<std::string> token = ReadSecretFile(path);
    ASSERT_FALSE(token.ok());
    EXPECT_EQ(token.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(token.status().message().find(path), absl::string_view::npos);
  }
}

}  // namespace
}  // namespace renju
