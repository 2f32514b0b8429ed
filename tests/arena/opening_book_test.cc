// Opening files in Gomocup offset and pos notation.
#include "arena/opening_book.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace renju {
namespace {

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string Names(const Opening& opening) { return MoveListString(opening); }

TEST(OpeningBookTest, OffsetsCountRowsDownwardFromTheCentre) {
  // Research note §0: Gomocup 8,6 (one right of and one above the centre
  // 7,7 on 15x15) is renju i9, so the offset 1,-1 is i9.
  absl::StatusOr<Opening> opening = ParseOffsetOpening("0,0, 1,-1, 2, 0", 15);
  ASSERT_TRUE(opening.ok()) << opening.status();
  EXPECT_EQ(Names(*opening), "h8 i9 j8");
  // 20x20: the centre is Gomocup 10,10, which is k10 counted from the bottom.
  opening = ParseOffsetOpening("0,0,\t-1,1,", 20);
  ASSERT_TRUE(opening.ok()) << opening.status();
  EXPECT_EQ(Names(*opening), "k10 j9");
}

TEST(OpeningBookTest, PosRowsFollowTheChosenOrigin) {
  // c-gomoku-cli's reading: numbers from the top, so i7 is the same point as
  // offset 1,-1 above.
  absl::StatusOr<Opening> top =
      ParsePosOpening("h8i7J8", 15, PosRows::kFromTop);
  ASSERT_TRUE(top.ok()) << top.status();
  EXPECT_EQ(Names(*top), "h8 i9 j8");
  EXPECT_EQ(*top, *ParseOffsetOpening("0,0, 1,-1, 2,0", 15));
  // Renju notation counts from the bottom: the names read back unchanged.
  absl::StatusOr<Opening> bottom =
      ParsePosOpening("h8 i9 j10 a15", 15, PosRows::kFromBottom);
  ASSERT_TRUE(bottom.ok()) << bottom.status();
  EXPECT_EQ(Names(*bottom), "h8 i9 j10 a15");
}

TEST(OpeningBookTest, BadLinesNameTheMoveAndToken) {
  EXPECT_TRUE(absl::StrContains(
      ParseOffsetOpening("0,0, 1", 15).status().message(), "pairs"));
  EXPECT_TRUE(
      absl::StrContains(ParseOffsetOpening("0,0, 1,x", 15).status().message(),
                        "move 2 ' 1,x' is not a pair of integers"));
  EXPECT_TRUE(
      absl::StrContains(ParseOffsetOpening("0,0, 8,0", 15).status().message(),
                        "move 2 ' 8,0' is off the 15x15 board"));
  EXPECT_TRUE(absl::StrContains(
      ParsePosOpening("h8 9i", 15, PosRows::kFromTop).status().message(),
      "move 2: expected a column letter at '9i'"));
  EXPECT_TRUE(absl::StrContains(
      ParsePosOpening("h8p1", 15, PosRows::kFromTop).status().message(),
      "move 2 'p1' is off the 15x15 board"));
  EXPECT_TRUE(absl::StrContains(
      ParsePosOpening("h0", 15, PosRows::kFromTop).status().message(),
      "expected a row number from 1"));
}

TEST(OpeningBookTest, ReadsEveryOpeningOfAFile) {
  const std::string path = WriteFile(
      "offset_openings.txt", "0,0, 1,-1, 2,0\r\n\n-1,1, 0,0, 1,1, 2,2\n");
  OpeningFormat format;
  format.notation = OpeningNotation::kOffset;
  absl::StatusOr<std::vector<Opening>> openings = ReadOpeningFile(path, format);
  ASSERT_TRUE(openings.ok()) << openings.status();
  ASSERT_EQ(openings->size(), 2u);
  EXPECT_EQ(Names((*openings)[0]), "h8 i9 j8");
  EXPECT_EQ(Names((*openings)[1]), "g7 h8 i7 j6");

  format.notation = OpeningNotation::kPos;
  const std::string pos_path =
      WriteFile("pos_openings.txt", "h8i7j8\nk10j10i9\n");
  openings = ReadOpeningFile(pos_path, format);
  ASSERT_TRUE(openings.ok()) << openings.status();
  EXPECT_EQ(Names((*openings)[1]), "k6 j6 i7");
}

TEST(OpeningBookTest, FileErrorsNameFileAndLine) {
  OpeningFormat format;
  const std::string bad = WriteFile("bad.txt", "0,0, 1,1\n0,0, 0,0\n");
  absl::Status status = ReadOpeningFile(bad, format).status();
  EXPECT_TRUE(absl::StrContains(
      status.message(), bad + ":2: move 2 (h8) is on an occupied point"))
      << status;

  // Black's h9 below is a double-three under renju (RULES.md §4) but fine
  // in freestyle: the opening is replayed under the match's rule.
  const std::string forbidden =
      WriteFile("forbidden.txt", "g10 e9 h10 f9 i8 g9 h7 i9 h9\n");
  format.notation = OpeningNotation::kPos;
  format.pos_rows = PosRows::kFromBottom;
  status = ReadOpeningFile(forbidden, format).status();
  EXPECT_TRUE(absl::StrContains(
      status.message(), ":1: move 9 (h9) ends the game: white by forbidden"))
      << status;
  format.variant = Variant::kFreestyle;
  EXPECT_TRUE(ReadOpeningFile(forbidden, format).ok());

  EXPECT_TRUE(absl::IsNotFound(
      ReadOpeningFile(::testing::TempDir() + "/missing.txt", format).status()));
  const std::string empty = WriteFile("empty.txt", "\n\n");
  EXPECT_TRUE(absl::StrContains(
      ReadOpeningFile(empty, format).status().message(), "has no openings"));
}

TEST(OpeningBookTest, ParsesNotationNames) {
  EXPECT_EQ(*ParseOpeningNotation("offset"), OpeningNotation::kOffset);
  EXPECT_EQ(*ParseOpeningNotation("POS"), OpeningNotation::kPos);
  EXPECT_FALSE(ParseOpeningNotation("psq").ok());
}

}  // namespace
}  // namespace renju
