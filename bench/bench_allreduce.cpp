// bench_allreduce: time of one all-reduce of the flat gradient buffer over c10d Gloo, the
// collective each data-parallel step adds (core/distributed/process_group.h). The ranks are threads of
// this process, connected over TCP on 127.0.0.1 like separate processes on one machine.
//
//   bench_allreduce [--world N] [--floats P] [--calls K] [--port PORT]
//
// Prints per call: median milliseconds, and the bus bandwidth of a ring all-reduce
// (2 (N-1)/N x 4P bytes / time), the figure bench/README.md extrapolates with.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <vector>

#include "core/config/train_config.h"
#include "core/distributed/process_group.h"

using namespace trainscope;

int main(int argc, char** argv) {
  CLI::App app{"Time of an all-reduce of P floats over c10d Gloo between N local ranks"};
  int world = 2, calls = 200, port = 29611;
  int64_t floats = 235146;  // fashion-mnist-mlp's parameter count
  app.add_option("--world", world, "ranks (threads of this process)")->check(CLI::Range(2, 64));
  app.add_option("--floats", floats, "float32 elements per all-reduce (default 235146)");
  app.add_option("--calls", calls, "timed calls (after 20 untimed)");
  app.add_option("--port", port, "TCP port of the store on 127.0.0.1");
  CLI11_PARSE(app, argc, argv);
  if (!distributedAvailable()) {
    std::fprintf(stderr, "bench_allreduce: %s\n", distributedUnavailableReason().c_str());
    return 2;
  }
  at::set_num_threads(1);
  DistributedConfig cfg;
  cfg.timeout_seconds = 60;
  std::vector<std::future<std::vector<double>>> ranks;
  for (int r = 0; r < world; ++r)
    ranks.push_back(std::async(std::launch::async, [&, r] {
      DistEnv env;
      env.rank = r;
      env.world_size = world;
      env.master_port = port;
      auto ctx = DistContext::join(env, cfg);
      at::Tensor g = at::randn({floats});
      std::vector<double> ms;
      for (int i = 0; i < calls + 20; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        ctx->allReduceSum(g, "bench all-reduce");
        g.div_(world);
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 20) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      return ms;
    }));
  std::vector<double> ms = ranks[0].get();
  for (size_t r = 1; r < ranks.size(); ++r) ranks[r].get();
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  const double bytes = 2.0 * (world - 1) / world * 4.0 * double(floats);
  std::printf(
      "world %d, %lld floats: all-reduce median %.3f ms (p10 %.3f, p90 %.3f), bus bandwidth %.2f "
      "GB/s\n",
      world, static_cast<long long>(floats), median, ms[ms.size() / 10], ms[ms.size() * 9 / 10],
      bytes / (median * 1e-3) / 1e9);
  return 0;
}
