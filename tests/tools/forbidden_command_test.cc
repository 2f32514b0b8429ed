// `renju forbidden --jsonl` against every labelled public position
// (../shared/data/renju-forbidden-public.jsonl): points and kinds exact,
// through the binary; its errors in-process (run_command.h says why).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

using testing::RunCommand;
using testing::RunRenju;
using testing::SharedData;
using testing::Stderr;

using testing::Lines;

TEST(ForbiddenCommandTest, LabelsEveryPublicPositionExactly) {
  const std::string path = SharedData("renju-forbidden-public.jsonl");
  std::ifstream file(path);
  ASSERT_TRUE(file.good()) << "missing " << path;
  std::vector<std::string> inputs;
  for (std::string line; std::getline(file, line);) inputs.push_back(line);
  ASSERT_EQ(inputs.size(), 1203u);

  const testing::CommandResult result =
      RunRenju("forbidden --jsonl < '" + path + "'");
  ASSERT_EQ(result.exit_code, 0);
  const std::vector<std::string> outputs = Lines(result.out);
  ASSERT_EQ(outputs.size(), inputs.size());

  int mismatches = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const nlohmann::json expected = nlohmann::json::parse(inputs[i]);
    const nlohmann::json actual = nlohmann::json::parse(outputs[i]);
    // The expected lists are sorted by (column, row) like ours.
    if (actual["forbidden"] != expected["forbidden"]) {
      ++mismatches;
      ADD_FAILURE() << "line " << i + 1 << ": expected "
                    << expected["forbidden"].dump() << " got " << outputs[i];
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ForbiddenCommandTest, BadLinesGetErrorsAndProcessingContinues) {
  const testing::CommandResult result =
      RunCommand(commands::Forbidden, {"--jsonl"}, Stderr::kShown,
                 "not json\n"
                 "{\"moves\":[\"h8\",\"z99\"]}\n"
                 "{\"moves\":[\"h8\",\"h8\"]}\n"
                 "[1,2]\n"
                 "{\"black\":[\"h9\",\"g8\",\"i8\",\"h7\"],\"white\":[]}\n"
                 "{\"moves\":\"h8\"}\n"
                 "{}\n");
  ASSERT_EQ(result.exit_code, 0);
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], R"({"error":"line 1: line is not valid JSON"})");
  EXPECT_NE(lines[1].find("z99"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("occupied"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("not a JSON object"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4], R"({"forbidden":[{"p":"h8","kind":"double-three"}]})");
  EXPECT_NE(lines[5].find("not a list"), std::string::npos) << lines[5];
  EXPECT_NE(lines[6].find("expected either"), std::string::npos) << lines[6];
}

TEST(ForbiddenCommandTest, RequiresJsonlFlag) {
  EXPECT_EQ(RunCommand(commands::Forbidden, {}, Stderr::kCaptured).exit_code,
            2);
  EXPECT_EQ(
      RunCommand(commands::Forbidden, {"--bogus"}, Stderr::kCaptured).exit_code,
      2);
}

}  // namespace
}  // namespace renju
