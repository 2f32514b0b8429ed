// Data-parallel training across processes with LibTorch's own collective
// communication (c10d): a process group over Gloo, which all-reduces CPU
// tensors (and CUDA tensors in a CUDA build of LibTorch). Nothing here is a
// home-made exchange: ranks meet through a c10d store and c10d moves the
// bytes.
//
// Each rank runs the same training loop on its own part of every batch;
// NetworkTrainer all-reduces the gradients after backward, so all ranks
// take the same optimizer step (as PyTorch's DistributedDataParallel does).
//
// Rendezvous, as PyTorch's init_method:
//   file:///path/to/file  ranks on one machine or a shared file system; the
//                         file must not be left over from an earlier run
//   tcp://host:port       rank 0 listens on host:port, the others connect
// Thread-safety: one caller at a time, and every rank must issue the same
// collectives in the same order (c10d's rule).
#ifndef RENJU_TRAINER_DISTRIBUTED_H_
#define RENJU_TRAINER_DISTRIBUTED_H_

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace renju {

struct DistributedOptions {
  int rank = 0;        // 0 .. world_size - 1
  int world_size = 1;  // >= 1
  std::string init_method;
  // The address this rank's Gloo transport listens on for its peers. Empty:
  // 127.0.0.1 with file:// (one machine), this host's name with tcp://.
  std::string host;
  // How long rendezvous and each collective may wait for the other ranks.
  int timeout_s = 1800;
};

class DataParallelGroup {
 public:
  // Joins the group; blocks until all world_size ranks have joined or the
  // timeout passes. Errors name the init method and what failed.
  static absl::StatusOr<std::unique_ptr<DataParallelGroup>> Connect(
      const DistributedOptions& options);
  ~DataParallelGroup();
  DataParallelGroup(const DataParallelGroup&) = delete;
  DataParallelGroup& operator=(const DataParallelGroup&) = delete;

  int rank() const { return rank_; }
  int world_size() const { return world_size_; }

  // Replaces `tensor` (dense, contiguous) by its sum over all ranks.
  absl::Status AllReduceSum(at::Tensor& tensor);
  // Replaces `tensor` on every rank by rank `root`'s.
  absl::Status Broadcast(at::Tensor& tensor, int root = 0);

 private:
  struct Impl;
  DataParallelGroup(int rank, int world_size, std::unique_ptr<Impl> impl);

  int rank_;
  int world_size_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace renju

#endif  // RENJU_TRAINER_DISTRIBUTED_H_
