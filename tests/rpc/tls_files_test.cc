// A client's TLS files (rpc/tls_files.h): the checks that name the flag and
// the file, and mutual TLS in process: a channel with a certificate that
// the server's client CA signed gets through, one without a certificate or
// with another CA's is refused, with an error that says why.
#include "rpc/tls_files.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "rpc/rpc.h"
#include "rpc/trainer_client.h"
#include "tests/common/fake_trainer.h"
#include "tests/common/temp_dir.h"
#include "tests/common/tls.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::TestCertificate;

const ChannelTlsNames kFlags = {"--tls-root-cert", "--tls-cert", "--tls-key"};

// One certificate authority with a certificate it signed (for the server
// and for the client alike), and a second authority with its own.
class TlsFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TestDir("renju_tls_files_");
    ca_ = Made(testing::MakeCertificateAuthority(dir_, "ca"));
    signed_ = Made(testing::MakeSignedCertificate(dir_, "signed", ca_));
    other_ca_ = Made(testing::MakeCertificateAuthority(dir_, "other-ca"));
    other_ = Made(testing::MakeSignedCertificate(dir_, "other", other_ca_));
    not_pem_ = (dir_ / "not.pem").string();
    std::ofstream(not_pem_) << "not a certificate\n";
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  static TestCertificate Made(absl::StatusOr<TestCertificate> made) {
    EXPECT_TRUE(made.ok()) << made.status();
    return made.ok() ? *made : TestCertificate();
  }

  // A TLS channel to nowhere that trusts `ca_` and presents `cert`, `key`.
  ChannelOptions Channel(const std::string& cert, const std::string& key) {
    ChannelOptions options;
    options.address = "127.0.0.1:1";
    options.tls_root_cert = ca_.cert;
    options.tls_cert = cert;
    options.tls_key = key;
    return options;
  }

  // The error message of ReadChannelTls(options) under the flags' names.
  static std::string Error(const ChannelOptions& options) {
    absl::StatusOr<ChannelTlsPem> pem = ReadChannelTls(options, kFlags);
    EXPECT_FALSE(pem.ok());
    return pem.ok() ? "" : std::string(pem.status().message());
  }

  fs::path dir_;
  TestCertificate ca_;
  TestCertificate signed_;
  TestCertificate other_ca_;
  TestCertificate other_;
  std::string not_pem_;
};

TEST_F(TlsFilesTest, ReadsNothingForPlaintextAndEverythingForMutualTls) {
  ChannelOptions plaintext;
  plaintext.address = "127.0.0.1:1";
  absl::StatusOr<ChannelTlsPem> none = ReadChannelTls(plaintext);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->root_certs.empty());
  EXPECT_TRUE(none->cert_chain.empty());

  absl::StatusOr<ChannelTlsPem> server_only = ReadChannelTls(Channel("", ""));
  ASSERT_TRUE(server_only.ok()) << server_only.status();
  EXPECT_NE(server_only->root_certs.find("BEGIN CERTIFICATE"),
            std::string::npos);
  EXPECT_TRUE(server_only->cert_chain.empty());
  EXPECT_TRUE(server_only->private_key.empty());

  absl::StatusOr<ChannelTlsPem> mutual =
      ReadChannelTls(Channel(signed_.cert, signed_.key));
  ASSERT_TRUE(mutual.ok()) << mutual.status();
  EXPECT_NE(mutual->cert_chain.find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_NE(mutual->private_key.find("PRIVATE KEY"), std::string::npos);
}

TEST_F(TlsFilesTest, CertificateAndKeyComeTogetherAndOnlyOverTls) {
  const std::string no_key = Error(Channel(signed_.cert, ""));
  EXPECT_NE(no_key.find("--tls-cert " + signed_.cert + " needs --tls-key"),
            std::string::npos)
      << no_key;
  const std::string no_cert = Error(Channel("", signed_.key));
  EXPECT_NE(no_cert.find("--tls-key " + signed_.key + " needs --tls-cert"),
            std::string::npos)
      << no_cert;
  ChannelOptions plaintext = Channel(signed_.cert, signed_.key);
  plaintext.tls_root_cert = "";
  const std::string no_root = Error(plaintext);
  EXPECT_NE(no_root.find("--tls-cert needs --tls-root-cert"), std::string::npos)
      << no_root;
  // MakeChannel refuses the same, under the default names.
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(Channel(signed_.cert, ""));
  ASSERT_FALSE(channel.ok());
  EXPECT_NE(
      channel.status().message().find("TLS client certificate " + signed_.cert +
                                      " needs TLS client key"),
      std::string::npos)
      << channel.status();
}

TEST_F(TlsFilesTest, UnreadableOrWrongFilesAreNamedWithTheirFlag) {
  const std::string missing = (dir_ / "missing.pem").string();
  absl::StatusOr<ChannelTlsPem> pem =
      ReadChannelTls(Channel(missing, signed_.key), kFlags);
  ASSERT_FALSE(pem.ok());
  EXPECT_TRUE(absl::IsNotFound(pem.status())) << pem.status();
  EXPECT_EQ(pem.status().message(), "--tls-cert: cannot read " + missing);

  ChannelOptions bad_root = Channel("", "");
  bad_root.tls_root_cert = not_pem_;
  EXPECT_EQ(Error(bad_root), "--tls-root-cert: " + not_pem_ +
                                 " holds no PEM certificate (BEGIN "
                                 "CERTIFICATE)");
  EXPECT_EQ(Error(Channel(not_pem_, signed_.key)),
            "--tls-cert: " + not_pem_ +
                " holds no PEM certificate (BEGIN CERTIFICATE)");
  // A certificate where the key belongs.
  const std::string cert_as_key = Error(Channel(signed_.cert, signed_.cert));
  EXPECT_NE(cert_as_key.find("--tls-key: " + signed_.cert +
                             " holds no unencrypted PEM private key"),
            std::string::npos)
      << cert_as_key;
  // Another certificate's key.
  EXPECT_EQ(Error(Channel(signed_.cert, other_.key)),
            "--tls-key " + other_.key + " is not the private key of " +
                "--tls-cert " + signed_.cert + " (its first certificate)");
}

// GetCurrentModel from a trainer that requires client certificates signed
// by `ca_`, through a channel that presents `cert` and `key` (or none).
class MutualTlsTest : public TlsFilesTest {
 protected:
  void SetUp() override {
    TlsFilesTest::SetUp();
    const std::string model = (dir_ / "gen1.model").string();
    std::ofstream(model) << "model bytes";
    ASSERT_TRUE(trainer_.Publish(1, model).ok());
    absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
        MakeServerCredentials({signed_.cert, signed_.key, ca_.cert});
    ASSERT_TRUE(credentials.ok()) << credentials.status();
    absl::StatusOr<StartedServer> started =
        StartServer({"trainer", "127.0.0.1:0", *credentials}, {&trainer_});
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = std::move(started->server);
    address_ = BoundAddress("127.0.0.1:0", started->port);
  }
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
    TlsFilesTest::TearDown();
  }

  absl::StatusOr<pb::ModelInfo> CurrentModel(const std::string& cert,
                                             const std::string& key) {
    ChannelOptions options = Channel(cert, key);
    options.address = address_;
    absl::StatusOr<std::unique_ptr<TrainerClient>> client =
        TrainerClient::Create(options, 30000);
    if (!client.ok()) return client.status();
    return (*client)->GetCurrentModel();
  }

  testing::FakeTrainer trainer_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

TEST_F(MutualTlsTest, AcceptsOnlyCertificatesOfTheClientCa) {
  absl::StatusOr<pb::ModelInfo> accepted =
      CurrentModel(signed_.cert, signed_.key);
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  EXPECT_EQ(accepted->generation(), 1);

  absl::StatusOr<pb::ModelInfo> without = CurrentModel("", "");
  ASSERT_FALSE(without.ok());
  EXPECT_TRUE(absl::IsUnavailable(without.status())) << without.status();
  // gRPC says only "Socket closed"; the error says what that means here.
  EXPECT_NE(
      without.status().message().find("does so to a client that presents none"),
      std::string::npos)
      << without.status();

  absl::StatusOr<pb::ModelInfo> other_ca =
      CurrentModel(other_.cert, other_.key);
  ASSERT_FALSE(other_ca.ok());
  EXPECT_TRUE(absl::IsUnavailable(other_ca.status())) << other_ca.status();
  EXPECT_NE(other_ca.status().message().find(
                "does so to a certificate its CA did not sign, such as " +
                other_.cert),
            std::string::npos)
      << other_ca.status();
}

}  // namespace
}  // namespace renju
