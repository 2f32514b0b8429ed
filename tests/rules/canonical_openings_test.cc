// The 26 canonical openings (RULES.md §6): recognised by name under every
// board symmetry, distinct from each other, and exactly the legal
// (h8, 3x3, 5x5) triples.
#include "rules/canonical_openings.h"

#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/symmetry.h"
#include "rules/types.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

using testing::Moves;

// The RULES.md table, written out independently of the code's table.
struct TableRow {
  const char* name;
  const char* moves;
};
constexpr TableRow kTable[] = {
    {"Kansei", "h8 h9 h10"},  {"Keigetsu", "h8 h9 i10"},
    {"Sosei", "h8 h9 j10"},   {"Kagetsu", "h8 h9 i9"},
    {"Zangetsu", "h8 h9 j9"}, {"Ugetsu", "h8 h9 i8"},
    {"Kinsei", "h8 h9 j8"},   {"Shogetsu", "h8 h9 h7"},
    {"Kyugetsu", "h8 h9 i7"}, {"Shingetsu", "h8 h9 j7"},
    {"Zuisei", "h8 h9 h6"},   {"Sangetsu", "h8 h9 i6"},
    {"Yusei", "h8 h9 j6"},    {"Chosei", "h8 i9 j10"},
    {"Kyogetsu", "h8 i9 j9"}, {"Kosei", "h8 i9 j8"},
    {"Suigetsu", "h8 i9 j7"}, {"Ryusei", "h8 i9 j6"},
    {"Ungetsu", "h8 i9 i8"},  {"Hogetsu", "h8 i9 i7"},
    {"Rangetsu", "h8 i9 i6"}, {"Gingetsu", "h8 i9 h7"},
    {"Meisei", "h8 i9 h6"},   {"Shagetsu", "h8 i9 g7"},
    {"Meigetsu", "h8 i9 g6"}, {"Suisei", "h8 i9 f6"},
};

TEST(CanonicalOpeningsTest, TableMatchesRulesMd) {
  ASSERT_EQ(std::size(kTable), static_cast<size_t>(kNumCanonicalOpenings));
  for (int i = 0; i < kNumCanonicalOpenings; ++i) {
    EXPECT_EQ(std::string(CanonicalOpenings()[i].name), kTable[i].name);
    EXPECT_EQ(MoveListString(CanonicalOpeningMoves(i)), kTable[i].moves);
    EXPECT_EQ(CanonicalOpenings()[i].direct, i < 13) << kTable[i].name;
  }
}

TEST(CanonicalOpeningsTest, EveryOpeningUnderEverySymmetryIsRecognised) {
  for (const TableRow& row : kTable) {
    const std::vector<Move> canonical = Moves(row.moves);
    for (Symmetry s = 0; s < kNumSymmetries; ++s) {
      const std::vector<Move> moves =
          ApplySymmetry(s, canonical, kRenjuBoardSize);
      const std::optional<RecognizedOpening> found = RecognizeOpening(moves);
      ASSERT_TRUE(found.has_value()) << row.name << " under symmetry " << int{s}
                                     << ": " << MoveListString(moves);
      EXPECT_EQ(std::string(CanonicalOpenings()[found->index].name), row.name)
          << MoveListString(moves);
      // The reported symmetry really carries the canonical form there.
      EXPECT_EQ(
          ApplySymmetry(found->symmetry, CanonicalOpeningMoves(found->index),
                        kRenjuBoardSize),
          moves);
    }
  }
}

TEST(CanonicalOpeningsTest, LaterMovesDoNotMatter) {
  const std::optional<RecognizedOpening> found =
      RecognizeOpening(Moves("h8 g7 j10 a1 o15"));  // Suisei, turned
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(std::string(CanonicalOpenings()[found->index].name), "Suisei");
}

TEST(CanonicalOpeningsTest, OpeningsAreDistinctUnderSymmetry) {
  for (int i = 0; i < kNumCanonicalOpenings; ++i) {
    for (int j = 0; j < kNumCanonicalOpenings; ++j) {
      if (i == j) continue;
      for (Symmetry s = 0; s < kNumSymmetries; ++s) {
        EXPECT_NE(ApplySymmetry(s, CanonicalOpeningMoves(i), kRenjuBoardSize),
                  CanonicalOpeningMoves(j))
            << kTable[i].name << " and " << kTable[j].name
            << " are the same under symmetry " << int{s};
      }
    }
  }
}

// Move 1 on h8, move 2 in the 3x3, move 3 in the 5x5: each of these
// 8 x 23 triples is one of the 26, and all 26 occur.
TEST(CanonicalOpeningsTest, EveryLegalTripleIsCanonical) {
  const Point centre(7, 7);
  std::set<int> seen;
  int triples = 0;
  for (int x2 = 6; x2 <= 8; ++x2) {
    for (int y2 = 6; y2 <= 8; ++y2) {
      const Point second(x2, y2);
      if (second == centre) continue;
      for (int x3 = 5; x3 <= 9; ++x3) {
        for (int y3 = 5; y3 <= 9; ++y3) {
          const Point third(x3, y3);
          if (third == centre || third == second) continue;
          ++triples;
          const std::vector<Move> moves = {Move::At(centre), Move::At(second),
                                           Move::At(third)};
          const std::optional<RecognizedOpening> found =
              RecognizeOpening(moves);
          ASSERT_TRUE(found.has_value()) << MoveListString(moves);
          const bool direct = x2 == 7 || y2 == 7;
          EXPECT_EQ(CanonicalOpenings()[found->index].direct, direct)
              << MoveListString(moves);
          seen.insert(found->index);
        }
      }
    }
  }
  EXPECT_EQ(triples, 8 * 23);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kNumCanonicalOpenings));
}

TEST(CanonicalOpeningsTest, NonOpeningsAreNotRecognised) {
  for (const char* text : {
           "g8 h9 h10",   // Kansei shifted: move 1 is not h8
           "h8 h10 h9",   // move 2 outside the 3x3
           "h8 h9 h11",   // move 3 outside the 5x5
           "h8 j10 i9",   // Chosei with moves 2 and 3 exchanged
           "h8 h9 a1",    // move 3 far away
           "h8 h9",       // too short
           "h8 pass h9",  // a pass
           "",
       }) {
    EXPECT_FALSE(RecognizeOpening(Moves(text)).has_value()) << text;
  }
}

}  // namespace
}  // namespace renju
