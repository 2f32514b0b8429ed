// USE_C10D_GLOO (set by trainer/CMakeLists.txt for this file) exposes
// ProcessGroupGloo; LibTorch's own build defines it the same way.
#include "trainer/distributed.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdint>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace renju {
namespace {

struct InitMethod {
  bool file = false;
  std::string path;  // file://
  std::string host;  // tcp://
  uint16_t port = 0;
};

absl::StatusOr<InitMethod> ParseInitMethod(const std::string& text) {
  const absl::string_view view(text);
  InitMethod method;
  if (absl::StartsWith(view, "file://")) {
    method.file = true;
    method.path = std::string(view.substr(7));
    if (method.path.empty() || method.path[0] != '/') {
      return absl::InvalidArgumentError(absl::StrCat(
          "init method '", text, "': expected file:///absolute/path"));
    }
    return method;
  }
  if (absl::StartsWith(view, "tcp://")) {
    const absl::string_view rest = view.substr(6);
    const size_t colon = rest.rfind(':');
    uint32_t port = 0;
    if (colon == absl::string_view::npos || colon == 0 ||
        !absl::SimpleAtoi(rest.substr(colon + 1), &port) || port == 0 ||
        port > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("init method '", text, "': expected tcp://host:port"));
    }
    method.host = std::string(rest.substr(0, colon));
    method.port = static_cast<uint16_t>(port);
    return method;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "init method '", text, "': expected file:///path or tcp://host:port"));
}

c10::intrusive_ptr<c10d::Store> MakeStore(const InitMethod& method,
                                          const DistributedOptions& options) {
  if (method.file) {
    return c10::make_intrusive<c10d::FileStore>(method.path,
                                                options.world_size);
  }
  c10d::TCPStoreOptions store_options;
  store_options.port = method.port;
  store_options.isServer = options.rank == 0;
  store_options.numWorkers = options.world_size;
  store_options.timeout = std::chrono::seconds(options.timeout_s);
  return c10::make_intrusive<c10d::TCPStore>(method.host, store_options);
}

}  // namespace

struct DataParallelGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

DataParallelGroup::DataParallelGroup(int rank, int world_size,
                                     std::unique_ptr<Impl> impl)
    : rank_(rank), world_size_(world_size), impl_(std::move(impl)) {}

DataParallelGroup::~DataParallelGroup() = default;

absl::StatusOr<std::unique_ptr<DataParallelGroup>> DataParallelGroup::Connect(
    const DistributedOptions& options) {
  if (options.world_size < 1 || options.rank < 0 ||
      options.rank >= options.world_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank ", options.rank, " of world size ",
                     options.world_size, ": expected 0 <= rank < size"));
  }
  if (options.timeout_s < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "distributed timeout ", options.timeout_s, " s: expected >= 1"));
  }
  absl::StatusOr<InitMethod> method = ParseInitMethod(options.init_method);
  if (!method.ok()) return method.status();
  auto impl = std::make_unique<Impl>();
  try {
    impl->store = MakeStore(*method, options);
    auto gloo_options = c10d::ProcessGroupGloo::Options::create(
        std::chrono::seconds(options.timeout_s));
    if (!options.host.empty()) {
      gloo_options->devices.push_back(
          c10d::ProcessGroupGloo::createDeviceForHostname(options.host));
    } else if (method->file) {
      gloo_options->devices.push_back(
          c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    } else {
      gloo_options->devices.push_back(
          c10d::ProcessGroupGloo::createDefaultDevice());
    }
    impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        impl->store, options.rank, options.world_size, gloo_options);
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat(
        "joining the process group at ", options.init_method, " as rank ",
        options.rank, " of ", options.world_size, ": ", e.what()));
  }
  return std::unique_ptr<DataParallelGroup>(
      new DataParallelGroup(options.rank, options.world_size, std::move(impl)));
}

absl::Status DataParallelGroup::AllReduceSum(at::Tensor& tensor) {
  try {
    std::vector<at::Tensor> tensors = {tensor};
    impl_->group->allreduce(tensors)->wait();
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("all-reduce on rank ", rank_, ": ", e.what()));
  }
  return absl::OkStatus();
}

absl::Status DataParallelGroup::Broadcast(at::Tensor& tensor, int root) {
  try {
    std::vector<at::Tensor> tensors = {tensor};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    impl_->group->broadcast(tensors, options)->wait();
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("broadcast on rank ", rank_, ": ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace renju
