// Mutual TLS with real processes, started the way users start them: a
// `renju trainer` and a `renju serve` that both require client
// certificates (--tls-client-ca). The project's own clients holding a
// certificate that CA signed get through: serve fetches its model from the
// trainer (--trainer-tls-cert), `renju suggest` gets a move from serve
// (--tls-cert), and a `renju selfplay` worker plays with serve's network
// (--evaluator-tls-cert) and uploads its game to the trainer (--tls-cert).
// The same clients without a certificate, or with one of another CA, are
// refused.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/file_util.h"
#include "base/subprocess.h"
#include "gtest/gtest.h"
#include "rpc/trainer_client.h"
#include "tests/common/loopback.h"
#include "tests/common/temp_dir.h"
#include "tests/common/tls.h"
#include "tests/e2e/e2e_paths.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::FreeLoopbackPort;
using testing::kE2eConfig;
using testing::kRenju;
using testing::PollUntil;
using testing::TestCertificate;

class MutualTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TestDir("renju_mtls_");
    fs::create_directories(dir_ / "logs");
    ca_ = Made(testing::MakeCertificateAuthority(dir_, "ca"));
    server_ = Made(testing::MakeSignedCertificate(dir_, "server", ca_));
    client_ = Made(testing::MakeSignedCertificate(dir_, "client", ca_));
    const TestCertificate other_ca =
        Made(testing::MakeCertificateAuthority(dir_, "other-ca"));
    other_client_ =
        Made(testing::MakeSignedCertificate(dir_, "other-client", other_ca));
    trainer_address_ = absl::StrCat("127.0.0.1:", FreeLoopbackPort());
  }
  void TearDown() override {
    for (Subprocess& worker : workers_) worker.Stop(5000);
    if (serve_.has_value()) serve_->Stop(10000);
    if (trainer_.has_value()) trainer_->Stop(10000);
    if (!HasFailure()) fs::remove_all(dir_);
  }

  static TestCertificate Made(absl::StatusOr<TestCertificate> made) {
    EXPECT_TRUE(made.ok()) << made.status();
    return made.ok() ? *made : TestCertificate();
  }

  Subprocess Start(const std::vector<std::string>& argv,
                   const std::string& log) {
    absl::StatusOr<Subprocess> child =
        Subprocess::Start(argv, (dir_ / "logs" / (log + ".log")).string());
    EXPECT_TRUE(child.ok()) << child.status();
    return std::move(*child);
  }

  std::string Log(const std::string& name) {
    absl::StatusOr<std::string> text =
        ReadFile((dir_ / "logs" / (name + ".log")).string());
    return text.ok() ? *text : "";
  }

  // This server's own certificate, and the CA its clients must come from.
  std::vector<std::string> ServerTls() const {
    return {"--tls-cert", server_.cert,      "--tls-key",
            server_.key,  "--tls-client-ca", ca_.cert};
  }

  void StartTrainer() {
    std::vector<std::string> argv = {kRenju,      "trainer",
                                     "--config",  kE2eConfig,
                                     "--run-dir", (dir_ / "run").string(),
                                     "--listen",  trainer_address_};
    for (const std::string& flag : ServerTls()) argv.push_back(flag);
    trainer_.emplace(Start(argv, "trainer"));
  }

  // serve fetches the trainer's best model before it listens, so its
  // address file shows that its certificate got it through.
  void StartServeAndWait() {
    const std::string address_file = (dir_ / "serve.address").string();
    std::vector<std::string> argv = {kRenju,
                                     "serve",
                                     "--config",
                                     kE2eConfig,
                                     "--trainer",
                                     trainer_address_,
                                     "--tls-root-cert",
                                     ca_.cert,
                                     "--trainer-tls-cert",
                                     client_.cert,
                                     "--trainer-tls-key",
                                     client_.key,
                                     "--model-dir",
                                     (dir_ / "serve-models").string(),
                                     "--listen",
                                     "127.0.0.1:0",
                                     "--address-file",
                                     address_file};
    for (const std::string& flag : ServerTls()) argv.push_back(flag);
    serve_.emplace(Start(argv, "serve"));
    ASSERT_TRUE(PollUntil(
        [&] { return fs::exists(address_file) || !serve_->Running(); }, 300))
        << Log("serve") << Log("trainer");
    absl::StatusOr<std::string> address = ReadFile(address_file);
    ASSERT_TRUE(address.ok()) << Log("serve") << Log("trainer");
    serve_address_ = std::string(absl::StripTrailingAsciiWhitespace(*address));
  }

  // `renju suggest` against serve, presenting `cert` (none when empty).
  testing::CommandResult Suggest(const TestCertificate& cert) {
    std::string command = "suggest --server " + serve_address_ +
                          " --tls-root-cert " + ca_.cert +
                          " --moves 'h8 h9' --visits 8 --candidates 2";
    if (!cert.cert.empty()) {
      command += " --tls-cert " + cert.cert + " --tls-key " + cert.key;
    }
    return testing::RunRenju(command + " 2>&1");
  }

  // A worker uploading to the trainer, presenting `cert` (none when empty);
  // with `evaluator`, it plays with serve's network, presenting `cert` there
  // too.
  void StartWorker(const std::string& id, const TestCertificate& cert,
                   bool evaluator) {
    std::vector<std::string> argv = {kRenju,
                                     "selfplay",
                                     "--config",
                                     kE2eConfig,
                                     "--trainer",
                                     trainer_address_,
                                     "--tls-root-cert",
                                     ca_.cert,
                                     "--worker-id",
                                     id,
                                     "--games",
                                     "1",
                                     "--out",
                                     (dir_ / id).string()};
    if (!cert.cert.empty()) {
      argv.insert(argv.end(), {"--tls-cert", cert.cert, "--tls-key", cert.key});
    }
    if (evaluator) {
      argv.insert(argv.end(), {"--evaluator", serve_address_,
                               "--evaluator-tls-root-cert", ca_.cert});
    }
    if (evaluator && !cert.cert.empty()) {
      argv.insert(argv.end(), {"--evaluator-tls-cert", cert.cert,
                               "--evaluator-tls-key", cert.key});
    }
    workers_.push_back(Start(argv, id));
  }

  // The trainer's status, asked with the client certificate.
  absl::StatusOr<pb::TrainerStatus> TrainerStatus() {
    ChannelOptions channel;
    channel.address = trainer_address_;
    channel.tls_root_cert = ca_.cert;
    channel.tls_cert = client_.cert;
    channel.tls_key = client_.key;
    absl::StatusOr<std::unique_ptr<TrainerClient>> client =
        TrainerClient::Create(channel, 30000);
    if (!client.ok()) return client.status();
    return (*client)->GetStatus();
  }

  fs::path dir_;
  TestCertificate ca_;
  TestCertificate server_;
  TestCertificate client_;
  TestCertificate other_client_;
  std::string trainer_address_;
  std::string serve_address_;
  std::optional<Subprocess> trainer_;
  std::optional<Subprocess> serve_;
  std::vector<Subprocess> workers_;
};

// One trainer and one serve for every case: each process start loads
// LibTorch, seconds under the sanitizers.
TEST_F(MutualTlsTest, OnlyClientsWithACertificateOfTheClientCaGetThrough) {
  StartTrainer();
  StartServeAndWait();
  ASSERT_FALSE(serve_address_.empty());

  const testing::CommandResult accepted = Suggest(client_);
  ASSERT_EQ(accepted.exit_code, 0) << accepted.out << Log("serve");
  EXPECT_NE(accepted.out.find("best move: "), std::string::npos)
      << accepted.out;

  const testing::CommandResult without = Suggest(TestCertificate());
  EXPECT_EQ(without.exit_code, 1) << without.out;
  EXPECT_NE(without.out.find("error: Suggest from " + serve_address_),
            std::string::npos)
      << without.out;
  EXPECT_EQ(without.out.find("best move"), std::string::npos) << without.out;
  EXPECT_NE(without.out.find("to a client that presents none"),
            std::string::npos)
      << without.out;
  const testing::CommandResult other = Suggest(other_client_);
  EXPECT_EQ(other.exit_code, 1) << other.out;
  EXPECT_NE(other.out.find("error: Suggest from " + serve_address_),
            std::string::npos)
      << other.out;
  EXPECT_NE(
      other.out.find("its CA did not sign, such as " + other_client_.cert),
      std::string::npos)
      << other.out;

  // A worker with the certificate plays one game with serve's network and
  // the trainer stores it; one without cannot reach the trainer: it waits,
  // retrying, and the trainer never hears of it.
  StartWorker("with-cert", client_, /*evaluator=*/true);
  StartWorker("without-cert", TestCertificate(), /*evaluator=*/false);
  ASSERT_TRUE(workers_[0].WaitForExit(300000)) << Log("with-cert");
  EXPECT_EQ(workers_[0].exit_code(), 0) << Log("with-cert");
  ASSERT_TRUE(PollUntil(
      [&] {
        return Log("without-cert").find("to a client that presents none") !=
               std::string::npos;
      },
      120))
      << Log("without-cert");
  EXPECT_TRUE(workers_[1].Running()) << Log("without-cert");
  EXPECT_EQ(Log("without-cert").find("playing generation"), std::string::npos)
      << Log("without-cert");
  absl::StatusOr<pb::TrainerStatus> status = TrainerStatus();
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->workers_size(), 1) << Log("trainer");
  EXPECT_EQ(status->workers(0).worker_id(), "with-cert");
  EXPECT_GE(status->workers(0).games_stored(), 1);
}

}  // namespace
}  // namespace renju
