#include "trainer/plots.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/file_util.h"
#include "base/run_folder.h"
#include "base/subprocess.h"

namespace renju {
namespace {

namespace fs = std::filesystem;

// Text inside a single-quoted gnuplot string, where '' is a quote.
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}
std::string Quoted(const fs::path& path) { return Quoted(path.string()); }

// Rows of a log with `header` have `columns` fields.
absl::StatusOr<LossRow> ParseLossRow(absl::string_view line,
                                     absl::string_view header, size_t columns,
                                     const std::string& where) {
  const std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
  if (fields.size() != columns) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected ", columns, " comma-separated fields (",
                     header, "), found ", fields.size()));
  }
  LossRow row;
  double* doubles[] = {&row.policy_loss,          &row.value_loss,
                       &row.policy_entropy,       &row.lr,
                       &row.opponent_policy_loss, &row.short_value_loss};
  bool ok = absl::SimpleAtoi(fields[0], &row.step) &&
            absl::SimpleAtoi(fields[1], &row.unix_ms);
  for (size_t i = 2; i < columns && ok; ++i)
    ok = absl::SimpleAtod(fields[i], doubles[i - 2]);
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": '", line, "' is not numbers (", header, ")"));
  }
  return row;
}

std::string EloData(const RatingTable& table) {
  std::string data = "# generation elo elo_error\n";
  for (const Rating& r : table.ratings) {
    absl::StrAppendFormat(&data, "%d %.3f %.3f\n", r.generation, r.elo,
                          r.elo_error);
  }
  return data;
}

// Hours since the first model with a creation time; empty without any.
std::string EloTimeData(const RatingTable& table) {
  int64_t first = 0;
  for (const Rating& r : table.ratings) {
    if (r.created_unix_ms > 0 && (first == 0 || r.created_unix_ms < first)) {
      first = r.created_unix_ms;
    }
  }
  std::string data;
  for (const Rating& r : table.ratings) {
    if (r.created_unix_ms <= 0) continue;
    absl::StrAppendFormat(&data, "%.5f %.3f %.3f %d\n",
                          (r.created_unix_ms - first) / 3.6e6, r.elo,
                          r.elo_error, r.generation);
  }
  return data.empty() ? data : "# hours elo elo_error generation\n" + data;
}

std::string LossData(const std::vector<LossRow>& rows) {
  std::string data =
      "# step unix_ms policy_loss value_loss policy_entropy lr "
      "opponent_policy_loss short_value_loss\n";
  for (const LossRow& r : rows) {
    absl::StrAppendFormat(&data, "%d %d %.6g %.6g %.6g %.6g %.6g %.6g\n",
                          r.step, r.unix_ms, r.policy_loss, r.value_loss,
                          r.policy_entropy, r.lr, r.opponent_policy_loss,
                          r.short_value_loss);
  }
  return data;
}

// Whether any row has auxiliary losses to draw.
bool HasAuxLosses(const std::vector<LossRow>& rows) {
  for (const LossRow& r : rows) {
    if (r.opponent_policy_loss != 0 || r.short_value_loss != 0) return true;
  }
  return false;
}

std::string ScriptHeader(const PlotOptions& options) {
  return absl::StrFormat(
      "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
      "  set terminal pngcairo size %d,%d\n"
      "} else {\n"
      "  set terminal png size %d,%d\n"
      "}\n"
      "set grid\nset offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n",
      options.width, options.height, options.width, options.height);
}

// Whole generations on the x axis, about ten tics at most.
std::string GenerationTics(const RatingTable& table) {
  int64_t last = 0;
  for (const Rating& r : table.ratings) last = std::max(last, r.generation);
  return absl::StrCat("set xtics ", std::max<int64_t>(1, (last + 9) / 10),
                      "\n");
}

// Each anchor as a dashed horizontal line at its Elo, named in the key
// and labelled at the left edge; "" without anchors. Names are plain text
// (noenhanced: '@' and '_' are markup otherwise).
std::string AnchorLines(const RatingTable& table) {
  std::string lines;
  for (const Rating& a : table.anchors) {
    const std::string name = absl::StrFormat(
        "%s %+.0f%s", a.anchor, a.elo,
        a.fixed ? " (fixed)" : absl::StrFormat(" ±%.0f", a.elo_error));
    absl::StrAppendFormat(&lines,
                          ", %.3f with lines dt 2 lw 1.5 title %s noenhanced",
                          a.elo, Quoted(name));
  }
  return lines;
}

std::string AnchorLabels(const RatingTable& table) {
  std::string labels;
  for (const Rating& a : table.anchors) {
    absl::StrAppendFormat(
        &labels,
        "set label %s at graph 0.01, first %.3f offset 0,0.6 noenhanced\n",
        Quoted(a.anchor), a.elo);
  }
  return labels;
}

std::string EloScript(const fs::path& data, const fs::path& png, bool time,
                      const std::string& xtics, const RatingTable& table) {
  const std::string scale =
      table.anchor_generation >= 0
          ? absl::StrCat("generation ", table.anchor_generation, " = 0")
          : std::string("on the anchors' scale");
  const std::string title =
      absl::StrCat("Elo ", time ? "by training time" : "by generation", " (",
                   scale, ", 95% intervals)");
  return absl::StrCat("set output ", Quoted(png), "\n", xtics,
                      "set key top left box opaque\n", "set title ",
                      Quoted(title), " noenhanced\n", "set xlabel '",
                      time ? "training time (hours)" : "generation", "'\n",
                      "set ylabel 'Elo'\n", AnchorLabels(table), "plot ",
                      Quoted(data), " using 1:2:3 with yerrorlines lw 2 pt 7 ",
                      "title 'Elo'", AnchorLines(table), "\nunset label\n");
}

std::string LossScript(const fs::path& data, const fs::path& png, bool aux) {
  return absl::StrCat(
      "set output ", Quoted(png), "\n", "set xtics autofreq\n",
      "set key top right box opaque\n",
      "set multiplot layout 2,1 title 'Training'\n",
      "set title ''\nset xlabel 'step'\nset ylabel 'nats'\n", "plot ",
      Quoted(data), " using 1:3 with lines lw 2 title 'policy loss', ",
      "'' using 1:4 with lines lw 2 title 'value loss', ",
      "'' using 1:5 with lines lw 2 title 'policy entropy'",
      aux ? ", '' using 1:7 with lines lw 2 title 'opponent policy loss', "
            "'' using 1:8 with lines lw 2 title 'short-term value loss'"
          : "",
      "\n", "set ylabel 'learning rate'\n", "plot ", Quoted(data),
      " using 1:6 with lines lw 2 title 'lr'\n", "unset multiplot\n");
}

// What one gnuplot run draws: the data files and the script (path and
// contents), and the PNGs it makes (names in the output folder).
struct PlotJob {
  std::vector<std::pair<fs::path, std::string>> files;
  std::vector<std::string> pngs;
};

PlotJob PreparePlots(const fs::path& out, const RatingTable& ratings,
                     const std::vector<LossRow>& losses,
                     const PlotOptions& options) {
  const fs::path data = out / "plot_data";
  PlotJob job;
  std::string script = ScriptHeader(options);
  job.files.push_back({data / "elo.dat", EloData(ratings)});
  script += EloScript(data / "elo.dat", out / absl::StrCat(kEloPlot, ".tmp"),
                      false, GenerationTics(ratings), ratings);
  job.pngs.push_back(kEloPlot);
  const std::string time_data = EloTimeData(ratings);
  if (!time_data.empty()) {
    job.files.push_back({data / "elo_time.dat", time_data});
    script += EloScript(data / "elo_time.dat",
                        out / absl::StrCat(kEloTimePlot, ".tmp"), true,
                        "set xtics autofreq\n", ratings);
    job.pngs.push_back(kEloTimePlot);
  }
  if (!losses.empty()) {
    job.files.push_back({data / "loss.dat", LossData(losses)});
    script +=
        LossScript(data / "loss.dat", out / absl::StrCat(kLossPlot, ".tmp"),
                   HasAuxLosses(losses));
    job.pngs.push_back(kLossPlot);
  }
  script += "set output\n";
  job.files.push_back({data / "plots.gp", script});
  return job;
}

// Reaps `pid` into `status`, killing it after `timeout_ms`.
absl::Status WaitForExit(pid_t pid, int64_t timeout_ms, int& status) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return absl::OkStatus();
    if (done < 0 && errno != EINTR) {
      return absl::InternalError(
          absl::StrCat("plots: waitpid: ", std::strerror(errno)));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return absl::DeadlineExceededError(
          absl::StrCat("plots: gnuplot took more than ", timeout_ms, " ms"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Runs `gnuplot script` with its output in `log`; waits up to timeout_ms.
absl::Status RunGnuplot(const PlotOptions& options, const fs::path& script,
                        const fs::path& log) {
  const std::string& program = options.gnuplot;
  SpawnOptions spawn;
  spawn.output_path = log.string();
  spawn.append_output = false;
  const absl::StatusOr<pid_t> pid =
      SpawnProcess({program, script.string()}, spawn);
  if (absl::IsNotFound(pid.status())) {
    return absl::FailedPreconditionError(
        absl::StrCat("plots: '", program,
                     "' not found in PATH; install Debian's gnuplot-nox "
                     "(or gnuplot) package"));
  }
  if (!pid.ok()) {
    return absl::InternalError(absl::StrCat("plots: cannot start '", program,
                                            "': ", pid.status().message()));
  }
  int status = 0;
  if (absl::Status s = WaitForExit(*pid, options.timeout_ms, status); !s.ok()) {
    return s;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  absl::StatusOr<std::string> output = ReadFile(log.string());
  std::string text = output.ok() ? *output : "";
  if (text.size() > 2000) text = text.substr(text.size() - 2000);
  return absl::InternalError(absl::StrCat(
      "plots: gnuplot ", script.string(), " failed (",
      WIFEXITED(status) ? absl::StrCat("exit status ", WEXITSTATUS(status))
                        : absl::StrCat("signal ", WTERMSIG(status)),
      "): ", text));
}

}  // namespace

std::string FormatLossRow(const LossRow& row, absl::string_view header) {
  std::string line = absl::StrFormat(
      "%d,%d,%.6f,%.6f,%.6f,%.6g", row.step, row.unix_ms, row.policy_loss,
      row.value_loss, row.policy_entropy, row.lr);
  if (header != kLegacyLossCsvHeader) {
    absl::StrAppendFormat(&line, ",%.6f,%.6f", row.opponent_policy_loss,
                          row.short_value_loss);
  }
  return line + "\n";
}

absl::StatusOr<std::vector<LossRow>> ReadLossCsv(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  std::vector<absl::string_view> lines = absl::StrSplit(*text, '\n');
  // The piece after the last newline is empty, or a row being written.
  lines.pop_back();
  if (lines.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": empty; expected the header ", kLossCsvHeader));
  }
  const absl::string_view header = absl::StripSuffix(lines[0], "\r");
  if (header != kLossCsvHeader && header != kLegacyLossCsvHeader) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ":1: header '", lines[0], "', expected '", kLossCsvHeader, "'"));
  }
  const size_t columns = header == kLossCsvHeader ? 8 : 6;
  std::vector<LossRow> rows;
  for (size_t i = 1; i < lines.size(); ++i) {
    const absl::string_view line = absl::StripSuffix(lines[i], "\r");
    if (line.empty()) continue;
    absl::StatusOr<LossRow> row =
        ParseLossRow(line, header, columns, absl::StrCat(path, ":", i + 1));
    if (!row.ok()) return row.status();
    rows.push_back(*row);
  }
  return rows;
}

absl::StatusOr<std::vector<std::string>> WritePlots(
    const std::string& dir, const RatingTable& ratings,
    const std::string& loss_csv, const PlotOptions& options) {
  std::vector<LossRow> losses;
  if (!loss_csv.empty() && fs::exists(loss_csv)) {
    absl::StatusOr<std::vector<LossRow>> read = ReadLossCsv(loss_csv);
    if (!read.ok()) return read.status();
    losses = *std::move(read);
  }
  const fs::path out = fs::absolute(dir);
  const fs::path data = out / "plot_data";
  std::error_code error;
  fs::create_directories(data, error);
  if (error) {
    return absl::PermissionDeniedError(absl::StrCat(
        "plots: cannot create ", data.string(), ": ", error.message()));
  }
  const PlotJob job = PreparePlots(out, ratings, losses, options);
  for (const auto& [path, contents] : job.files) {
    if (absl::Status s = WriteFileAtomically(path.string(), contents);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s =
          RunGnuplot(options, data / "plots.gp", data / "gnuplot.log");
      !s.ok()) {
    return s;
  }
  // Renamed only now, so a reader never sees half a PNG.
  std::vector<std::string> written;
  for (const std::string& png : job.pngs) {
    fs::rename(out / (png + ".tmp"), out / png, error);
    if (error) {
      return absl::InternalError(absl::StrCat("plots: gnuplot did not write ",
                                              (out / png).string(), ": ",
                                              error.message()));
    }
    written.push_back((out / png).string());
  }
  return written;
}

}  // namespace renju
