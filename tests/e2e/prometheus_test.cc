// The Prometheus metrics as Prometheus itself reads them: Debian's real
// `prometheus` server (tools/setup.sh installs it) scrapes a real `renju
// trainer --http`, a real `renju serve --http` behind a token (sent with
// the scrape config's `authorization`) and a `renju selfplay --metrics`
// worker on loopback, every second. Through Prometheus' HTTP query API the
// test checks that the series exist and that the stored-games counter
// rises while the worker's games arrive; `promtool check metrics` accepts
// each endpoint's text. No wall-clock bets: every wait polls with a limit
// of minutes that a working setup never needs.
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file_util.h"
#include "base/subprocess.h"
#include "gtest/gtest.h"
#include "tests/common/loopback.h"
#include "tests/e2e/e2e_paths.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::FreeLoopbackPort;
using testing::kE2eConfig;
using testing::kRenju;
using testing::PollUntil;

constexpr char kPrometheus[] = "/usr/bin/prometheus";
constexpr char kPromtool[] = "/usr/bin/promtool";
constexpr char kToken[] = "metrics-test-token-0123456789";
// Long enough for LibTorch's start-up and the first games on a loaded
// machine under ASan; a working setup needs seconds.
constexpr int kWaitSeconds = 240;

// Scrapes come once a second, and nothing says when one has happened.
bool WaitFor(const std::function<bool()>& condition) {
  return PollUntil(condition, kWaitSeconds);
}
class PrometheusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / absl::StrCat("renju_prometheus_", getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "logs");
    for (int* port : {&trainer_port_, &trainer_http_port_, &serve_port_,
                      &serve_http_port_, &worker_port_, &prometheus_port_}) {
      *port = FreeLoopbackPort();
    }
  }
  void TearDown() override {
    for (std::optional<Subprocess>* p :
         {&prometheus_, &worker_, &server_, &trainer_}) {
      if (p->has_value()) (*p)->Stop(10000);
    }
    if (!HasFailure()) fs::remove_all(dir_);
  }

  static std::string Local(int port) {
    return absl::StrCat("127.0.0.1:", port);
  }

  void Start(std::optional<Subprocess>& process, const std::string& name,
             const std::vector<std::string>& argv) {
    absl::StatusOr<Subprocess> child =
        Subprocess::Start(argv, (dir_ / "logs" / (name + ".log")).string());
    ASSERT_TRUE(child.ok()) << child.status();
    process.emplace(std::move(*child));
  }

  // The renju processes as users start them: a trainer with its run page,
  // a server following it with its board page behind a token, and a worker
  // playing until stopped.
  void StartRenju() {
    const fs::path token = dir_ / "token";
    std::ofstream(token) << kToken << "\n";
    ::chmod(token.c_str(), 0600);
    Start(trainer_, "trainer",
          {kRenju, "trainer", "--config", kE2eConfig, "--run-dir",
           (dir_ / "run").string(), "--listen", Local(trainer_port_), "--http",
           Local(trainer_http_port_)});
    Start(server_, "serve",
          {kRenju, "serve", "--config", kE2eConfig, "--trainer",
           Local(trainer_port_), "--model-dir", (dir_ / "serve").string(),
           "--listen", Local(serve_port_), "--http", Local(serve_http_port_),
           "--token-file", token.string()});
    Start(worker_, "worker",
          {kRenju, "selfplay", "--config", kE2eConfig, "--trainer",
           Local(trainer_port_), "--worker-id", "w1", "--out",
           (dir_ / "worker").string(), "--metrics", Local(worker_port_)});
  }

  // The README's scrape config, with this test's ports.
  void StartPrometheus() {
    const fs::path config = dir_ / "prometheus.yml";
    std::ofstream(config) << absl::StrCat(
        "global:\n"
        "  scrape_interval: 1s\n"
        "  scrape_timeout: 1s\n"
        "scrape_configs:\n"
        "  - job_name: trainer\n"
        "    static_configs: [{targets: ['",
        Local(trainer_http_port_),
        "']}]\n"
        "  - job_name: server\n"
        "    authorization:\n"
        "      credentials_file: ",
        (dir_ / "token").string(),
        "\n"
        "    static_configs: [{targets: ['",
        Local(serve_http_port_),
        "']}]\n"
        "  - job_name: worker\n"
        "    static_configs: [{targets: ['",
        Local(worker_port_), "']}]\n");
    Start(prometheus_, "prometheus",
          {kPrometheus, "--config.file=" + config.string(),
           "--storage.tsdb.path=" + (dir_ / "tsdb").string(),
           "--web.listen-address=" + Local(prometheus_port_)});
  }

  // The instant vector `query` evaluates to, or nullopt while Prometheus
  // does not answer.
  std::optional<nlohmann::json> Query(const std::string& query) {
    httplib::Client client("127.0.0.1", prometheus_port_);
    client.set_connection_timeout(5, 0);
    client.set_read_timeout(10, 0);
    httplib::Result result = client.Get(
        "/api/v1/query", httplib::Params{{"query", query}}, httplib::Headers{});
    if (!result || result->status != 200) return std::nullopt;
    nlohmann::json answer = nlohmann::json::parse(result->body, nullptr,
                                                  /*allow_exceptions=*/false);
    if (answer.is_discarded() || answer.value("status", "") != "success") {
      return std::nullopt;
    }
    return answer["data"]["result"];
  }

  // The value of the first series `query` finds, or nullopt.
  std::optional<double> Value(const std::string& query) {
    std::optional<nlohmann::json> result = Query(query);
    if (!result.has_value() || result->empty()) return std::nullopt;
    double value = 0;
    if (!absl::SimpleAtod((*result)[0]["value"][1].get<std::string>(),
                          &value)) {
      return std::nullopt;
    }
    return value;
  }

  std::string Logs() {
    std::string text;
    for (const char* name : {"trainer", "serve", "worker", "prometheus"}) {
      absl::StatusOr<std::string> log =
          ReadFile((dir_ / "logs" / absl::StrCat(name, ".log")).string());
      absl::StrAppend(&text, "--- ", name, ".log\n", log.ok() ? *log : "",
                      "\n");
    }
    return text;
  }

  fs::path dir_;
  int trainer_port_ = 0, trainer_http_port_ = 0, serve_port_ = 0,
      serve_http_port_ = 0, worker_port_ = 0, prometheus_port_ = 0;
  std::optional<Subprocess> trainer_, server_, worker_, prometheus_;
};

// `promtool check metrics` on `text`: its exit code (0: no problems) and
// what it said.
std::pair<int, std::string> Promtool(const std::string& text,
                                     const fs::path& dir) {
  const fs::path input = dir / "metrics.txt";
  const fs::path output = dir / "promtool.out";
  std::ofstream(input) << text;
  const int fd = ::open(input.c_str(), O_RDONLY);
  SpawnOptions options;
  options.stdin_fd = fd;
  options.output_path = output.string();
  options.append_output = false;
  absl::StatusOr<pid_t> pid =
      SpawnProcess({kPromtool, "check", "metrics"}, options);
  ::close(fd);
  if (!pid.ok()) return {-1, std::string(pid.status().message())};
  int status = 0;
  ::waitpid(*pid, &status, 0);
  absl::StatusOr<std::string> said = ReadFile(output.string());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, said.ok() ? *said : ""};
}

// What GET /metrics answers at `port` (with `token` as a bearer token when
// given): status and body; status 0 when it does not answer.
std::pair<int, std::string> Scrape(int port, const std::string& token = "") {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  httplib::Headers headers;
  if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
  httplib::Result result = client.Get("/metrics", headers);
  if (!result) return {0, ""};
  return {result->status, result->body};
}

TEST_F(PrometheusTest, ScrapesTrainerServerAndWorkerAndSeesGamesArrive) {
  // Not a skip: the suite promises this check, and tools/setup.sh
  // installs what it needs.
  ASSERT_TRUE(fs::exists(kPrometheus) && fs::exists(kPromtool))
      << kPrometheus << " or " << kPromtool
      << " is missing: install Debian's prometheus package (tools/setup.sh "
         "does)";
  StartRenju();
  StartPrometheus();

  // Every target is up: Prometheus reached it, and it answered in the text
  // format (the server with the token from the scrape config).
  ASSERT_TRUE(WaitFor([&] {
    std::optional<nlohmann::json> up = Query("up == 1");
    return up.has_value() && up->size() == 3;
  })) << Query("up").value_or(nlohmann::json()).dump()
      << Logs();

  // The series the README lists, from the job that has them.
  const std::vector<std::string> series = {
      "renju_trainer_games_received_total{job='trainer'}",
      "renju_trainer_games_stored_total{job='trainer'}",
      "renju_trainer_games_rejected_total{job='trainer',reason='invalid_record'"
      "}",
      "renju_trainer_window_positions{job='trainer'}",
      "renju_trainer_training_steps_total{job='trainer'}",
      "renju_trainer_samples_per_second{job='trainer'}",
      "renju_trainer_policy_loss{job='trainer'}",
      "renju_trainer_value_loss{job='trainer'}",
      "renju_trainer_generation{job='trainer'}",
      "renju_trainer_workers_connected{job='trainer'}",
      "renju_server_generation{job='server'}",
      "renju_server_suggest_latency_seconds_bucket{job='server',le='+Inf'}",
      "renju_server_suggest_errors_total{job='server',code='INVALID_ARGUMENT'}",
      "renju_evaluator_batch_size_bucket{job='server',le='1'}",
      "renju_evaluator_latency_seconds_count{job='server'}",
      "renju_worker_games_finished_total{job='worker'}",
      "renju_worker_generation{job='worker'}",
      "renju_evaluator_batch_size_count{job='worker'}",
  };
  for (const std::string& name : series) {
    EXPECT_TRUE(Value(name).has_value()) << name << " is not in Prometheus";
  }

  // The stored-games counter rises while the worker's games arrive: two
  // different scrapes, the later one higher.
  std::optional<double> first;
  ASSERT_TRUE(WaitFor([&] {
    first = Value("renju_trainer_games_stored_total");
    return first.has_value();
  })) << Logs();
  ASSERT_TRUE(WaitFor([&] {
    std::optional<double> now = Value("renju_trainer_games_stored_total");
    return now.has_value() && *now > *first;
  })) << "stored games stayed at "
      << *first << "\n"
      << Logs();
  // The worker's and the trainer's counts agree in direction too.
  ASSERT_TRUE(WaitFor([&] {
    std::optional<double> delivered =
        Value("renju_worker_games_delivered_total");
    return delivered.has_value() && *delivered > 0;
  })) << Logs();
}

TEST_F(PrometheusTest, PromtoolAcceptsEachEndpointAndTheServerWantsItsToken) {
  ASSERT_TRUE(fs::exists(kPromtool))
      << kPromtool
      << " is missing: install Debian's prometheus package (tools/setup.sh "
         "does)";
  StartRenju();
  // Each endpoint answers once its process is up; the server after the
  // trainer has a model for it.
  struct Endpoint {
    std::string name;
    int port;
    std::string token;
  };
  for (const Endpoint& endpoint :
       std::vector<Endpoint>{{"trainer", trainer_http_port_, ""},
                             {"server", serve_http_port_, kToken},
                             {"worker", worker_port_, ""}}) {
    std::pair<int, std::string> scraped;
    ASSERT_TRUE(WaitFor([&] {
      scraped = Scrape(endpoint.port, endpoint.token);
      return scraped.first == 200;
    })) << endpoint.name
        << " /metrics: HTTP " << scraped.first << "\n"
        << Logs();
    const auto [code, said] = Promtool(scraped.second, dir_);
    EXPECT_EQ(code, 0) << endpoint.name << ": promtool says:\n"
                       << said << "\nof:\n"
                       << scraped.second;
    EXPECT_EQ(said, "") << endpoint.name;
  }
  // /metrics is behind the server's token, as its /api/ is.
  const auto [status, body] = Scrape(serve_http_port_);
  EXPECT_EQ(status, 401) << body;
  EXPECT_EQ(Scrape(serve_http_port_, "wrong-token").first, 401);
}

}  // namespace
}  // namespace renju
