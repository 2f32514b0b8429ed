// The one bearer-token check (rpc/bearer_token.h) that the gRPC services
// and the board page's HTTP API share.
#include "rpc/bearer_token.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(BearerTokenTest, SecretEqualsOnlyTheSameBytes) {
  EXPECT_TRUE(SecretEquals("s3cret", "s3cret"));
  EXPECT_TRUE(SecretEquals("", ""));
  EXPECT_FALSE(SecretEquals("s3cret", "s3creT"));
  EXPECT_FALSE(SecretEquals("s3cret", "s3cre"));
  EXPECT_FALSE(SecretEquals("s3cret", "s3cret!"));
  // A guess that repeats the secret is not the secret.
  EXPECT_FALSE(SecretEquals("ab", "abab"));
  EXPECT_FALSE(SecretEquals("", "x"));
  EXPECT_FALSE(SecretEquals("x", ""));
}

TEST(BearerTokenTest, MatchesExactlyBearerAndTheToken) {
  EXPECT_TRUE(BearerTokenMatches("Bearer tok", "tok"));
  EXPECT_FALSE(BearerTokenMatches("bearer tok", "tok"));
  EXPECT_FALSE(BearerTokenMatches("Bearer  tok", "tok"));
  EXPECT_FALSE(BearerTokenMatches("Bearer tok ", "tok"));
  EXPECT_FALSE(BearerTokenMatches("tok", "tok"));
  EXPECT_FALSE(BearerTokenMatches("", "tok"));
  EXPECT_FALSE(BearerTokenMatches("Bearer other", "tok"));
}

TEST(BearerTokenTest, FindsTheHolderOfTheToken) {
  const std::map<std::string, std::string> tokens = {{"t-one", "worker-1"},
                                                     {"t-two", "worker-2"}};
  const std::string* holder = FindBearerTokenHolder("Bearer t-two", tokens);
  ASSERT_NE(holder, nullptr);
  EXPECT_EQ(*holder, "worker-2");
  EXPECT_EQ(FindBearerTokenHolder("Bearer t-three", tokens), nullptr);
  EXPECT_EQ(FindBearerTokenHolder("t-one", tokens), nullptr);
  EXPECT_EQ(FindBearerTokenHolder("Bearer t-one", {}), nullptr);
}

}  // namespace
}  // namespace renju
