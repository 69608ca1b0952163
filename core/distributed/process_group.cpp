// c10d's TCPStore + ProcessGroupGloo for one rank (core/distributed/process_group.h). Without the gloo
// headers (TRAINSCOPE_HAVE_GLOO undefined) join() explains why distributed is unavailable.
#include "core/distributed/process_group.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

#include "core/config/train_config.h"
#include "core/errors.h"

#ifdef TRAINSCOPE_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif

namespace trainscope {
namespace {

using Clock = std::chrono::steady_clock;

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

/// The exception's text without libtorch's C++ backtrace.
std::string describeError(const std::exception& e) {
  if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
  return e.what();
}

std::string rankList(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

}  // namespace

struct DistContext::Impl {
#ifdef TRAINSCOPE_HAVE_GLOO
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
#endif
};

DistContext::DistContext(DistEnv env, std::string backend, double timeout_seconds)
    : env_(std::move(env)),
      backend_(std::move(backend)),
      timeout_seconds_(timeout_seconds),
      impl_(std::make_unique<Impl>()) {}

DistContext::~DistContext() = default;

std::unique_ptr<DistContext> DistContext::join(const DistEnv& env,
                                               const DistributedConfig& config) {
  if (config.backend != "gloo")
    throw Error(ErrorCode::Config, "distributed.backend",
                "distributed.backend \"" + config.backend +
                    "\" needs a CUDA build of libtorch with NCCL; this build has the CPU "
                    "backend \"gloo\" only");
#ifndef TRAINSCOPE_HAVE_GLOO
  (void)env;
  throw Error(ErrorCode::Config, "distributed", distributedUnavailableReason());
#else
  // A peer that died leaves sockets whose writes raise SIGPIPE, which would kill this rank
  // before it could name the lost one; Python ignores SIGPIPE at start-up, so do we.
  std::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<DistContext> ctx(new DistContext(env, config.backend, config.timeout_seconds));
  const auto start = Clock::now();
  const auto timeout =
      std::chrono::milliseconds(static_cast<int64_t>(config.timeout_seconds * 1e3));
  const std::string where = env.master_addr + ":" + std::to_string(env.master_port);
  const std::string me =
      "rank " + std::to_string(env.rank) + " of " + std::to_string(env.world_size);
  Impl& m = *ctx->impl_;
  try {
    c10d::TCPStoreOptions o;
    o.port = static_cast<std::uint16_t>(env.master_port);
    o.isServer = env.rank == 0;
    o.numWorkers = static_cast<std::size_t>(env.world_size);
    o.waitWorkers = true;
    o.timeout = timeout;
    m.store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
    // One deadline for the whole join: waiting for the peers' host names gets what is left
    // of the timeout, not a timeout of its own (a peer that never came took twice the time).
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        timeout - (Clock::now() - start));
    m.store->setTimeout(std::max(left, std::chrono::milliseconds(1000)));
    const std::string host = hostName();
    m.store->set("trainscope/host/" + std::to_string(env.rank),
                 std::vector<uint8_t>(host.begin(), host.end()));
    for (int r = 0; r < env.world_size; ++r) {
      const std::vector<uint8_t> h = m.store->get("trainscope/host/" + std::to_string(r));
      ctx->hosts_.emplace_back(h.begin(), h.end());
    }
    m.store->setTimeout(timeout);
    // A collective gives up `grace` before the timeout, so that naming the lost rank (which
    // waits up to `grace` for the survivors to check in) still ends within the timeout.
    const auto collective_timeout = std::chrono::milliseconds(
        static_cast<int64_t>((config.timeout_seconds - ctx->graceSeconds()) * 1e3));
    auto opts = c10d::ProcessGroupGloo::Options::create(collective_timeout);
    const bool loopback = env.master_addr == "127.0.0.1" || env.master_addr == "localhost" ||
                          env.master_addr == "::1";
    const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
    if (loopback) {
      opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    } else if (ifname != nullptr && *ifname != '\0') {
      opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
    } else {
      opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    }
    opts->threads = 1;  // one collective at a time: the step waits for it
    m.pg = c10::make_intrusive<c10d::ProcessGroupGloo>(m.store, env.rank, env.world_size, opts);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    const std::string detail = describeError(e);
    if (detail.find("Address already in use") != std::string::npos) {
      // Rank 0 could not host the store: another program (or an earlier run) holds the port.
      throw Error(ErrorCode::Internal, "distributed",
                  me + " could not open the store at " + where +
                      ": the port is already in use by another program; choose a free one "
                      "(trainscope-cli launch --master-port P, or MASTER_PORT): " +
                      detail);
    }
    std::ostringstream timeout;
    timeout << config.timeout_seconds;  // 120, not 120.000000
    throw Error(ErrorCode::Internal, "distributed",
                me + " could not form the process group through the store at " + where +
                    " within distributed.timeout_seconds=" + timeout.str() +
                    " s (do all ranks run, with the same WORLD_SIZE, MASTER_ADDR and "
                    "MASTER_PORT?): " +
                    detail);
  }
  ctx->join_seconds_ = std::chrono::duration<double>(Clock::now() - start).count();
  return ctx;
#endif
}

void DistContext::fail(const char* what, const std::string& detail) {
  // Who is gone? Every survivor checks in at the store; the ranks that do not within a grace
  // period are named. Rank 0 hosts the store: when it does not answer, rank 0 is the one lost.
  std::vector<int> lost;
  bool store_ok = true;
#ifdef TRAINSCOPE_HAVE_GLOO
  try {
    Impl& m = *impl_;
    m.store->set("trainscope/alive/" + std::to_string(env_.rank), std::vector<uint8_t>{1});
    const auto grace = std::chrono::duration<double>(graceSeconds());
    const auto deadline = Clock::now() + grace;
    for (;;) {
      lost.clear();
      for (int r = 0; r < env_.world_size; ++r)
        if (!m.store->check({"trainscope/alive/" + std::to_string(r)})) lost.push_back(r);
      if (lost.empty() || Clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  } catch (const std::exception&) {
    store_ok = false;
  }
#endif
  const std::string of = " of " + std::to_string(env_.world_size);
  std::string who;
  if (!store_ok) {
    who = "lost rank 0" + of + " (it hosts the store at " + env_.master_addr + ":" +
          std::to_string(env_.master_port) +
          ", which no longer answers): it died, was killed or "
          "hangs";
  } else if (!lost.empty()) {
    who = "lost " + rankList(lost) + of + ": it died, was killed or hangs";
  } else {
    who = "a collective failed although every rank is alive";
  }
  throw Error(ErrorCode::Internal, "distributed",
              who + " (rank " + std::to_string(env_.rank) + " noticed during the " + what +
                  "; distributed.timeout_seconds=" + std::to_string(int(timeout_seconds_)) +
                  "): " + detail);
}

void DistContext::reduce(at::Tensor& t, bool max, const char* what) {
#ifdef TRAINSCOPE_HAVE_GLOO
  std::vector<at::Tensor> v{t};
  c10d::AllreduceOptions o;
  o.reduceOp = max ? c10d::ReduceOp::MAX : c10d::ReduceOp::SUM;
  try {
    impl_->pg->allreduce(v, o)->wait();
  } catch (const std::exception& e) {
    fail(what, describeError(e));
  }
#else
  (void)t, (void)max;
  fail(what, distributedUnavailableReason());
#endif
}

void DistContext::allReduceSum(at::Tensor& t, const char* what) { reduce(t, false, what); }
void DistContext::allReduceMax(at::Tensor& t, const char* what) { reduce(t, true, what); }

void DistContext::broadcast(at::Tensor& t, int root, const char* what) {
#ifdef TRAINSCOPE_HAVE_GLOO
  std::vector<at::Tensor> v{t};
  c10d::BroadcastOptions o;
  o.rootRank = root;
  try {
    impl_->pg->broadcast(v, o)->wait();
  } catch (const std::exception& e) {
    fail(what, describeError(e));
  }
#else
  (void)t, (void)root;
  fail(what, distributedUnavailableReason());
#endif
}

}  // namespace trainscope
