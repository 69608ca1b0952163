// Data parallel building blocks (core/distributed/, core/data/distributed_sampler.*): the sharding
// against torch.utils.data.DistributedSampler's indices pinned by tests/data/
// make_sampler_indices.py, and the c10d Gloo group with two ranks as threads of this process
// (collectives, broadcast, a lost rank named in the error). End-to-end runs of several
// processes are in tests/cli/tst_cli_distributed.cpp.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/distributed_sampler.h"
#include "core/distributed/data_parallel.h"
#include "core/distributed/process_group.h"
#include "core/errors.h"
#include "free_port.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_distributed_suite {

using namespace trainscope;

namespace {

std::vector<int64_t> toVector(const at::Tensor& t) {
  at::Tensor c = t.contiguous().to(at::kLong);
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

at::Tensor fromVector(const std::vector<int64_t>& v) {
  return at::tensor(v, at::TensorOptions().dtype(at::kLong));
}

DistEnv envFor(int rank, int world, int port) {
  DistEnv e;
  e.rank = rank;
  e.world_size = world;
  e.local_rank = rank;
  e.local_world_size = world;
  e.master_addr = "127.0.0.1";
  e.master_port = port;
  return e;
}

/// Runs `fn(rank)` for each of `world` ranks on its own thread; returns each rank's result.
template <class Fn>
auto onRanks(int world, Fn fn) {
  using R = decltype(fn(0));
  std::vector<std::future<R>> futures;
  for (int r = 0; r < world; ++r) futures.push_back(std::async(std::launch::async, fn, r));
  std::vector<R> results;
  for (auto& f : futures) results.push_back(f.get());
  return results;
}

}  // namespace

class TstDistributed : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void configKeysNamedInErrors() {
    using json = nlohmann::json;
    TrainConfig c = configFromJson(json{{"distributed", {{"timeout_seconds", 30}}}});
    QCOMPARE(c.distributed.timeout_seconds, 30.0);
    QCOMPARE(c.distributed.backend, std::string("gloo"));
    QCOMPARE(configToJson(c)["distributed"]["timeout_seconds"], json(30.0));
    for (const auto& [bad, key] :
         {std::pair{json{{"backend", "mpi"}}, "distributed.backend"},
          std::pair{json{{"timeout_seconds", 0}}, "distributed.timeout_seconds"}}) {
      try {
        validate(configFromJson(json{{"distributed", bad}}));
        QFAIL(qPrintable(QString::fromStdString(bad.dump()) + " accepted"));
      } catch (const Error& e) {
        QCOMPARE(QString::fromStdString(e.subject()), QString(key));
      }
    }
  }

  void environmentOfALauncher() {
    qunsetenv("WORLD_SIZE");
    QVERIFY(!distEnvFromEnvironment());
    qputenv("WORLD_SIZE", "1");
    QVERIFY(!distEnvFromEnvironment());  // one rank: a plain run
    qputenv("WORLD_SIZE", "4");
    qputenv("RANK", "3");
    qputenv("LOCAL_RANK", "1");
    qputenv("LOCAL_WORLD_SIZE", "2");
    qputenv("MASTER_ADDR", "10.0.0.1");
    qputenv("MASTER_PORT", "29501");
    const auto e = distEnvFromEnvironment();
    QVERIFY(e);
    QCOMPARE(e->rank, 3);
    QCOMPARE(e->world_size, 4);
    QCOMPARE(e->local_rank, 1);
    QCOMPARE(e->local_world_size, 2);
    QCOMPARE(e->master_addr, std::string("10.0.0.1"));
    QCOMPARE(e->master_port, 29501);
    qputenv("RANK", "4");
    try {
      distEnvFromEnvironment();
      QFAIL("RANK 4 of 4 accepted");
    } catch (const Error& err) {
      QCOMPARE(QString::fromStdString(err.subject()), QString("RANK"));
    }
    qputenv("RANK", "0");
    qunsetenv("MASTER_PORT");
    try {
      distEnvFromEnvironment();
      QFAIL("missing MASTER_PORT accepted");
    } catch (const Error& err) {
      QCOMPARE(QString::fromStdString(err.subject()), QString("MASTER_PORT"));
    }
    for (const char* v : {"WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR"})
      qunsetenv(v);
  }

  void samplerMatchesPython() {
    QFile f(QStringLiteral(TRAINSCOPE_TEST_DATA_DIR "/sampler_indices.json"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    const auto pinned = nlohmann::json::parse(f.readAll().toStdString());
    QVERIFY(pinned["cases"].size() >= 5);
    for (const auto& c : pinned["cases"]) {
      const int64_t n = c["n"], world = c["world_size"], seed = c["seed"], epoch = c["epoch"];
      const std::vector<int64_t> order = c["order"];
      if (c["shuffle"].get<bool>()) {
        // The permutation itself: DistributedSampler's generator is seeded with seed + epoch.
        at::Generator g = at::make_generator<at::CPUGeneratorImpl>(uint64_t(seed + epoch));
        QCOMPARE(toVector(at::randperm(n, g, at::TensorOptions().dtype(at::kLong))), order);
      }
      for (int64_t r = 0; r < world; ++r) {
        const std::vector<int64_t> want = c["ranks"][r];
        QCOMPARE(toVector(distributedSamplerIndices(fromVector(order), r, world)), want);
      }
    }
  }

  void samplerBadRankThrows() {
    QVERIFY_THROWS_EXCEPTION(Error, distributedSamplerIndices(at::arange(4), 2, 2));
  }

  void batchIteratorShardsEachEpochsOrder() {
    // A BatchIterator with a shard yields the rank's DistributedSampler indices of the
    // permutation an unsharded iterator draws from the same generator state.
    TensorPair data{at::arange(10, at::kFloat).unsqueeze(1), at::arange(10, at::kLong)};
    BatchIterator whole(data, 100, true), part(data, 2, true);
    part.setShard(1, 3);
    at::Generator g1 = at::make_generator<at::CPUGeneratorImpl>(uint64_t{5});
    at::Generator g2 = at::make_generator<at::CPUGeneratorImpl>(uint64_t{5});
    whole.startEpoch(g1);
    part.startEpoch(g2);
    const at::Tensor order = whole.batch(0).y;
    const std::vector<int64_t> want = toVector(distributedSamplerIndices(order, 1, 3));
    QCOMPARE(part.batchesPerEpoch(), int64_t{2});  // ceil(ceil(10 / 3) / 2)
    std::vector<int64_t> got = toVector(part.batch(0).y);
    for (int64_t v : toVector(part.batch(1).y)) got.push_back(v);
    QCOMPARE(got, want);
  }

  void evaluationShardsCoverEverySampleOnce() {
    for (int64_t n : {0, 1, 7, 10, 12001})
      for (int64_t w : {1, 2, 3, 8}) {
        int64_t next = 0;
        for (int64_t r = 0; r < w; ++r) {
          const auto [first, count] = evaluationShard(n, r, w);
          QCOMPARE(first, next);
          QVERIFY(count == n / w || count == n / w + 1);
          next = first + count;
        }
        QCOMPARE(next, n);
      }
  }

  void twoRanksAllReduceAndBroadcast() {
    if (!distributedAvailable()) QSKIP("built without gloo");
    const int port = testfiles::freeLoopbackPort();
    QVERIFY(port > 0);
    DistributedConfig cfg;
    cfg.timeout_seconds = 20;
    auto results = onRanks(2, [&](int rank) {
      auto ctx = DistContext::join(envFor(rank, 2, port), cfg);
      at::Tensor g = at::full({5}, float(rank + 1));  // 1 and 2: sum 3
      ctx->allReduceSum(g, "test all-reduce");
      at::Tensor m = at::full({1}, rank * 10, at::TensorOptions().dtype(at::kInt));
      ctx->allReduceMax(m, "test max");
      const int64_t seed = broadcastSeed(*ctx, rank == 0 ? 4242 : 7);
      ModelConfig linear;
      linear.hidden = {};
      ModelPtr model = buildModel(linear, 3, 2);  // Linear(3, 2): each rank's own random init
      broadcastModel(*ctx, *model);
      std::vector<double> out{g[0].item<double>(),
                              g[4].item<double>(),
                              double(m.item<int>()),
                              double(seed),
                              model->parameters()[0].sum().item<double>(),
                              double(ctx->hosts().size())};
      return out;
    });
    QCOMPARE(results[0][0], 3.0);
    QCOMPARE(results[1][1], 3.0);
    QCOMPARE(results[1][2], 10.0);
    QCOMPARE(results[0][3], 4242.0);
    QCOMPARE(results[1][3], 4242.0);
    QCOMPARE(results[1][4], results[0][4]);  // rank 0's weights everywhere
    QCOMPARE(results[0][5], 2.0);
  }

  void agreedStopTakesTheStrongestReason() {
    if (!distributedAvailable()) QSKIP("built without gloo");
    const int port = testfiles::freeLoopbackPort();
    DistributedConfig cfg;
    cfg.timeout_seconds = 20;
    auto results = onRanks(2, [&](int rank) {
      auto ctx = DistContext::join(envFor(rank, 2, port), cfg);
      std::vector<int> out;
      auto none = agreeOnStop(*ctx, std::nullopt);
      out.push_back(none ? 1 : 0);
      auto one = agreeOnStop(*ctx, rank == 1 ? std::optional(StopReason::Stopped) : std::nullopt);
      out.push_back(one && *one == StopReason::Stopped);
      auto both = agreeOnStop(*ctx, rank == 0 ? StopReason::Interrupted : StopReason::Stopped);
      out.push_back(both && *both == StopReason::Interrupted);
      return out;
    });
    for (const auto& r : results) QCOMPARE(r, (std::vector<int>{0, 1, 1}));
  }

  void lostRankIsNamed() {
    if (!distributedAvailable()) QSKIP("built without gloo");
    const int port = testfiles::freeLoopbackPort();
    DistributedConfig cfg;
    cfg.timeout_seconds = 8;
    auto results = onRanks(2, [&](int rank) -> std::string {
      auto ctx = DistContext::join(envFor(rank, 2, port), cfg);
      if (rank == 1) {
        ctx.reset();  // rank 1 leaves: its sockets close, as when its process dies
        return "left";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      at::Tensor g = at::ones({1000});
      try {
        ctx->allReduceSum(g, "gradient all-reduce");
      } catch (const Error& e) {
        return e.what();
      }
      return "no error";
    });
    const QString msg = QString::fromStdString(results[0]);
    QVERIFY2(msg.contains(QStringLiteral("lost rank 1 of 2")), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("gradient all-reduce")), qPrintable(msg));
  }

  void joinTimesOutNamingTheStore() {
    if (!distributedAvailable()) QSKIP("built without gloo");
    const int port = testfiles::freeLoopbackPort();
    DistributedConfig cfg;
    cfg.timeout_seconds = 1;  // rank 1 never comes
    try {
      DistContext::join(envFor(0, 2, port), cfg);
      QFAIL("joined a group of 2 alone");
    } catch (const Error& e) {
      const QString msg = QString::fromUtf8(e.what());
      QVERIFY2(msg.contains(QStringLiteral("rank 0 of 2 could not form the process group")),
               qPrintable(msg));
      QVERIFY2(msg.contains(QString::number(port)), qPrintable(msg));
    }
  }
};

TRAINSCOPE_TEST_MAIN(TstDistributed)
}  // namespace tst_distributed_suite
#include "tst_distributed.moc"
