#include "cli/args.h"

#include "gtest/gtest.h"

namespace renju {
namespace {

Args MakeArgs() {
  Args args("demo", "A demo command.");
  args.AddString("name", "x", "a name");
  args.AddInt("games", 10, 1, 100, "number of games");
  args.AddDouble("temperature", 1.0, 0.0, 5.0, "temperature");
  args.AddBool("verbose", "talk more");
  return args;
}

TEST(ArgsTest, ParsesEveryForm) {
  Args args = MakeArgs();
  ASSERT_TRUE(args.Parse({"--name", "abc", "--games=42", "--temperature", "0.5",
                          "--verbose"})
                  .ok());
  EXPECT_EQ(args.GetString("name"), "abc");
  EXPECT_EQ(args.GetInt("games"), 42);
  EXPECT_DOUBLE_EQ(args.GetDouble("temperature"), 0.5);
  EXPECT_TRUE(args.GetBool("verbose"));
  EXPECT_TRUE(args.IsSet("games"));
}

TEST(ArgsTest, DefaultsAndNegatedBools) {
  Args args = MakeArgs();
  ASSERT_TRUE(args.Parse({"--noverbose"}).ok());
  EXPECT_EQ(args.GetString("name"), "x");
  EXPECT_EQ(args.GetInt("games"), 10);
  EXPECT_FALSE(args.GetBool("verbose"));
  EXPECT_FALSE(args.IsSet("name"));
}

TEST(ArgsTest, ErrorsNameTheFlagAndValue) {
  Args a = MakeArgs();
  absl::Status s = a.Parse({"--games", "0"});
  EXPECT_EQ(s.message(), "demo: --games=0: outside 1..100");
  Args b = MakeArgs();
  s = b.Parse({"--games=many"});
  EXPECT_EQ(s.message(), "demo: --games=many: not an integer");
  Args c = MakeArgs();
  s = c.Parse({"--colour", "red"});
  EXPECT_EQ(s.message(), "demo: unknown flag --colour (see renju demo --help)");
  Args d = MakeArgs();
  s = d.Parse({"--name"});
  EXPECT_EQ(s.message(), "demo: --name needs a value");
  Args e = MakeArgs();
  s = e.Parse({"stray"});
  EXPECT_EQ(s.message(), "demo: unexpected argument 'stray'");
  Args f = MakeArgs();
  s = f.Parse({"--temperature=nan"});
  EXPECT_FALSE(s.ok());
}

TEST(ArgsTest, PositionalArguments) {
  Args args = MakeArgs();
  args.AllowPositional(1, "FILE");
  ASSERT_TRUE(args.Parse({"games.psq", "--games", "3"}).ok());
  ASSERT_EQ(args.positional().size(), 1u);
  EXPECT_EQ(args.positional()[0], "games.psq");
  EXPECT_FALSE(args.Parse({"second.psq"}).ok());
}

TEST(ArgsTest, HelpListsFlags) {
  Args args = MakeArgs();
  ASSERT_TRUE(args.Parse({"--help"}).ok());
  EXPECT_TRUE(args.help_requested());
  EXPECT_NE(args.Usage().find("--games <value>"), std::string::npos);
}

}  // namespace
}  // namespace renju
