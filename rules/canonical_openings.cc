#include "rules/canonical_openings.h"

namespace renju {
namespace {

// Columns a..o are x 0..14, rows 1..15 are y 0..14.
constexpr Point P(char column, int row) { return Point(column - 'a', row - 1); }

constexpr Point kCentre = P('h', 8);
constexpr Point kDirectSecond = P('h', 9);
constexpr Point kIndirectSecond = P('i', 9);

// RULES.md §6 table.
constexpr std::array<CanonicalOpening, kNumCanonicalOpenings> kOpenings = {{
    {"Kansei", "寒星", true, P('h', 10)},
    {"Keigetsu", "溪月", true, P('i', 10)},
    {"Sosei", "疏星", true, P('j', 10)},
    {"Kagetsu", "花月", true, P('i', 9)},
    {"Zangetsu", "残月", true, P('j', 9)},
    {"Ugetsu", "雨月", true, P('i', 8)},
    {"Kinsei", "金星", true, P('j', 8)},
    {"Shogetsu", "松月", true, P('h', 7)},
    {"Kyugetsu", "丘月", true, P('i', 7)},
    {"Shingetsu", "新月", true, P('j', 7)},
    {"Zuisei", "瑞星", true, P('h', 6)},
    {"Sangetsu", "山月", true, P('i', 6)},
    {"Yusei", "游星", true, P('j', 6)},
    {"Chosei", "长星", false, P('j', 10)},
    {"Kyogetsu", "峡月", false, P('j', 9)},
    {"Kosei", "恒星", false, P('j', 8)},
    {"Suigetsu", "水月", false, P('j', 7)},
    {"Ryusei", "流星", false, P('j', 6)},
    {"Ungetsu", "云月", false, P('i', 8)},
    {"Hogetsu", "浦月", false, P('i', 7)},
    {"Rangetsu", "岚月", false, P('i', 6)},
    {"Gingetsu", "银月", false, P('h', 7)},
    {"Meisei", "明星", false, P('h', 6)},
    {"Shagetsu", "斜月", false, P('g', 7)},
    {"Meigetsu", "名月", false, P('g', 6)},
    {"Suisei", "彗星", false, P('f', 6)},
}};

}  // namespace

const std::array<CanonicalOpening, kNumCanonicalOpenings>& CanonicalOpenings() {
  return kOpenings;
}

std::vector<Move> CanonicalOpeningMoves(int index) {
  const CanonicalOpening& o = kOpenings[index];
  return {Move::At(kCentre),
          Move::At(o.direct ? kDirectSecond : kIndirectSecond),
          Move::At(o.third)};
}

std::optional<RecognizedOpening> RecognizeOpening(
    const std::vector<Move>& moves) {
  if (moves.size() < 3) return std::nullopt;
  for (int i = 0; i < 3; ++i) {
    if (moves[i].is_pass()) return std::nullopt;
  }
  for (int index = 0; index < kNumCanonicalOpenings; ++index) {
    const std::vector<Move> canonical = CanonicalOpeningMoves(index);
    for (Symmetry s = 0; s < kNumSymmetries; ++s) {
      bool same = true;
      for (int i = 0; i < 3 && same; ++i) {
        same = ApplySymmetry(s, canonical[i], kRenjuBoardSize) == moves[i];
      }
      if (same) return RecognizedOpening{index, s};
    }
  }
  return std::nullopt;
}

}  // namespace renju
