// Property tests with fixed seeds: incremental state equals recomputation
// from scratch, make/unmake restores the hash, forbidden points agree with a
// plain from-the-definitions reference and commute with the 8 symmetries.
#include <array>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "rules/forbidden.h"
#include "rules/game.h"
#include "rules/symmetry.h"
#include "tests/rules/test_util.h"

namespace renju {
namespace {

// --- A reference implementation straight from RULES.md §3-4 ---------------
// Plain arrays and loops, no tables, no incremental state: slow and obvious.
class ReferenceRenju {
 public:
  explicit ReferenceRenju(const Board& board) {
    for (int x = 0; x < kN; ++x) {
      for (int y = 0; y < kN; ++y) {
        const Cell c = board.at(Point(x, y));
        cell_[x][y] = c == Cell::kBlack   ? kBlack
                      : c == Cell::kWhite ? kWhite
                                          : 0;
      }
    }
  }

  ForbiddenKind Forbidden(int x, int y) {
    cell_[x][y] = kBlack;
    ForbiddenKind kind = Judge(x, y);
    cell_[x][y] = 0;
    return kind;
  }

 private:
  static constexpr int kN = kRenjuBoardSize;
  static constexpr int kBlack = 1;
  static constexpr int kWhite = 2;
  static constexpr int kDx[4] = {1, 0, 1, 1};
  static constexpr int kDy[4] = {0, 1, 1, -1};

  bool On(int x, int y) const { return x >= 0 && y >= 0 && x < kN && y < kN; }
  bool Black(int x, int y) const { return On(x, y) && cell_[x][y] == kBlack; }
  bool Empty(int x, int y) const { return On(x, y) && cell_[x][y] == 0; }

  int Run(int x, int y, int d) const {
    int n = 1;
    for (int k = 1; Black(x + k * kDx[d], y + k * kDy[d]); ++k) ++n;
    for (int k = 1; Black(x - k * kDx[d], y - k * kDy[d]); ++k) ++n;
    return n;
  }

  // Five points on line d of the (placed) stone at x,y: empty q whose stone
  // makes exactly five through x,y.
  std::vector<int> FivePoints(int x, int y, int d) {
    std::vector<int> out;
    for (int k = -4; k <= 4; ++k) {
      const int qx = x + k * kDx[d], qy = y + k * kDy[d];
      if (k == 0 || !Empty(qx, qy)) continue;
      cell_[qx][qy] = kBlack;
      if (Run(x, y, d) == 5) out.push_back(k);
      cell_[qx][qy] = 0;
    }
    return out;
  }

  int Fours(int x, int y, int d) {
    const std::vector<int> f = FivePoints(x, y, d);
    if (f.size() == 2 && f[1] - f[0] == 5) return 1;  // straight four
    return static_cast<int>(f.size());
  }

  bool MakesFiveAnywhere(int x, int y) {
    cell_[x][y] = kBlack;
    bool five = false;
    for (int d = 0; d < 4; ++d) five |= Run(x, y, d) == 5;
    cell_[x][y] = 0;
    return five;
  }

  // Is the three of the stone at x,y along d live (RULES.md §3)?
  bool LiveThree(int x, int y, int d) {
    for (int k = -4; k <= 4; ++k) {
      const int qx = x + k * kDx[d], qy = y + k * kDy[d];
      if (k == 0 || !Empty(qx, qy)) continue;
      cell_[qx][qy] = kBlack;
      bool straight = false;
      if (Run(x, y, d) == 4 && Run(qx, qy, d) == 4) {
        // Find the run's ends along d from x,y.
        int lo = 0, hi = 0;
        while (Black(x + (lo - 1) * kDx[d], y + (lo - 1) * kDy[d])) --lo;
        while (Black(x + (hi + 1) * kDx[d], y + (hi + 1) * kDy[d])) ++hi;
        const int ax = x + (lo - 1) * kDx[d], ay = y + (lo - 1) * kDy[d];
        const int bx = x + (hi + 1) * kDx[d], by = y + (hi + 1) * kDy[d];
        straight = lo <= k && k <= hi && Empty(ax, ay) && Empty(bx, by) &&
                   !Black(ax - kDx[d], ay - kDy[d]) &&
                   !Black(bx + kDx[d], by + kDy[d]);
      }
      cell_[qx][qy] = 0;
      if (!straight || MakesFiveAnywhere(qx, qy)) continue;
      if (Forbidden(qx, qy) == ForbiddenKind::kNone) return true;
    }
    return false;
  }

  // The stone at x,y is placed.
  ForbiddenKind Judge(int x, int y) {
    for (int d = 0; d < 4; ++d) {
      if (Run(x, y, d) == 5) return ForbiddenKind::kNone;
    }
    for (int d = 0; d < 4; ++d) {
      if (Run(x, y, d) >= 6) return ForbiddenKind::kOverline;
    }
    int fours = 0;
    int four_lines = 0;
    for (int d = 0; d < 4; ++d) {
      const int f = Fours(x, y, d);
      fours += f;
      four_lines |= (f > 0) << d;
    }
    if (fours >= 2) return ForbiddenKind::kDoubleFour;
    int threes = 0;
    for (int d = 0; d < 4; ++d) {
      if (!(four_lines & (1 << d)) && LiveThree(x, y, d)) ++threes;
    }
    return threes >= 2 ? ForbiddenKind::kDoubleThree : ForbiddenKind::kNone;
  }

  int cell_[kN][kN];
};

// A random renju position dense in black shapes: stones near earlier ones.
Board RandomPosition(std::mt19937_64& rng, int num_black, int num_white) {
  Board board;
  std::uniform_int_distribution<int> near(-2, 2);
  std::uniform_int_distribution<int> any(0, kRenjuBoardSize - 1);
  std::vector<Point> placed;
  auto place = [&](Color c) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      Point p(any(rng), any(rng));
      if (!placed.empty() && attempt < 90) {
        const Point base = placed[rng() % placed.size()];
        p = Point(base.x + near(rng), base.y + near(rng));
      }
      if (!board.OnBoard(p) || !board.IsEmpty(p)) continue;
      board.Place(p, c);
      placed.push_back(p);
      return;
    }
  };
  for (int i = 0; i < std::max(num_black, num_white); ++i) {
    if (i < num_black) place(Color::kBlack);
    if (i < num_white) place(Color::kWhite);
  }
  return board;
}

TEST(PropertyTest, ForbiddenPointsMatchTheReferenceOnRandomPositions) {
  std::mt19937_64 rng(20261130);
  int forbidden_seen = 0;
  int double_threes = 0;
  for (int i = 0; i < 300; ++i) {
    Board board = RandomPosition(rng, 12 + i % 25, 4 + i % 15);
    ReferenceRenju reference(board);
    for (int x = 0; x < kRenjuBoardSize; ++x) {
      for (int y = 0; y < kRenjuBoardSize; ++y) {
        const Point p(x, y);
        if (!board.IsEmpty(p)) continue;
        const ForbiddenKind expected = reference.Forbidden(x, y);
        ASSERT_EQ(ForbiddenAt(board, p), expected)
            << "position " << i << " point " << PointName(p);
        forbidden_seen += expected != ForbiddenKind::kNone;
        double_threes += expected == ForbiddenKind::kDoubleThree;
      }
    }
  }
  // The positions must exercise the rules, not just empty boards.
  EXPECT_GT(forbidden_seen, 300);
  EXPECT_GT(double_threes, 100);
}

// Plays random games (black never on a forbidden point) and checks, after
// every move, incremental == from scratch and make/unmake == identity.
TEST(PropertyTest, IncrementalStateAndHashOverRandomGames) {
  std::mt19937_64 rng(7);
  for (Variant variant :
       {Variant::kRenju, Variant::kStandard, Variant::kFreestyle}) {
    for (int g = 0; g < 20; ++g) {
      Game game(variant, variant == Variant::kFreestyle ? 19 : 15);
      while (!game.over()) {
        std::vector<Point> legal = game.LegalPoints();
        if (legal.empty()) break;
        // Prefer points near the last move so shapes form.
        Point p = legal[rng() % legal.size()];
        if (game.ply() > 0 && rng() % 4 != 0) {
          const Point last = game.moves().back().point();
          for (int t = 0; t < 20; ++t) {
            const Point q(last.x + static_cast<int>(rng() % 5) - 2,
                          last.y + static_cast<int>(rng() % 5) - 2);
            if (game.board().OnBoard(q) && game.IsLegal(q)) {
              p = q;
              break;
            }
          }
        }
        const uint64_t before = game.hash();
        ASSERT_TRUE(game.Play(Move::At(p)).ok());
        if (!game.over()) {
          // Probe every legal reply and take it back.
          for (Point q : game.LegalPoints()) {
            if (rng() % 8 != 0) continue;
            const uint64_t h = game.hash();
            ASSERT_TRUE(game.Play(Move::At(q)).ok());
            game.Undo();
            ASSERT_EQ(game.hash(), h);
          }
        }
        ASSERT_TRUE(game.board().IsConsistent())
            << VariantName(variant) << " game " << g << " ply " << game.ply();
        game.Undo();
        ASSERT_EQ(game.hash(), before);
        ASSERT_TRUE(game.Play(Move::At(p)).ok());
      }
    }
  }
}

std::set<std::pair<std::pair<int, int>, ForbiddenKind>> MappedForbidden(
    Board& board, Symmetry s) {
  std::set<std::pair<std::pair<int, int>, ForbiddenKind>> out;
  for (const ForbiddenPoint& f : ForbiddenPoints(board)) {
    const Point q = ApplySymmetry(s, f.point, board.size());
    out.insert({{q.x, q.y}, f.kind});
  }
  return out;
}

Board Transformed(const Board& board, Symmetry s) {
  Board out(board.variant(), board.size());
  for (Color c : {Color::kBlack, Color::kWhite}) {
    board.Stones(c).ForEach(
        [&](Point p) { out.Place(ApplySymmetry(s, p, board.size()), c); });
  }
  return out;
}

// The labelled public positions (RULES.md §7), rich in forbidden points.
std::vector<Board> PublicPositions() {
  const std::string path =
      std::string(RENJU_SHARED_DIR) + "/data/renju-forbidden-public.jsonl";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<Board> boards;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    Board board;
    if (j.contains("moves")) {
      Color c = Color::kBlack;
      for (const auto& m : j["moves"]) {
        board.Place(testing::Pt(m.get<std::string>()), c);
        c = Opponent(c);
      }
    } else {
      for (const auto& m : j["black"]) {
        board.Place(testing::Pt(m.get<std::string>()), Color::kBlack);
      }
      for (const auto& m : j["white"]) {
        board.Place(testing::Pt(m.get<std::string>()), Color::kWhite);
      }
    }
    boards.push_back(board);
  }
  return boards;
}

TEST(PropertyTest, ForbiddenPointsCommuteWithSymmetries) {
  std::vector<Board> boards = PublicPositions();
  std::mt19937_64 rng(99);
  for (int i = 0; i < 200; ++i) boards.push_back(RandomPosition(rng, 20, 8));
  ASSERT_EQ(boards.size(), 1403u);
  for (size_t i = 0; i < boards.size(); ++i) {
    for (Symmetry s = 1; s < kNumSymmetries; ++s) {
      Board image = Transformed(boards[i], s);
      ASSERT_EQ(MappedForbidden(boards[i], s),
                MappedForbidden(image, kIdentity))
          << "position " << i << " symmetry " << int(s);
    }
  }
}

// MakesLiveThree decides most threes from the shapes alone; it must agree
// with a probe stone and IsLiveThree everywhere. ShapeWith likewise with a
// placed stone.
TEST(PropertyTest, LiveThreesWithoutAProbeMatchTheProbe) {
  std::vector<Board> boards = PublicPositions();
  std::mt19937_64 rng(31);
  for (int i = 0; i < 200; ++i) boards.push_back(RandomPosition(rng, 20, 8));
  int live = 0, false_threes = 0;
  for (size_t i = 0; i < boards.size(); ++i) {
    Board& board = boards[i];
    for (int x = 0; x < kRenjuBoardSize; ++x) {
      for (int y = 0; y < kRenjuBoardSize; ++y) {
        const Point p(x, y);
        if (!board.IsEmpty(p)) continue;
        for (int d = 0; d < kNumDirections; ++d) {
          const auto dir = static_cast<Direction>(d);
          bool expected = false;
          if (board.ShapeAt(p, Color::kBlack, dir) == LineShape::kThree) {
            ScopedStone stone(board, p, Color::kBlack);
            expected = IsLiveThree(board, p, dir);
            false_threes += !expected;
          }
          live += expected;
          ASSERT_EQ(MakesLiveThree(board, p, dir), expected)
              << "position " << i << " " << PointName(p) << " "
              << DirectionName(dir);
        }
      }
    }
  }
  EXPECT_GT(live, 10000);
  EXPECT_GT(false_threes, 1000);
}

TEST(PropertyTest, ShapeWithMatchesAPlacedStone) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 40; ++i) {
    Board board = RandomPosition(rng, 14, 10);
    for (int x = 0; x < kRenjuBoardSize; ++x) {
      for (int y = 0; y < kRenjuBoardSize; ++y) {
        const Point p(x, y);
        for (int d = 0; d < kNumDirections && board.IsEmpty(p); ++d) {
          const auto dir = static_cast<Direction>(d);
          const int step_x[] = {1, 0, 1, 1}, step_y[] = {0, 1, 1, -1};
          for (int k = -5; k <= 5; ++k) {
            const Point q(x + k * step_x[d], y + k * step_y[d]);
            if (k == 0 || !board.OnBoard(q) || !board.IsEmpty(q)) continue;
            for (Color c : {Color::kBlack, Color::kWhite}) {
              const LineShape with = board.ShapeWith(p, c, dir, k);
              ScopedStone stone(board, q, c);
              ASSERT_EQ(with, board.ShapeAt(p, c, dir))
                  << "position " << i << " " << PointName(p) << " "
                  << DirectionName(dir) << " " << k;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace renju
