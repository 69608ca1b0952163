#pragma once
/// One rank's membership of a data-parallel group: c10d's TCPStore (rendezvous, hosted by rank
/// 0) and ProcessGroupGloo (the collectives), what torch.distributed.init_process_group("gloo",
/// init_method="env://", timeout=...) sets up in Python. Internal to core (torch types); the
/// gloo headers stay inside process_group.cpp.
#include <ATen/core/Tensor.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/distributed/dist_env.h"

namespace trainscope {

/// A formed process group. Every collective blocks until all ranks called it, for at most
/// distributed.timeout_seconds; a rank that died or hangs makes it throw
/// Error(Internal, "distributed") whose message names the lost rank(s) ("lost rank 1 of 2
/// ..."), found by asking the survivors to check in at the store (rank 0 is named when the
/// store, which it hosts, cannot be reached).
class DistContext {
 public:
  /// Joins the group: rank 0 starts the TCPStore on env.master_port and waits for the others;
  /// every rank then connects its Gloo device (on MASTER_ADDR's loopback when that is a
  /// loopback address, else GLOO_SOCKET_IFNAME's interface when set, else the host name).
  /// Throws Error(Config, "distributed.backend") when the backend is not available in this
  /// build (naming why), Error(Internal, "distributed") when the group does not form within
  /// the timeout.
  static std::unique_ptr<DistContext> join(const DistEnv& env, const DistributedConfig& config);
  ~DistContext();

  int rank() const { return env_.rank; }
  int worldSize() const { return env_.world_size; }
  const DistEnv& env() const { return env_; }
  const std::string& backend() const { return backend_; }
  /// Host name of every rank, in rank order (exchanged through the store when joining).
  const std::vector<std::string>& hosts() const { return hosts_; }
  /// Seconds from the start of join() until every rank was connected.
  double joinSeconds() const { return join_seconds_; }

  /// dist.all_reduce(t, op=SUM) in place. `what` names the collective in errors.
  void allReduceSum(at::Tensor& t, const char* what);
  /// dist.all_reduce(t, op=MAX) in place.
  void allReduceMax(at::Tensor& t, const char* what);
  /// dist.broadcast(t, src=root) in place.
  void broadcast(at::Tensor& t, int root, const char* what);

 private:
  struct Impl;
  DistContext(DistEnv env, std::string backend, double timeout_seconds);
  [[noreturn]] void fail(const char* what, const std::string& detail);
  /// How long a survivor waits for the others to check in after a failed collective: a fifth
  /// of the timeout, at most 5 s (collectives time out that much earlier).
  double graceSeconds() const { return std::min(5.0, timeout_seconds_ / 5); }
  void reduce(at::Tensor& t, bool max, const char* what);

  DistEnv env_;
  std::string backend_;
  double timeout_seconds_ = 120;
  std::vector<std::string> hosts_;
  double join_seconds_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope
