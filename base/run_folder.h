// Every file of a run folder (README.md, "The run folder"), named once: the
// launcher, the trainer and the commands that read a run ask this type, not
// a string of their own.
#ifndef RENJU_BASE_RUN_FOLDER_H_
#define RENJU_BASE_RUN_FOLDER_H_

#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace renju {

struct RunFolder {
  using Path = std::filesystem::path;
  Path root;

  // What the run is.
  Path config() const { return root / "config.textproto"; }
  Path database() const { return root / "run.sqlite"; }  // games, registry
  // The trainer's.
  Path models() const { return root / "models"; }
  Path model(int64_t generation) const {
    return models() / absl::StrCat("gen", generation, ".model");
  }
  Path trainer_state_dir() const { return root / "trainer"; }
  Path training_state() const {
    return trainer_state_dir() / "training_state.ckpt";
  }
  Path training_csv() const { return root / "training.csv"; }
  Path ratings_csv() const { return root / "ratings.csv"; }
  Path ratings_json() const { return root / "ratings.json"; }
  // Rating matches (`gen<N>-vs-gen<M>`, `gen<N>-vs-<anchor>`).
  Path matches() const { return root / "matches"; }
  Path match(const std::string& name) const { return matches() / name; }
  // The launcher's.
  Path final_match() const { return root / "final_match"; }
  Path logs() const { return root / "logs"; }
  Path log(const std::string& name) const { return logs() / (name + ".log"); }
  Path trainer_address() const { return root / "trainer.address"; }
  Path run_page_address() const { return root / "run_page.address"; }
  Path server_address() const { return root / "serve.address"; }
  Path cpu_seconds() const { return root / "cpu_seconds.txt"; }
  Path generations_cpu() const { return root / "generations_cpu.csv"; }
  Path worker_dir(int i) const {
    return root / "workers" / absl::StrCat("worker-", i);
  }
};

// The plots' file names, inside the run folder (trainer/plots.h).
inline constexpr char kEloPlot[] = "elo.png";
inline constexpr char kEloTimePlot[] = "elo_time.png";
inline constexpr char kLossPlot[] = "loss.png";

}  // namespace renju

#endif  // RENJU_BASE_RUN_FOLDER_H_
