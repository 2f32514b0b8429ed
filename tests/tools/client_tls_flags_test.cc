// The client TLS flags of every command with a gRPC link
// (tools/client_tls_flags.h): a certificate without its key, or a file that
// holds the wrong thing, stops the command at start-up with an error that
// names the flag and the file, before it connects anywhere. In-process
// (run_command.h says why); tests/e2e/mtls_test.cc connects for real.
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/temp_dir.h"
#include "tests/common/tls.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;
using testing::Stderr;

class ClientTlsFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TestDir("renju_client_tls_");
    absl::StatusOr<testing::TestCertificate> ca =
        testing::MakeCertificateAuthority(dir_, "ca");
    ASSERT_TRUE(ca.ok()) << ca.status();
    ca_ = *ca;
    absl::StatusOr<testing::TestCertificate> client =
        testing::MakeSignedCertificate(dir_, "client", ca_);
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = *client;
    not_pem_ = (dir_ / "not.pem").string();
    std::ofstream(not_pem_) << "not a certificate\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The command's output (stderr included), after checking it failed.
  static std::string Failure(int (*command)(const commands::Argv&),
                             const commands::Argv& args) {
    const testing::CommandResult result =
        RunCommand(command, args, Stderr::kCaptured);
    EXPECT_EQ(result.exit_code, 1) << result.out;
    return result.out;
  }

  fs::path dir_;
  testing::TestCertificate ca_;
  testing::TestCertificate client_;
  std::string not_pem_;
};

constexpr char kConfig[] = RENJU_SOURCE_DIR "/tests/data/e2e.textproto";
// Nothing listens there: the commands must stop before they connect.
constexpr char kNowhere[] = "127.0.0.1:1";

TEST_F(ClientTlsFlagsTest, SuggestNamesItsFlags) {
  const std::string no_key =
      Failure(commands::Suggest,
              {"--server", kNowhere, "--moves", "h8", "--tls-root-cert",
               ca_.cert, "--tls-cert", client_.cert});
  EXPECT_NE(no_key.find("error: --tls-cert " + client_.cert +
                        " needs --tls-key (its private key)"),
            std::string::npos)
      << no_key;
  const std::string no_root = Failure(
      commands::Suggest, {"--server", kNowhere, "--moves", "h8", "--tls-cert",
                          client_.cert, "--tls-key", client_.key});
  EXPECT_NE(no_root.find("error: --tls-cert needs --tls-root-cert"),
            std::string::npos)
      << no_root;
}

TEST_F(ClientTlsFlagsTest, SelfplayNamesTheFlagsOfEachLink) {
  const std::string trainer =
      Failure(commands::Selfplay,
              {"--config", kConfig, "--trainer", kNowhere, "--out",
               (dir_ / "games").string(), "--tls-root-cert", ca_.cert,
               "--tls-cert", not_pem_, "--tls-key", client_.key});
  EXPECT_NE(trainer.find("error: --tls-cert: " + not_pem_ +
                         " holds no PEM certificate"),
            std::string::npos)
      << trainer;
  const std::string evaluator =
      Failure(commands::Selfplay,
              {"--config", kConfig, "--evaluator", kNowhere, "--out",
               (dir_ / "games").string(), "--evaluator-tls-root-cert", ca_.cert,
               "--evaluator-tls-key", client_.key});
  EXPECT_NE(evaluator.find("error: --evaluator-tls-key " + client_.key +
                           " needs --evaluator-tls-cert"),
            std::string::npos)
      << evaluator;
}

TEST_F(ClientTlsFlagsTest, ServeNamesItsTrainerLinksFlags) {
  // The CA's key is not the client certificate's.
  const std::string output = Failure(
      commands::Serve,
      {"--trainer", kNowhere, "--tls-root-cert", ca_.cert, "--trainer-tls-cert",
       client_.cert, "--trainer-tls-key", ca_.key, "--listen", "127.0.0.1:0"});
  EXPECT_NE(output.find("error: --trainer-tls-key " + ca_.key +
                        " is not the private key of --trainer-tls-cert " +
                        client_.cert),
            std::string::npos)
      << output;
}

}  // namespace
}  // namespace renju
