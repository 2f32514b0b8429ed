#include "launcher/run_eta.h"

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(RunEtaTest, NoneBeforeTheFirstGenerationOrAfterTheLast) {
  RunPace pace;
  pace.now_seconds = 300;
  pace.left = 3;
  EXPECT_FALSE(RunEtaSeconds(pace).has_value());
  pace.published = 3;
  pace.last_published_seconds = 290;
  pace.left = 0;
  EXPECT_FALSE(RunEtaSeconds(pace).has_value());
}

TEST(RunEtaTest, TheGenerationsLeftAtTheMeanPace) {
  // Generation 1 of 3 came after 200 s: two more at 200 s each.
  RunPace pace;
  pace.published = 1;
  pace.last_published_seconds = 200;
  pace.left = 2;
  pace.now_seconds = 200;
  EXPECT_DOUBLE_EQ(*RunEtaSeconds(pace), 400);
  // Two generations in 500 s: 250 s each.
  pace.published = 2;
  pace.last_published_seconds = 500;
  pace.left = 1;
  pace.now_seconds = 500;
  EXPECT_DOUBLE_EQ(*RunEtaSeconds(pace), 250);
}

TEST(RunEtaTest, FallsWhileNothingIsPublishedAndNeverGrows) {
  // The launcher's old estimate, elapsed * left / done, grew from 6m33s to
  // 10m35s within generation 1: now the time the next generation has had
  // comes off, down to the generations after it.
  RunPace pace;
  pace.published = 1;
  pace.last_published_seconds = 200;
  pace.left = 2;
  double last = *RunEtaSeconds(pace);
  for (double now = 200; now <= 1000; now += 10) {
    pace.now_seconds = now;
    const double eta = *RunEtaSeconds(pace);
    EXPECT_LE(eta, last) << "at " << now << " s";
    last = eta;
  }
  pace.now_seconds = 300;
  EXPECT_DOUBLE_EQ(*RunEtaSeconds(pace), 300);
  // Overdue: the generation after the late one still takes its 200 s.
  pace.now_seconds = 1000;
  EXPECT_DOUBLE_EQ(*RunEtaSeconds(pace), 200);
}

}  // namespace
}  // namespace renju
