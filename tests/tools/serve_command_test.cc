// The real `renju serve` process on port 0, asked by `renju suggest` (table
// and JSON), by `renju selfplay --evaluator` and over HTTP (--http); and the
// Gomocup search brain, which must not block a five on a forbidden point.
// The servers are real processes; of their clients one `renju suggest` runs
// as a process, the rest call the commands in-process (run_command.h says
// why).
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gomocup/search_brain.h"
#include "gtest/gtest.h"
#include "nn/checkpoint.h"
#include "tests/common/serve_test_util.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

using testing::RunCommand;
using testing::Stderr;

// `renju serve ARGS` with stdout on a pipe; the address it prints.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      std::vector<std::string> all = {std::string(RENJU_BINARY_DIR) + "/renju",
                                      "serve"};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (std::string& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
    // With --http, "http on URL" follows "listening on HOST:PORT".
    const bool http =
        std::find(args.begin(), args.end(), "--http") != args.end();
    char line[512];
    while (out_ != nullptr && std::fgets(line, sizeof(line), out_) != nullptr) {
      const std::string text(line);
      if (ReadAfter(text, "listening on ", address_) && !http) break;
      if (ReadAfter(text, "http on ", http_url_)) break;
    }
  }

  // SIGTERM, then the exit code.
  int Stop() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (out_ != nullptr) fclose(out_);
    out_ = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ~ServeProcess() { Stop(); }

  const std::string& address() const { return address_; }
  // "http://HOST:PORT/" with --http.
  const std::string& http_url() const { return http_url_; }
  pid_t pid() const { return pid_; }

 private:
  // The rest of `line` after `prefix` into `out`, without the newline.
  static bool ReadAfter(const std::string& line, const std::string& prefix,
                        std::string& out) {
    if (line.rfind(prefix, 0) != 0) return false;
    out = line.substr(prefix.size());
    out.erase(out.find_last_not_of("\n") + 1);
    return true;
  }

  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  std::string address_;
  std::string http_url_;
};

class ServeCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = testing::ServeConfig();
    dir_ = testing::TestDir();
    model_ = (dir_ / "gen3.model").string();
    testing::WriteCheckpoint(config_, model_, 3, 33);
    config_path_ = (dir_ / "serve.textproto").string();
    std::ofstream(config_path_) << testing::kServeConfig;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  pb::RunConfig config_;
  std::filesystem::path dir_;
  std::string model_;
  std::string config_path_;
};

TEST_F(ServeCommandTest, SuggestAndSelfplayTalkToTheRealServer) {
  ServeProcess server(
      {"--config", config_path_, "--model", model_, "--listen", "127.0.0.1:0"});
  ASSERT_FALSE(server.address().empty()) << "the server did not start";

  testing::CommandResult table =
      testing::RunRenju("suggest --server " + server.address() +
                        " --moves 'h8 h9' --visits 24 --candidates 3");
  ASSERT_EQ(table.exit_code, 0) << table.out;
  EXPECT_NE(table.out.find("best move: "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("visits: 24   model generation: 3"),
            std::string::npos)
      << table.out;

  testing::CommandResult json =
      RunCommand(commands::Suggest, {"--json", "--server", server.address(),
                                     "--moves", "g8 a1 h8 o1 i9 a15 i10 o15",
                                     "--visits", "16", "--candidates", "200"});
  ASSERT_EQ(json.exit_code, 0) << json.out;
  const nlohmann::json answer = nlohmann::json::parse(json.out);
  EXPECT_EQ(answer["visits"], 16);
  EXPECT_EQ(answer["model_generation"], 3);
  EXPECT_NE(answer["best_move"], "i8");
  ASSERT_FALSE(answer["candidates"].empty());
  for (const auto& c : answer["candidates"]) EXPECT_NE(c["move"], "i8");

  // A bad request is reported, and the server stays up.
  testing::CommandResult bad = RunCommand(
      commands::Suggest, {"--server", server.address(), "--moves", "h8 h8"},
      Stderr::kCaptured);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("occupied"), std::string::npos) << bad.out;

  // Self-play through the server's network.
  const std::string games = (dir_ / "games").string();
  testing::CommandResult selfplay =
      RunCommand(commands::Selfplay,
                 {"--config", config_path_, "--evaluator", server.address(),
                  "--games", "2", "--out", games},
                 Stderr::kCaptured);
  EXPECT_EQ(selfplay.exit_code, 0) << selfplay.out;
  testing::CommandResult stats = RunCommand(commands::SelfplayStats, {games});
  EXPECT_NE(stats.out.find("games: 2"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("model generations: 3:2"), std::string::npos)
      << stats.out;

  EXPECT_EQ(server.Stop(), 0);
}

// `renju suggest --opening-rule` against a real server of the shipped
// pilot model: a Taraguchi-10 swap decision and 5th-move offer, and an
// illegal action list named with what the rule expected.
TEST_F(ServeCommandTest, SuggestAnswersTaraguchiSwapAndFifthOffer) {
  ServeProcess server({"--model",
                       std::string(RENJU_SOURCE_DIR) + "/models/pilot24.model",
                       "--listen", "127.0.0.1:0"});
  ASSERT_FALSE(server.address().empty()) << "the server did not start";
  // `renju suggest` for an action list, with `json` or not.
  const auto suggest = [&](const std::string& actions, bool json = false,
                           Stderr stderr_to = Stderr::kShown) {
    commands::Argv args = {"--server",    server.address(), "--opening-rule",
                           "taraguchi10", "--visits",       "16",
                           "--actions",   actions};
    if (json) args.push_back("--json");
    return RunCommand(commands::Suggest, args, stderr_to);
  };

  // Move 3 placed: tentative white (the second player) swaps or keeps.
  const std::string swap_actions =
      "Place(h8) KeepColours Place(h9) KeepColours Place(j10)";
  testing::CommandResult table = suggest(swap_actions);
  ASSERT_EQ(table.exit_code, 0) << table.out;
  EXPECT_NE(table.out.find("opening: Taraguchi-10 expects white (the second "
                           "player) to swap colours or keep them"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("the side to decide scores "), std::string::npos)
      << table.out;
  testing::CommandResult json = suggest(swap_actions, /*json=*/true);
  ASSERT_EQ(json.exit_code, 0) << json.out;
  nlohmann::json answer = nlohmann::json::parse(json.out);
  EXPECT_EQ(answer["player"], "second");
  EXPECT_EQ(answer["color"], "white");
  EXPECT_EQ(answer["visits"], 16);
  const float black = answer["black_score"];
  // Tentative white takes black exactly when black scores better.
  EXPECT_EQ(answer["action"], black > 0 ? "Swap" : "KeepColours") << json.out;
  EXPECT_FLOAT_EQ(answer["value"].get<float>(), std::abs(black));
  EXPECT_NE(table.out.find(answer["action"] == "Swap" ? ": swap\n"
                                                      : ": keep colours\n"),
            std::string::npos)
      << table.out;

  // Move 4 placed far from black's stones: black (the second player, after
  // the swap) offers ten 5th moves and expects the worst of them for black.
  json = suggest(
      "Place(h8) KeepColours Place(g9) KeepColours Place(j9) Swap Place(e5)",
      /*json=*/true);
  ASSERT_EQ(json.exit_code, 0) << json.out;
  answer = nlohmann::json::parse(json.out);
  EXPECT_EQ(answer["player"], "second");
  EXPECT_EQ(answer["color"], "black");
  ASSERT_EQ(answer["kind"], "OPENING_OFFER_FIFTH") << json.out;
  ASSERT_EQ(answer["points"].size(), 10u) << json.out;
  ASSERT_EQ(answer["candidates"].size(), 10u) << json.out;
  float worst = 1;
  for (const auto& c : answer["candidates"]) {
    worst = std::min(worst, c["black_score"].get<float>());
  }
  EXPECT_FLOAT_EQ(answer["value"].get<float>(), worst);
  // A ranking search and one valuation per candidate, at most 16 visits
  // each (a tactic may decide a position without any).
  EXPECT_GT(answer["visits"], 0);
  EXPECT_LE(answer["visits"], 11 * 16);
  // The offer is legal: the rule accepts it, and a choice after it.
  const std::string offer = answer["action"];
  testing::CommandResult choose = suggest(
      "Place(h8) KeepColours Place(g9) KeepColours Place(j9) Swap Place(e5) " +
      offer);
  ASSERT_EQ(choose.exit_code, 0) << choose.out;
  EXPECT_NE(choose.out.find("action: ChooseFifth("), std::string::npos)
      << choose.out;

  // An illegal action: named, with what the rule expected.
  testing::CommandResult bad =
      suggest("Place(h8) Place(h9)", /*json=*/false, Stderr::kCaptured);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("opening action 2 of 2 (Place(h9))"),
            std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("Taraguchi-10 expects white (the second player) to "
                         "swap colours or keep them"),
            std::string::npos)
      << bad.out;
  EXPECT_EQ(server.Stop(), 0);
}

TEST_F(ServeCommandTest, HttpServesThePageAndRefusesBadInput) {
  ServeProcess server({"--config", config_path_, "--model", model_, "--listen",
                       "127.0.0.1:0", "--http", "127.0.0.1:0", "--token",
                       "t0ken"});
  ASSERT_FALSE(server.http_url().empty()) << "no HTTP address printed";
  httplib::Client client(server.http_url().substr(
      0, server.http_url().size() - 1));  // without the trailing '/'
  client.set_read_timeout(60, 0);
  httplib::Result page = client.Get("/");
  ASSERT_TRUE(page) << httplib::to_string(page.error());
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("board.js"), std::string::npos);

  const httplib::Headers token = {{"Authorization", "Bearer t0ken"}};
  for (const char* bad :
       {R"({"moves": "h8 h9",)", R"({"moves": "h8", "colour": "black"})",
        R"({"moves": "h8 h8"})",
        R"({"moves": "g8 a1 h8 o1 i9 a15 i10 o15 i8"})"}) {
    httplib::Result answer =
        client.Post("/api/suggest", token, bad, "application/json");
    ASSERT_TRUE(answer) << bad;
    EXPECT_EQ(answer->status, 400) << bad;
    EXPECT_NE(answer->body.find("\"field\""), std::string::npos)
        << answer->body;
  }
  httplib::Result good =
      client.Post("/api/suggest", token, R"({"moves": "h8 h9", "visits": 16})",
                  "application/json");
  ASSERT_TRUE(good);
  ASSERT_EQ(good->status, 200) << good->body;
  const nlohmann::json answer = nlohmann::json::parse(good->body);
  EXPECT_EQ(answer["visits"], 16);
  EXPECT_EQ(answer["model_generation"], 3);

  // The gRPC side answers on its own port as before, with the token.
  testing::CommandResult grpc = RunCommand(
      commands::Suggest, {"--server", server.address(), "--token", "t0ken",
                          "--moves", "h8", "--visits", "8"});
  EXPECT_EQ(grpc.exit_code, 0) << grpc.out;
  EXPECT_EQ(server.Stop(), 0);
}

// Issue 32: tokens from files (mode 0600) and RENJU_TOKEN, never in argv.
TEST_F(ServeCommandTest, TokenFilesKeepTheTokenOutOfArgv) {
  const std::string secret = "file-t0ken-4f9c2a";
  const std::string token_file = (dir_ / "token").string();
  std::ofstream(token_file) << secret << "\n";
  ASSERT_EQ(::chmod(token_file.c_str(), 0600), 0);
  ServeProcess server({"--config", config_path_, "--model", model_, "--listen",
                       "127.0.0.1:0", "--token-file", token_file});
  ASSERT_FALSE(server.address().empty()) << "the server did not start";

  // `ps` reads /proc/PID/cmdline: the path is there, the token is not.
  std::ifstream cmdline("/proc/" + std::to_string(server.pid()) + "/cmdline");
  std::stringstream argv;
  argv << cmdline.rdbuf();
  EXPECT_NE(argv.str().find(token_file), std::string::npos) << argv.str();
  EXPECT_EQ(argv.str().find(secret), std::string::npos) << argv.str();

  const std::string ask = " --moves h8 --visits 8";
  testing::CommandResult with_file =
      testing::RunRenju("suggest --server " + server.address() +
                        " --token-file " + token_file + ask + " 2>&1");
  EXPECT_EQ(with_file.exit_code, 0) << with_file.out;
  testing::CommandResult without =
      testing::RunRenju("suggest --server " + server.address() + ask + " 2>&1");
  EXPECT_EQ(without.exit_code, 1) << without.out;

  // RENJU_TOKEN stands for --token; the flag wins over it.
  const std::vector<std::string> base = {
      "--server", server.address(), "--moves", "h8", "--visits", "8"};
  ASSERT_EQ(::setenv("RENJU_TOKEN", secret.c_str(), 1), 0);
  testing::CommandResult from_env = RunCommand(commands::Suggest, base);
  EXPECT_EQ(from_env.exit_code, 0) << from_env.out;
  std::vector<std::string> wrong_flag = base;
  wrong_flag.insert(wrong_flag.end(), {"--token", "not-the-token"});
  EXPECT_EQ(
      RunCommand(commands::Suggest, wrong_flag, Stderr::kCaptured).exit_code,
      1);
  ASSERT_EQ(::unsetenv("RENJU_TOKEN"), 0);

  // Both forms at once, and a file others may read, are refused.
  std::vector<std::string> both = base;
  both.insert(both.end(), {"--token", secret, "--token-file", token_file});
  testing::CommandResult twice =
      RunCommand(commands::Suggest, both, Stderr::kCaptured);
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_NE(twice.out.find("not both"), std::string::npos) << twice.out;
  ASSERT_EQ(::chmod(token_file.c_str(), 0644), 0);
  std::vector<std::string> open_file = base;
  open_file.insert(open_file.end(), {"--token-file", token_file});
  testing::CommandResult refused =
      RunCommand(commands::Suggest, open_file, Stderr::kCaptured);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.out.find(token_file + " has mode 0644"), std::string::npos)
      << refused.out;
  EXPECT_EQ(server.Stop(), 0);
}

TEST_F(ServeCommandTest, ServeTakesAModelOrATrainerNotBoth) {
  testing::CommandResult both = RunCommand(
      commands::Serve,
      {"--config", config_path_, "--model", model_, "--trainer", "127.0.0.1:1"},
      Stderr::kCaptured);
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.out.find("not both"), std::string::npos) << both.out;
}

// Neither --model nor --trainer nor --config: the shipped model, with its
// own network shape, answers `renju suggest`.
TEST_F(ServeCommandTest, ServeWithoutAModelServesTheDefaultModel) {
  ServeProcess server({"--listen", "127.0.0.1:0"});
  ASSERT_FALSE(server.address().empty());
  absl::StatusOr<Checkpoint> shipped = ReadCheckpoint(
      std::string(RENJU_BINARY_DIR) + "/share/renju/default.model");
  ASSERT_TRUE(shipped.ok()) << shipped.status();
  testing::CommandResult suggest =
      RunCommand(commands::Suggest, {"--json", "--server", server.address(),
                                     "--moves", "h8", "--visits", "16"});
  ASSERT_EQ(suggest.exit_code, 0) << suggest.out;
  const nlohmann::json answer = nlohmann::json::parse(suggest.out);
  EXPECT_EQ(answer["model_generation"], shipped->info.generation);
  EXPECT_GT(shipped->info.generation, 0);
  EXPECT_EQ(server.Stop(), 0);
}

TEST_F(ServeCommandTest, SearchBrainNeverBlocksOnAForbiddenPoint) {
  absl::StatusOr<std::unique_ptr<GomocupBrain>> brain =
      MakeSearchBrain(config_, model_, 5);
  ASSERT_TRUE(brain.ok()) << brain.status();
  absl::StatusOr<Game> game =
      GameFromPosition(testing::ForbiddenBlockPosition());
  ASSERT_TRUE(game.ok()) << game.status();
  const Point i8 = PointAt(testing::P("i8"), 15);
  ASSERT_FALSE(game->IsLegal(i8));
  MoveLimits limits;
  limits.budget_ms = 200;
  limits.threads = 2;
  absl::StatusOr<Move> move = (*brain)->ChooseMove(*game, limits, nullptr);
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_TRUE(game->IsLegal(move->point())) << MoveName(*move);

  // A time budget is used: the search runs until no further gathered batch
  // fits in it (a batch that would end past the budget does not start, so
  // it may stop a batch's time early; a busy machine can only make that
  // later) and then stops.
  Game open = *GameFromPosition(testing::MovesPosition({"h8", "h9"}));
  limits.budget_ms = 300;
  auto start = std::chrono::steady_clock::now();
  move = (*brain)->ChooseMove(open, limits, nullptr);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_TRUE(open.IsLegal(move->point()));
  EXPECT_GE(elapsed, std::chrono::milliseconds(150));
  EXPECT_LT(elapsed, std::chrono::seconds(10));

  // A raised stop flag ends a search with ten minutes to spend at once,
  // still with a legal move.
  std::atomic<bool> stop{true};
  limits.budget_ms = 600000;
  start = std::chrono::steady_clock::now();
  move = (*brain)->ChooseMove(open, limits, &stop);
  elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_TRUE(open.IsLegal(move->point()));
  EXPECT_LT(elapsed, std::chrono::seconds(60));
}

}  // namespace
}  // namespace renju
