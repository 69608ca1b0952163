// Own data, second part: the idx source over IDX files numpy wrote (every element
// type, big-endian, .gz or plain, any class count); the stratified split against the formula;
// the evaluation view's ValidationDetail against an independent computation.
#include <ATen/ATen.h>
#include <QtCore/QDir>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "core/config/train_config.h"
#include "core/data/data_report.h"
#include "core/data/dataset.h"
#include "core/data/idx_reader.h"
#include "core/config/kinds.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "python_runner.h"
#include "test_util.h"
#include "core/train/trainer.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_data_views_suite {

using namespace trainscope;

namespace {

/// Keeps every ValidationDetail and epoch a run reports.
struct DetailRecorder : TrainerObserver {
  std::vector<ValidationDetail> details;
  std::vector<EpochRecord> epochs;
  void onValidationDetail(const ValidationDetail& d) override { details.push_back(d); }
  void onEpoch(const EpochRecord& e) override { epochs.push_back(e); }
};

/// Trains `config` (one thread, no checkpoints) with validation details on; what it reported.
DetailRecorder runWithDetail(TrainConfig config) {
  QTemporaryDir runs;
  config.training.num_threads = 1;
  config.checkpoint.save_last = false;
  config.checkpoint.save_best = false;
  TrainerOptions options;
  options.run_dir = runs.filePath("run").toStdString();
  options.front_end = "test";
  options.validation_detail = true;
  Trainer trainer(config, options);
  DetailRecorder rec;
  trainer.addObserver(&rec);
  trainer.run();
  return rec;
}

}  // namespace

class TstDataViews : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase();
  void idxReadsEveryTypeNumpyWrote();
  void idxSourceAnyClassesAndTest();
  void idxSourceErrorsNameTheFile();
  void stratifiedSplitKeepsEachClassFraction();
  void validationDetailMatchesAnIndependentCount();
  void regressionDetailIsInTargetUnits();
  void imageFolderCacheIsReadAndInvalidated();
  void splitInPlaceEqualsIndexSelect();

 private:
  QTemporaryDir dir_;
};

void TstDataViews::initTestCase() {
  QVERIFY(dir_.isValid());
  // IDX files as the format defines them, written by numpy (independent of TrainScope):
  // magic 0 0 type ndim, big-endian int32 dims, big-endian elements; and the same values as
  // float64 little-endian beside each.
  const char* script = R"PY(
import gzip, numpy as np, os, sys
d = sys.argv[1]
types = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
def write(name, a, code, gz=False):
    head = bytes([0, 0, code, a.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in a.shape)
    data = head + np.ascontiguousarray(a.astype(types[code])).tobytes()
    (gzip.open if gz else open)(os.path.join(d, name), "wb").write(data)
    np.ascontiguousarray(a.astype("<f8")).tofile(os.path.join(d, name + ".f64"))
rng = np.random.default_rng(1)
write("u1", rng.integers(0, 256, (3, 4, 5)), 0x08, gz=True)
write("i1", rng.integers(-128, 128, (7,)), 0x09)
write("i2", rng.integers(-30000, 30000, (2, 3)), 0x0B, gz=True)
write("i4", rng.integers(-2**31, 2**31 - 1, (4,)), 0x0C)
write("f4", rng.normal(size=(3, 2)).astype(np.float32), 0x0D)
write("f8", rng.normal(size=(2, 2, 2)), 0x0E, gz=True)
# An EMNIST-like pair: 60 images of 6x5, labels 1, 2 and 26 (int16: not 0-based, gaps).
x = rng.integers(0, 256, (60, 6, 5))
y = np.array([1, 2, 26] * 20)
write("train-images", x, 0x08, gz=True)
write("train-labels", y, 0x0B, gz=True)
write("test-images", x[:9], 0x08)
write("test-labels", y[:9], 0x0B)
write("test-labels-bad", np.array([1, 2, 3] * 3), 0x0B)
write("features", rng.normal(size=(60, 3)).astype(np.float32), 0x0D)
write("targets", rng.normal(size=(60,)), 0x0E)
)PY";
  const testpython::Result py = testpython::script(script, {dir_.path()}, 60000);
  QVERIFY2(py.ok, qPrintable(py.why));
}

void TstDataViews::idxReadsEveryTypeNumpyWrote() {
  const std::pair<const char*, at::ScalarType> cases[] = {
      {"u1", at::kByte}, {"i1", at::kChar},  {"i2", at::kShort},
      {"i4", at::kInt},  {"f4", at::kFloat}, {"f8", at::kDouble}};
  for (const auto& [name, type] : cases) {
    const at::Tensor t = readIdxArray(dir_.filePath(name).toStdString());
    QCOMPARE(t.scalar_type(), type);
    QFile f(dir_.filePath(QString(name) + ".f64"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray raw = f.readAll();
    const at::Tensor ref =
        at::from_blob(const_cast<char*>(raw.constData()), {raw.size() / 8}, at::kDouble).clone();
    QVERIFY2(at::equal(t.to(at::kDouble).reshape({-1}), ref), name);
  }
  QCOMPARE(readIdxArray(dir_.filePath("f8").toStdString()).sizes(), (at::IntArrayRef{2, 2, 2}));
  // readIdxFile (Fashion-MNIST) still takes unsigned bytes only.
  QVERIFY(errorOf([&] { readIdxFile(dir_.filePath("f4").toStdString()); })
              .find("only unsigned bytes") != std::string::npos);
}

void TstDataViews::idxSourceAnyClassesAndTest() {
  DataConfig c;
  c.source = "idx";
  c.idx.path = dir_.filePath("train-images").toStdString();
  c.idx.y_path = dir_.filePath("train-labels").toStdString();
  c.idx.test_path = dir_.filePath("test-images").toStdString();
  c.idx.test_y_path = dir_.filePath("test-labels").toStdString();
  c.val_fraction = 0.25;
  const PreparedData d = loadData(c);
  QVERIFY(d.classification);
  QCOMPARE(d.summary.class_names, (std::vector<std::string>{"1", "2", "26"}));
  QCOMPARE(d.summary.outputs, 3);
  QCOMPARE(d.summary.image_shape, (std::vector<int64_t>{1, 6, 5}));
  QCOMPARE(d.train.size() + d.val.size(), 60);
  QCOMPARE(d.test.size(), 9);
  QCOMPARE(d.train.x.scalar_type(), at::kByte);
  // Labels 1, 2, 26 repeat: sample i has class i % 3; the test split keeps the file's order.
  for (int64_t i = 0; i < 9; ++i) QCOMPARE(d.test.y[i].item<int64_t>(), i % 3);
  // Float features and float targets: regression.
  DataConfig r;
  r.source = "idx";
  r.idx.path = dir_.filePath("features").toStdString();
  r.idx.y_path = dir_.filePath("targets").toStdString();
  const PreparedData dr = loadData(r);
  QVERIFY(!dr.classification);
  QCOMPARE(dr.summary.input_shape, (std::vector<int64_t>{3}));
  QCOMPARE(dr.summary.outputs, 1);
}

void TstDataViews::idxSourceErrorsNameTheFile() {
  DataConfig c;
  c.source = "idx";
  c.idx.path = dir_.filePath("train-images").toStdString();
  c.idx.y_path = dir_.filePath("train-labels").toStdString();
  c.idx.test_path = dir_.filePath("test-images").toStdString();
  c.idx.test_y_path = dir_.filePath("test-labels-bad").toStdString();
  std::string e = errorOf([&] { loadData(c); });
  QVERIFY2(e.find("test-labels-bad") != std::string::npos && e.find("3") != std::string::npos,
           e.c_str());
  c.idx.test_path.reset();
  c.idx.test_y_path.reset();
  c.idx.y_path = dir_.filePath("test-labels").toStdString();  // 9 labels for 60 images
  e = errorOf([&] { loadData(c); });
  QVERIFY2(e.find("test-labels") != std::string::npos && e.find("60") != std::string::npos,
           e.c_str());
  c.idx.path = dir_.path().toStdString();  // a folder: the key, the file and its kind named
  e = errorOf([&] { loadData(c); });
  QVERIFY2(e.rfind("data.idx.path: IDX file " + *c.idx.path + ": it is a directory", 0) == 0,
           e.c_str());
  TrainConfig t;
  t.data.source = "idx";
  t.data.idx.path = "x";
  e = errorOf([&] { validate(t); });
  QVERIFY2(e.find("data.idx.y_path") != std::string::npos, e.c_str());
}

void TstDataViews::stratifiedSplitKeepsEachClassFraction() {
  // 3 classes of 50, 30 and 7 samples: each gives round(n_c * 0.2) to validation.
  const int64_t counts[] = {50, 30, 7};
  std::vector<int64_t> labels;
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t i = 0; i < counts[c]; ++i) labels.push_back(c);
  const at::Tensor y = at::tensor(labels, at::kLong).index_select(
      0, at::randperm(static_cast<int64_t>(labels.size()), at::kLong));
  const auto [train, val] = stratifiedSplitIndices(y, 0.2, 3);
  QCOMPARE(train.numel() + val.numel(), 87);
  QCOMPARE(std::get<0>(at::_unique(at::cat({train, val}))).numel(), 87);  // disjoint, all
  const at::Tensor yv = y.index_select(0, val);
  const int64_t expected[] = {10, 6, 1};  // round(50*.2), round(30*.2), round(7*.2)=1
  for (int64_t c = 0; c < 3; ++c) QCOMPARE(yv.eq(c).sum().item<int64_t>(), expected[c]);
  // Seeded: the same seed the same split, another seed another.
  QVERIFY(at::equal(stratifiedSplitIndices(y, 0.2, 3).second, val));
  QVERIFY(!at::equal(stratifiedSplitIndices(y, 0.2, 4).second, val));
  // Through the config, and refused for regression.
  DataConfig c;
  c.source = "moons";
  c.n_samples = 101;
  c.stratify = true;
  const PreparedData d = loadData(c);
  const int64_t v0 = d.val.y.eq(0).sum().item<int64_t>(), v1 = d.val.y.eq(1).sum().item<int64_t>();
  const int64_t n0 = v0 + d.train.y.eq(0).sum().item<int64_t>();
  const int64_t n1 = v1 + d.train.y.eq(1).sum().item<int64_t>();
  QCOMPARE(v0, static_cast<int64_t>(std::llround(n0 * 0.2)));
  QCOMPARE(v1, static_cast<int64_t>(std::llround(n1 * 0.2)));
  c.source = "sine";
  QVERIFY(errorOf([&] { loadData(c); }).find("data.stratify") != std::string::npos);
}

void TstDataViews::validationDetailMatchesAnIndependentCount() {
  TrainConfig config;
  config.data.source = "moons";
  config.training.epochs = 2;
  config.training.seed = 7;
  config.data.n_samples = 300;
  config.optimizer.lr = 0.05;
  const DetailRecorder rec = runWithDetail(config);
  QCOMPARE(rec.details.size(), std::size_t{2});
  const ValidationDetail& d = rec.details.back();
  QCOMPARE(d.epoch, 2);
  QCOMPARE(d.n_classes, 2);
  int64_t total = 0, right = 0;
  for (int64_t t = 0; t < 2; ++t)
    for (int64_t p = 0; p < 2; ++p) {
      total += d.confusion[static_cast<std::size_t>(t * 2 + p)];
      if (t == p) right += d.confusion[static_cast<std::size_t>(t * 2 + p)];
    }
  QCOMPARE(total, 60);  // round(300 * 0.2)
  // The diagonal over the total is the epoch's validation accuracy, computed by evaluate().
  QVERIFY(rec.epochs.back().val_accuracy.has_value());
  QCOMPARE(static_cast<double>(right) / total, *rec.epochs.back().val_accuracy);
  // Worst samples: highest loss first; each loss is -log p(true class), p in [0, 1].
  QCOMPARE(static_cast<int64_t>(d.worst.size()), ValidationDetail::kWorstSamples);
  for (std::size_t i = 0; i < d.worst.size(); ++i) {
    const WorstSample& w = d.worst[i];
    if (i > 0) QVERIFY(d.worst[i - 1].loss >= w.loss);
    QVERIFY(std::abs(w.loss + std::log(w.probability)) < 1e-4 * std::max(1.0, w.loss));
    QCOMPARE(static_cast<int64_t>(w.raw.size()), 2);  // x and y of the moon, raw units
    QVERIFY(w.sample >= 0 && w.sample < 300);
  }
  // The raw values are the generated points: moons lie within [-1.5, 2.5] x [-1, 1.5].
  for (const WorstSample& w : d.worst) {
    QVERIFY(w.raw[0] > -2 && w.raw[0] < 3);
    QVERIFY(w.raw[1] > -1.5 && w.raw[1] < 2);
  }
  // The sample numbers name the same points the data source generates.
  DataConfig raw = config.data;
  raw.standardize = false;
  const PreparedData data = loadData(raw);
  for (const WorstSample& w : d.worst) {
    const at::Tensor x = data.val.x[w.position];
    QVERIFY(std::abs(x[0].item<float>() - w.raw[0]) < 1e-4);
    QVERIFY(std::abs(x[1].item<float>() - w.raw[1]) < 1e-4);
    QCOMPARE(data.split.val[w.position].item<int64_t>(), w.sample);
    QCOMPARE(data.val.y[w.position].item<int64_t>(), w.target);
  }
}

void TstDataViews::regressionDetailIsInTargetUnits() {
  TrainConfig config;
  config.data.source = "sine";
  config.training.epochs = 1;
  config.training.seed = 3;
  config.data.target_scale = 10;
  const DetailRecorder rec = runWithDetail(config);
  QCOMPARE(rec.details.size(), std::size_t{1});
  const ValidationDetail& d = rec.details[0];
  QCOMPARE(d.n_classes, 0);
  QVERIFY(d.confusion.empty());
  const PreparedData data = loadData(config.data);
  QCOMPARE(static_cast<int64_t>(d.target.size()), data.val.size());
  // Targets are sin(x) + noise in the file's units (target_scale divided out): |y| < 1.6.
  for (std::size_t i = 0; i < d.target.size(); ++i) {
    QVERIFY(std::abs(d.target[i]) < 1.6);
    QVERIFY(std::abs(d.target[i] * 10 - data.val.y[static_cast<int64_t>(i)][0].item<float>()) < 1e-4);
  }
}

namespace {

/// Writes `root`/<class>/<i>.png, 4x3 grayscale, pixel value = 10 * i + class (Python's zlib).
bool writePngs(const QString& root, int per_class, int value_offset) {
  const char* script = R"PY(
import os, struct, sys, zlib
root, per, off = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def png(w, h, px):
    raw = b"".join(b"\x00" + px[y*w:(y+1)*w] for y in range(h))
    ch = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    return b"\x89PNG\r\n\x1a\n" + ch(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) + ch(b"IDAT", zlib.compress(raw)) + ch(b"IEND", b"")
for c, name in enumerate(["cat", "dog"]):
    os.makedirs(os.path.join(root, name), exist_ok=True)
    for i in range(per):
        open(os.path.join(root, name, "%d.png" % i), "wb").write(png(4, 3, bytes([(10 * i + c + off) % 256] * 12)))
)PY";
  return testpython::script(script,
                            {root, QString::number(per_class), QString::number(value_offset)},
                            60000)
      .ok;
}

bool anyNote(const PreparedData& d, const char* text) {
  for (const std::string& n : d.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

void TstDataViews::imageFolderCacheIsReadAndInvalidated() {
  const QString root = dir_.filePath("pets");
  const QString cache = dir_.filePath("cache");
  QVERIFY(writePngs(root, 5, 0));
  qputenv("TRAINSCOPE_CACHE_DIR", cache.toUtf8());
  DataConfig c;
  c.source = "image-folder";
  c.image_folder.path = root.toStdString();
  c.val_fraction = 0.2;
  c.standardize = false;
  const PreparedData first = loadData(c);
  QVERIFY(anyNote(first, "cached in"));
  QCOMPARE(QDir(cache).entryList({"image-folder-*.bin"}, QDir::Files).size(), 1);
  const PreparedData second = loadData(c);
  QVERIFY(anyNote(second, "read from the cache"));
  QVERIFY(at::equal(first.train.x, second.train.x) && at::equal(first.val.x, second.val.x));
  QVERIFY(at::equal(first.train.y, second.train.y));
  QCOMPARE(second.split.pool_names, first.split.pool_names);
  // Another pixel value in every image (new bytes, new mtime): decoded again, new values.
  QTest::qWait(20);
  QVERIFY(writePngs(root, 5, 100));
  const PreparedData third = loadData(c);
  QVERIFY(anyNote(third, "cached in"));
  QVERIFY(!at::equal(third.train.x, first.train.x));
  const int64_t row = third.split.train[0].item<int64_t>();  // sample number: file order
  QCOMPARE(third.train.x[0][0].item<int>(), (10 * (row % 5) + row / 5 + 100) % 256);
  // A truncated cache file is ignored (and rewritten).
  for (const QString& f : QDir(cache).entryList({"image-folder-*.bin"}, QDir::Files)) {
    QFile file(QDir(cache).filePath(f));
    QVERIFY(file.resize(40));
  }
  const PreparedData fourth = loadData(c);
  QVERIFY(!anyNote(fourth, "read from the cache"));
  QVERIFY(at::equal(fourth.train.x, third.train.x));
  // Other options (RGB) are another key.
  c.image_folder.channels = 3;
  QVERIFY(anyNote(loadData(c), "cached in"));
  // Off: no cache at all.
  qputenv("TRAINSCOPE_CACHE_DIR", "off");
  const PreparedData off = loadData(c);
  QVERIFY(!anyNote(off, "cache"));
  qunsetenv("TRAINSCOPE_CACHE_DIR");
}

void TstDataViews::splitInPlaceEqualsIndexSelect() {
  // The split permutes the pool in place (no second copy): each split must still hold exactly
  // the pool's rows its recorded indices name, in that order (index_select, a second method).
  for (const char* source : {"moons", "sine"}) {
    for (bool stratify : {false, true}) {
      if (stratify && std::string(source) == "sine") continue;
      DataConfig c;
      c.source = source;
      c.n_samples = 301;
      c.standardize = false;
      c.stratify = stratify;
      SourceData pool;
      dataSource(source).load(c, pool);
      const PreparedData d = loadData(c);
      QVERIFY(at::equal(d.train.x, pool.pool.x.index_select(0, d.split.train)));
      QVERIFY(at::equal(d.train.y, pool.pool.y.index_select(0, d.split.train)));
      QVERIFY(at::equal(d.val.x, pool.pool.x.index_select(0, d.split.val)));
      QVERIFY(at::equal(d.val.y, pool.pool.y.index_select(0, d.split.val)));
    }
  }
  // uint8 images of the idx source too.
  DataConfig c;
  c.source = "idx";
  c.idx.path = dir_.filePath("train-images").toStdString();
  c.idx.y_path = dir_.filePath("train-labels").toStdString();
  c.standardize = false;
  SourceData pool;
  dataSource("idx").load(c, pool);
  const PreparedData d = loadData(c);
  QCOMPARE(d.train.x.scalar_type(), at::kByte);
  QVERIFY(at::equal(d.train.x, pool.pool.x.index_select(0, d.split.train)));
  QVERIFY(at::equal(d.val.x, pool.pool.x.index_select(0, d.split.val)));
}

TRAINSCOPE_TEST_MAIN(TstDataViews)
}  // namespace tst_data_views_suite
#include "tst_data_views.moc"
