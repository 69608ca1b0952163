// Hostile checkpoint files against every core reader of checkpoints: each file of
// tests/data/make_hostile_checkpoints.py is read as inspect does (inspectCheckpoint, else
// inspectWeightsFile), resumed and imported as the trainer does (Trainer::check: data, model,
// optimizer, restore; the dashboard's Load... runs the same check), and by verifyRepro. Every
// file is read or refused as its manifest says, refusals are trainscope::Error naming the file,
// nothing crashes, no file changes, and a refused load leaves a model's weights as they were.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>

#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/io/python_weights.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/probes/repro.h"
#include "core/train/state/train_state_io.h"
#include "core/train/trainer.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_hostile_checkpoints_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

struct Hostile {
  std::string name, expect, what;
};

std::string bytesOf(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// "" when `read` did what `expect` ('o' read, 'r' refused with the file named), else why not.
template <typename F>
std::string outcome(char expect, const fs::path& file, F&& read) {
  try {
    read();
    return expect == 'o' ? "" : "read, expected a refusal";
  } catch (const Error& e) {
    if (expect == 'o') return std::string("refused: ") + e.what();
    if (std::string(e.what()).find(file.string()) == std::string::npos)
      return std::string("the refusal does not name the file: ") + e.what();
    return "";
  } catch (const std::exception& e) {
    return std::string("threw something other than trainscope::Error: ") + e.what();
  }
}

}  // namespace

class TstHostileCheckpoints : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void everyReaderReadsOrRefuses();
  void refusedLoadLeavesTheModel();

 private:
  QTemporaryDir tmp_;
  fs::path dir_;
  TrainConfig config_;
  std::vector<Hostile> files_;
};

void TstHostileCheckpoints::initTestCase() {
  QVERIFY(tmp_.isValid());
  const fs::path root = tmp_.path().toStdString();
  config_ = resolveConfig("moons", {}, {});
  config_.model.hidden = {32, 32};  // the generator's [32, 2] first weight
  config_.training.epochs = 2;
  TrainerOptions o;
  o.run_dir = root / "run";
  Trainer trainer(config_, o);
  COMPARE_REASON(trainer.run().stop_reason, StopReason::Completed);
  config_.training.epochs = 4;  // room to resume

  dir_ = root / "hostile";
  const testpython::Result py = testpython::run(
      {QStringLiteral(TRAINSCOPE_SOURCE_DIR "/tests/data/make_hostile_checkpoints.py"),
       QString::fromStdString((o.run_dir / "checkpoints" / "last.pt").string()),
       QString::fromStdString(dir_.string())},
      180000);
  QVERIFY2(py.ok, qPrintable(py.why));
  std::ifstream manifest(dir_ / "manifest.tsv");
  std::string line;
  while (std::getline(manifest, line)) {
    const size_t a = line.find('\t'), b = line.find('\t', a + 1);
    files_.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  QVERIFY2(files_.size() >= 40, "the generator wrote fewer kinds than expected");
}

void TstHostileCheckpoints::everyReaderReadsOrRefuses() {
  QStringList failures;
  int read = 0, refused = 0;
  for (const Hostile& h : files_) {
    QCOMPARE(h.expect.size(), size_t{4});
    const fs::path file = dir_ / h.name;
    const std::string before = bytesOf(file);
    const std::string results[4] = {
        outcome(h.expect[0], file,
                [&] {
                  try {
                    inspectCheckpoint(file);
                  } catch (const Error&) {
                    if (inspectWeightsFile(file).form == WeightsForm::TrainScopeCheckpoint) throw;
                  }
                }),
        outcome(h.expect[1], file,
                [&] {
                  TrainerOptions o;
                  o.resume_from = file;
                  TrainConfig c = checkpointConfig(inspectCheckpoint(file));
                  c.training.epochs += 2;  // room to train on
                  Trainer::check(c, o);
                }),
        outcome(h.expect[2], file,
                [&] {
                  TrainerOptions o;
                  o.init_weights = file;
                  Trainer::check(config_, o);
                }),
        outcome(h.expect[3], file, [&] {
          CompareRequest r;
          r.checkpoint = file;
          r.steps = 2;
          if (!verifyRepro(r).identical) throw std::runtime_error("not reproducible");
        })};
    static const char* kFront[4] = {"inspect", "resume", "init-weights", "verify-repro"};
    for (int i = 0; i < 4; ++i) {
      if (!results[i].empty())
        failures << QStringLiteral("%1 (%2) %3: %4")
                        .arg(QString::fromStdString(h.name), QString::fromStdString(h.what),
                             QLatin1String(kFront[i]), QString::fromStdString(results[i]));
      (h.expect[i] == 'o' ? read : refused) += 1;
    }
    if (bytesOf(file) != before) failures << QString::fromStdString(h.name + ": file changed");
  }
  qInfo("%d files x 4 readers: %d reads, %d refusals as expected (%lld failures)",
        static_cast<int>(files_.size()), read, refused, static_cast<long long>(failures.size()));
  QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
}

void TstHostileCheckpoints::refusedLoadLeavesTheModel() {
  TrainState s;
  s.model = buildModel(config_.model, 2, 2);
  s.params = s.model->parameters();
  s.optimizer = makeOptimizer(config_.optimizer, s.params);
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  loadCheckpoint(s, config_.optimizer.name, dir_ / "good.pt");
  std::vector<at::Tensor> before;
  for (const auto& p : s.params) before.push_back(p.detach().clone());
  const int64_t step = s.global_step;
  int refused = 0;
  for (const Hostile& h : files_) {
    if (h.expect[1] != 'r') continue;
    try {
      loadCheckpoint(s, config_.optimizer.name, dir_ / h.name);
      QFAIL(qPrintable(QString::fromStdString(h.name + " loaded")));
    } catch (const Error&) {
      ++refused;
    }
    for (size_t i = 0; i < before.size(); ++i)
      QVERIFY2(torch::equal(before[i], s.params[i]), h.name.c_str());
    QCOMPARE(s.global_step, step);
  }
  QVERIFY(refused > 30);
}

TRAINSCOPE_TEST_MAIN(TstHostileCheckpoints)
}  // namespace tst_hostile_checkpoints_suite
#include "tst_hostile_checkpoints.moc"
