// The Trainer service over loopback gRPC with a real SQLite file: uploads
// are validated, stored once and acknowledged; tokens are enforced; model
// downloads are verified.
#include "trainer/trainer_service.h"

#include <grpcpp/grpcpp.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/file_util.h"
#include "gtest/gtest.h"
#include "rpc/game_record.h"
#include "rpc/rpc.h"
#include "rpc/sha256.h"
#include "rpc/trainer_client.h"
#include "tests/common/tls.h"

namespace renju {
namespace {

TrainerServiceOptions WithTokens(std::map<std::string, std::string> tokens) {
  TrainerServiceOptions options;
  options.worker_tokens = std::move(tokens);
  return options;
}

namespace fs = std::filesystem;

int P(const char* name) { return PointIndex(*ParsePoint(name, 15), 15); }

pb::GameRecord FiveGame(const std::string& uid) {
  pb::GameRecord r;
  r.set_uid(uid);
  r.set_variant(pb::RENJU);
  r.set_board_size(15);
  for (const char* m : {"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"}) {
    pb::GamePly* ply = r.add_plies();
    ply->set_move(P(m));
    pb::SearchTarget* t = ply->mutable_target();
    t->set_root_win(1);
    t->set_visits(4);
  }
  r.set_result(pb::BLACK_WIN);
  r.set_end_reason(pb::FIVE);
  return r;
}

class TrainerServiceTest : public ::testing::Test {
 protected:
  void Start(TrainerServiceOptions options,
             std::shared_ptr<grpc::ServerCredentials> credentials =
                 grpc::InsecureServerCredentials()) {
    dir_ = fs::temp_directory_path() /
           ("renju_service_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto store = GameStore::Open((dir_ / "run.sqlite").string());
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
    service_ = std::make_unique<TrainerService>(
        store_.get(), options,
        [this](int64_t games, int64_t positions) {
          stored_games_ += games;
          stored_positions_ += positions;
        },
        nullptr);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", credentials, &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    address_ = "127.0.0.1:" + std::to_string(port);
  }

  std::unique_ptr<TrainerClient> Client(const std::string& token = "") {
    ChannelOptions channel;
    channel.address = address_;
    channel.token = token;
    auto client = TrainerClient::Create(channel, 5000);
    EXPECT_TRUE(client.ok());
    return std::move(*client);
  }

  void TearDown() override {
    if (server_) server_->Shutdown();
    fs::remove_all(dir_);
  }

  fs::path dir_;
  std::unique_ptr<GameStore> store_;
  std::unique_ptr<TrainerService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
  int64_t stored_games_ = 0;
  int64_t stored_positions_ = 0;
};

TEST_F(TrainerServiceTest, StoresValidGamesOnceAndRejectsInvalidOnes) {
  Start({});
  auto client = Client();
  pb::GameRecord bad = FiveGame("bad");
  bad.mutable_plies(2)->set_move(P("h8"));  // occupied
  auto acks = client->UploadGames("w1", {FiveGame("g1"), bad});
  ASSERT_TRUE(acks.ok()) << acks.status();
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::STORED);
  EXPECT_EQ((*acks)[1].outcome(), pb::GameAck::REJECTED);
  EXPECT_EQ((*acks)[1].reason(), "ply 3: move 3 (h8) is on an occupied point");
  // A retry of the same game is a duplicate.
  acks = client->UploadGames("w1", {FiveGame("g1")});
  ASSERT_TRUE(acks.ok());
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::DUPLICATE);
  EXPECT_EQ(store_->NumGames(), 1);
  EXPECT_EQ(stored_games_, 1);
  EXPECT_EQ(stored_positions_, 9);

  auto status = client->GetStatus();
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->total_games(), 1);
  ASSERT_EQ(status->workers_size(), 1);
  EXPECT_EQ(status->workers(0).games_rejected(), 1);
  EXPECT_EQ(status->workers(0).games_duplicate(), 1);
}

TEST_F(TrainerServiceTest, ForbiddenBlackMoveIsRejectedAndNotStored) {
  Start({});
  pb::GameRecord forbidden;
  forbidden.set_uid("forbidden");
  forbidden.set_variant(pb::RENJU);
  for (const char* m : {"h9", "a1", "g8", "a2", "i8", "a3", "h7", "a4", "h8"}) {
    forbidden.add_plies()->set_move(P(m));
  }
  forbidden.set_result(pb::WHITE_WIN);
  forbidden.set_end_reason(pb::FORBIDDEN_MOVE);
  auto acks = Client()->UploadGames("w1", {forbidden, FiveGame("fine")});
  ASSERT_TRUE(acks.ok()) << acks.status();
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::REJECTED);
  EXPECT_EQ((*acks)[0].reason(),
            "ply 9: black played h8, a forbidden point (double-three)");
  EXPECT_EQ((*acks)[1].outcome(), pb::GameAck::STORED);
  EXPECT_EQ(store_->NumGames(), 1);
}

TEST_F(TrainerServiceTest, GamesOfAnotherRuleOrSizeAreRejected) {
  Start({});
  pb::GameRecord freestyle = FiveGame("freestyle");
  freestyle.set_variant(pb::FREESTYLE);
  pb::GameRecord small = FiveGame("small");
  small.set_variant(pb::FREESTYLE);
  small.set_board_size(13);
  for (int i = 0; i < small.plies_size(); ++i) {
    // The same points, renumbered for 13 x 13.
    const Point p = PointAt(small.plies(i).move(), 15);
    small.mutable_plies(i)->set_move(PointIndex(p, 13));
  }
  auto acks = Client()->UploadGames("w1", {freestyle, small});
  ASSERT_TRUE(acks.ok()) << acks.status();
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::REJECTED);
  EXPECT_EQ((*acks)[0].reason(),
            "a freestyle game on 15x15; this run trains renju on 15x15");
  EXPECT_EQ((*acks)[1].outcome(), pb::GameAck::REJECTED);
  EXPECT_EQ((*acks)[1].reason(),
            "a freestyle game on 13x13; this run trains renju on 15x15");
  EXPECT_EQ(store_->NumGames(), 0);
}

TEST_F(TrainerServiceTest, UidsAreUniquePerWorker) {
  Start(WithTokens({{"secret-1", "w1"}, {"secret-2", "w2"}}));
  // w2 uploads a uid first that w1 is about to use: w1's game is still
  // stored, and w2's retry is a duplicate of its own.
  auto w2 = Client("secret-2")->UploadGames("w2", {FiveGame("w1-1")});
  ASSERT_TRUE(w2.ok()) << w2.status();
  EXPECT_EQ((*w2)[0].outcome(), pb::GameAck::STORED);
  auto w1 = Client("secret-1")->UploadGames("w1", {FiveGame("w1-1")});
  ASSERT_TRUE(w1.ok()) << w1.status();
  EXPECT_EQ((*w1)[0].outcome(), pb::GameAck::STORED);
  w2 = Client("secret-2")->UploadGames("w2", {FiveGame("w1-1")});
  ASSERT_TRUE(w2.ok()) << w2.status();
  EXPECT_EQ((*w2)[0].outcome(), pb::GameAck::DUPLICATE);
  EXPECT_EQ(store_->NumGames(), 2);
}

TEST_F(TrainerServiceTest, UnsafeUidsAreNotEchoed) {
  Start({});
  auto acks = Client()->UploadGames("w1", {FiveGame("a\nfake log line")});
  ASSERT_TRUE(acks.ok()) << acks.status();
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::REJECTED);
  EXPECT_EQ((*acks)[0].uid(), "(invalid uid)");
  EXPECT_EQ(store_->NumGames(), 0);
}

TEST_F(TrainerServiceTest, TokensNameTheWorker) {
  Start(WithTokens({{"secret-1", "w1"}}));
  auto anonymous = Client();
  auto result = anonymous->UploadGames("w1", {FiveGame("g")});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnauthenticated);
  auto wrong = Client("nope");
  EXPECT_EQ(wrong->UploadGames("w1", {FiveGame("g")}).status().code(),
            absl::StatusCode::kUnauthenticated);
  auto right = Client("secret-1");
  EXPECT_TRUE(right->UploadGames("w1", {FiveGame("g")}).ok());
  auto impostor = right->UploadGames("w2", {FiveGame("h")});
  EXPECT_EQ(impostor.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(store_->NumGames(), 1);
}

TEST_F(TrainerServiceTest, TlsWhenCertificatesAreConfigured) {
  // A self-signed certificate for this test only, made with openssl(1).
  const fs::path tls =
      fs::temp_directory_path() / ("renju_tls_" + std::to_string(::getpid()));
  fs::create_directories(tls);
  absl::StatusOr<testing::TestCertificate> pem =
      testing::MakeSelfSignedCertificate(tls);
  ASSERT_TRUE(pem.ok()) << pem.status();
  const std::string cert = pem->cert;
  const std::string key = pem->key;
  auto credentials = MakeServerCredentials({cert, key, ""});
  ASSERT_TRUE(credentials.ok()) << credentials.status();
  Start({}, *credentials);

  ChannelOptions channel;
  channel.address = address_;
  channel.tls_root_cert = cert;
  channel.tls_server_name = "localhost";
  auto secure = TrainerClient::Create(channel, 5000);
  ASSERT_TRUE(secure.ok());
  auto acks = (*secure)->UploadGames("w", {FiveGame("over-tls")});
  ASSERT_TRUE(acks.ok()) << acks.status();
  EXPECT_EQ((*acks)[0].outcome(), pb::GameAck::STORED);
  // A plaintext client cannot talk to a TLS server.
  auto plain = Client();
  EXPECT_EQ(plain->UploadGames("w", {FiveGame("plain")}).status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(store_->NumGames(), 1);
  // A missing certificate file is a clear error, not a crash.
  EXPECT_FALSE(
      MakeServerCredentials({(tls / "nope.pem").string(), key, ""}).ok());
  fs::remove_all(tls);
}

TEST_F(TrainerServiceTest, OversizedUploadIsRejected) {
  TrainerServiceOptions two_games;
  two_games.max_games_per_upload = 2;
  Start(two_games);
  auto client = Client();
  auto result =
      client->UploadGames("w", {FiveGame("a"), FiveGame("b"), FiveGame("c")});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("the limit is 2"),
            std::string::npos);
}

TEST_F(TrainerServiceTest, MetricsCountEveryGameByOutcomeAndReason) {
  MetricsRegistry registry;
  TrainerServiceOptions options;
  options.worker_tokens = {{"secret-1", "w1"}};
  options.max_games_per_upload = 3;
  options.metrics = RegisterTrainerServiceMetrics(registry);
  Start(options);
  const TrainerServiceMetrics& m = options.metrics;
  auto w1 = Client("secret-1");
  pb::GameRecord bad = FiveGame("bad");
  bad.mutable_plies(2)->set_move(P("h8"));  // occupied
  pb::GameRecord freestyle = FiveGame("freestyle");
  freestyle.set_variant(pb::FREESTYLE);
  ASSERT_TRUE(w1->UploadGames("w1", {FiveGame("g1"), bad, freestyle}).ok());
  ASSERT_TRUE(w1->UploadGames("w1", {FiveGame("g1")}).ok());  // a retry
  EXPECT_FALSE(Client("nope")->UploadGames("w1", {FiveGame("g2")}).ok());
  EXPECT_FALSE(w1->UploadGames("w1", {FiveGame("a"), FiveGame("b"),
                                      FiveGame("c"), FiveGame("d")})
                   .ok());

  EXPECT_EQ(m.games_received->value(), 3 + 1 + 4);
  EXPECT_EQ(m.games_stored->value(), 1);
  EXPECT_EQ(m.games_duplicate->value(), 1);
  const std::string text = registry.Render();
  for (const char* line :
       {"renju_trainer_games_rejected_total{reason=\"invalid_record\"} 1\n",
        "renju_trainer_games_rejected_total{reason=\"wrong_variant_or_size\"} "
        "1\n",
        "renju_trainer_games_rejected_total{reason=\"unauthenticated\"} 1\n",
        "renju_trainer_games_rejected_total{reason=\"upload_too_large\"} "
        "4\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << " in\n" << text;
  }
  // Only w1 got past the token check.
  EXPECT_EQ(service_->NumConnectedClients(), 1);
}

TEST_F(TrainerServiceTest, ModelDownloadIsVerified) {
  TrainerServiceOptions small_chunks;  // several per file
  small_chunks.fetch_chunk_bytes = 1000;
  Start(small_chunks);
  auto client = Client();
  EXPECT_EQ(client->GetCurrentModel().status().code(),
            absl::StatusCode::kNotFound);
  std::string bytes(4500, 'x');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  const std::string path = (dir_ / "gen1.model").string();
  ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());
  ModelEntry m{1,
               0,
               100,
               10,
               path,
               Sha256Hex(bytes),
               static_cast<int64_t>(bytes.size()),
               "best",
               1,
               0,
               ""};
  ASSERT_TRUE(store_->RegisterModel(m).ok());

  auto info = client->GetCurrentModel();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->generation(), 1);
  const std::string out = (dir_ / "fetched.model").string();
  auto fetched = client->FetchModel(0, out);
  ASSERT_TRUE(fetched.ok()) << fetched.status();
  EXPECT_EQ(*ReadFile(out), bytes);

  // The file on disk changed after registration: the hash check refuses it.
  ASSERT_TRUE(WriteFileAtomically(path, bytes.substr(0, 3000)).ok());
  const std::string out2 = (dir_ / "fetched2.model").string();
  auto truncated = client->FetchModel(1, out2);
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("truncated: got 3000 of 4500"),
            std::string::npos)
      << truncated.status();
  EXPECT_FALSE(fs::exists(out2));
  EXPECT_EQ(client->FetchModel(7, out2).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace renju
