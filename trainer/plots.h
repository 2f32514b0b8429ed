// PNG plots of a run, drawn by gnuplot (Debian's gnuplot or gnuplot-nox,
// run as a child process; the pngcairo terminal when it has one, else
// png): Elo against generation with 95% error bars, Elo against training
// time (both with each anchor of the ratings as a labelled dashed
// horizontal line at its Elo), and the training losses against the step.
// The data files and the script are kept beside the plots (plot_data/), so
// a plot can be redrawn or restyled by hand.
#ifndef RENJU_TRAINER_PLOTS_H_
#define RENJU_TRAINER_PLOTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trainer/ratings.h"

namespace renju {

// The loss log the training loop appends to: this header line, then one
// row per logged step: the step, wall time (Unix ms), mean policy loss
// (cross-entropy, nats), mean value loss (WDL cross-entropy, nats), policy
// entropy (nats), the learning rate, and the auxiliary heads' losses
// (network_trainer.h; nats, 0 without the heads): opponent policy and
// short-term value.
inline constexpr char kLossCsvHeader[] =
    "step,unix_ms,policy_loss,value_loss,policy_entropy,lr,"
    "opponent_policy_loss,short_value_loss";
// The header of logs begun before the auxiliary columns; a resumed run
// keeps appending rows of its columns.
inline constexpr char kLegacyLossCsvHeader[] =
    "step,unix_ms,policy_loss,value_loss,policy_entropy,lr";

struct LossRow {
  int64_t step = 0;
  int64_t unix_ms = 0;
  double policy_loss = 0;
  double value_loss = 0;
  double policy_entropy = 0;
  double lr = 0;
  double opponent_policy_loss = 0;  // 0 in a legacy log
  double short_value_loss = 0;
};

// `row` as a line of a log with `header` (kLossCsvHeader or
// kLegacyLossCsvHeader), newline included.
std::string FormatLossRow(const LossRow& row, absl::string_view header);

// Reads a loss CSV. Errors name the file and line: a header other than
// kLossCsvHeader or kLegacyLossCsvHeader, a row without the header's
// number of fields, a field that is not a number. A last line without its
// newline (a write in progress) is skipped.
absl::StatusOr<std::vector<LossRow>> ReadLossCsv(const std::string& path);

struct PlotOptions {
  std::string gnuplot = "gnuplot";  // program, looked up in PATH
  int64_t timeout_ms = 60000;       // gnuplot is killed after this
  int width = 900;                  // pixels
  int height = 600;
};

// Writes into `dir` (created if needed) elo.png, elo_time.png when the
// ratings carry creation times (AttachModels), and loss.png when
// `loss_csv` is non-empty and exists with at least one row. Returns the
// paths of the PNGs written. Errors: gnuplot is missing (the message says
// which package to install) or fails (its output is quoted), a bad loss
// CSV, files that cannot be written.
absl::StatusOr<std::vector<std::string>> WritePlots(
    const std::string& dir, const RatingTable& ratings,
    const std::string& loss_csv, const PlotOptions& options = {});

}  // namespace renju

#endif  // RENJU_TRAINER_PLOTS_H_
