// Data: split sizes/disjointness/determinism, limit, standardisation, batching, IDX reader.
#include <torch/torch.h>
#include <sys/stat.h>
#include <zlib.h>

#include <QtTest/QtTest>
#include <algorithm>
#include <set>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/idx_reader.h"
#include "core/errors.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_data_suite {

using namespace trainscope;

namespace {

std::set<int64_t> toSet(const at::Tensor& t) {
  std::set<int64_t> s;
  auto a = t.accessor<int64_t, 1>();
  for (int64_t i = 0; i < t.size(0); ++i) s.insert(a[i]);
  return s;
}

// Writes an IDX file of unsigned bytes with the given dims and payload, gzip-compressed.
void writeIdx(const std::string& path, std::vector<int32_t> dims, const std::vector<uint8_t>& data,
              size_t truncate_to = SIZE_MAX, uint8_t type = 0x08) {
  std::vector<uint8_t> bytes = {0, 0, type, static_cast<uint8_t>(dims.size())};
  for (int32_t d : dims) {
    bytes.push_back(static_cast<uint8_t>(d >> 24));
    bytes.push_back(static_cast<uint8_t>(d >> 16));
    bytes.push_back(static_cast<uint8_t>(d >> 8));
    bytes.push_back(static_cast<uint8_t>(d));
  }
  bytes.insert(bytes.end(), data.begin(), data.end());
  if (truncate_to < bytes.size()) bytes.resize(truncate_to);
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

}  // namespace

class TstData : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void splitSizesDisjointDeterministic_data();
  void splitSizesDisjointDeterministic();
  void splitDoesNotTouchGlobalGenerator();
  void standardiseFromTrainingStatistics();
  void limitTakesSeededSubset();
  void moonsHaveTwoBalancedClasses();
  void batchesCoverEpochWithPartialLast();
  void idxReaderReadsWhatWasWritten();
  void dataFileErrorsNameTheirKey();
  void idxReaderRejectsBadFiles_data();
  void idxReaderRejectsBadFiles();
  void fashionMnistRealData();
  void tabularPreprocessingIsRecorded();
  void imagePreprocessingIsRecorded();
  void testSplitWithOtherImageSizeIsRefusedAtLoad();
  void registryFactsMatchWhatEachSourceLoads();
  void unknownSourceNamesTheKnownOnes();
};

void TstData::splitSizesDisjointDeterministic_data() {
  QTest::addColumn<qlonglong>("n");
  QTest::addColumn<double>("fraction");
  QTest::newRow("100, 0.2") << 100LL << 0.2;
  QTest::newRow("41, 0.25") << 41LL << 0.25;  // 10.25 -> 10
  QTest::newRow("7, 0.5") << 7LL << 0.5;      // 3.5 -> 4 (round half away from zero)
  QTest::newRow("3, 0.01") << 3LL << 0.01;    // at least one validation sample
}

void TstData::splitSizesDisjointDeterministic() {
  QFETCH(qlonglong, n);
  QFETCH(double, fraction);
  auto [train, val] = splitIndices(n, fraction, 5);
  int64_t expected_val = std::max<int64_t>(1, std::llround(n * fraction));
  QCOMPARE(val.size(0), expected_val);
  QCOMPARE(train.size(0), n - expected_val);
  std::set<int64_t> a = toSet(train), b = toSet(val), all;
  for (int64_t x : a) QVERIFY(!b.count(x));  // disjoint
  all.insert(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  QCOMPARE(static_cast<qlonglong>(all.size()), n);  // covering 0..n-1
  QCOMPARE(*all.begin(), int64_t{0});
  QCOMPARE(*all.rbegin(), int64_t{n - 1});
  auto [train2, val2] = splitIndices(n, fraction, 5);  // same seed: same split
  QVERIFY(torch::equal(train, train2) && torch::equal(val, val2));
  if (n >= 40) {
    auto [train3, val3] = splitIndices(n, fraction, 6);  // another seed: another split
    QVERIFY(!torch::equal(val, val3));
  }
}

void TstData::splitDoesNotTouchGlobalGenerator() {
  torch::manual_seed(1);
  at::Tensor a = torch::rand({4});
  torch::manual_seed(1);
  DataConfig c;
  loadData(c);
  at::Tensor b = torch::rand({4});
  QVERIFY(torch::equal(a, b));
}

void TstData::standardiseFromTrainingStatistics() {
  DataConfig c;
  c.source = "moons";
  c.n_samples = 500;
  PreparedData d = loadData(c);
  // Training split: each feature mean 0, population std 1 (computed here in float64).
  at::Tensor x = d.train.x.to(torch::kDouble);
  for (int f = 0; f < 2; ++f) {
    double mean = x.select(1, f).mean().item<double>();
    double var = (x.select(1, f) - mean).pow(2).mean().item<double>();
    QVERIFY(std::abs(mean) < 1e-6);
    QVERIFY(std::abs(var - 1) < 1e-5);
  }
  // Validation uses the training statistics: undo with them and compare to the raw data.
  c.standardize = false;
  PreparedData raw = loadData(c);
  at::Tensor rx = raw.train.x.to(torch::kDouble);
  at::Tensor mean = rx.mean(0), sd = rx.std(0, /*unbiased=*/false);
  QVERIFY(torch::allclose(d.val.x.to(torch::kDouble) * sd + mean, raw.val.x.to(torch::kDouble),
                          1e-5, 1e-5));
  QVERIFY(torch::equal(d.val.y, raw.val.y));  // targets untouched
  QCOMPARE(d.summary.n_train + d.summary.n_val, int64_t{500});
  QCOMPARE(d.summary.n_val, int64_t{100});
}

void TstData::limitTakesSeededSubset() {
  DataConfig c;
  c.source = "sine";
  c.n_samples = 1000;
  c.limit = 50;
  PreparedData a = loadData(c), b = loadData(c);
  QCOMPARE(a.train.size() + a.val.size(), int64_t{50});
  QCOMPARE(a.val.size(), int64_t{10});
  QVERIFY(torch::equal(a.train.x, b.train.x));
  QVERIFY(torch::equal(a.val.y, b.val.y));
}

void TstData::moonsHaveTwoBalancedClasses() {
  DataConfig c;
  c.source = "moons";
  c.n_samples = 201;
  c.standardize = false;
  c.noise = 0;
  PreparedData d = loadData(c);
  QVERIFY(d.classification);
  at::Tensor y = torch::cat({d.train.y, d.val.y});
  QCOMPARE(y.eq(0).sum().item<int64_t>(), int64_t{100});  // n/2 on the outer moon
  QCOMPARE(y.eq(1).sum().item<int64_t>(), int64_t{101});
  // Without noise, outer moon points lie on the unit circle (sklearn's construction).
  at::Tensor x = torch::cat({d.train.x, d.val.x});
  at::Tensor outer = x.index({y.eq(0)});
  QVERIFY(torch::allclose(outer.pow(2).sum(1), torch::ones({100}), 1e-5, 1e-5));
}

void TstData::batchesCoverEpochWithPartialLast() {
  TensorPair p{torch::arange(10, torch::kFloat).unsqueeze(1), torch::arange(10, torch::kLong)};
  BatchIterator it(p, 4, true);
  QCOMPARE(it.batchesPerEpoch(), int64_t{3});  // 4 + 4 + 2, no drop_last
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
  it.startEpoch(gen);
  std::set<int64_t> seen;
  std::vector<int64_t> first_order;
  for (int64_t b = 0; b < 3; ++b) {
    TensorPair batch = it.batch(b);
    QCOMPARE(batch.size(), b < 2 ? int64_t{4} : int64_t{2});
    for (int64_t i = 0; i < batch.size(); ++i) {
      seen.insert(batch.y[i].item<int64_t>());
      first_order.push_back(batch.y[i].item<int64_t>());
      QCOMPARE(batch.x[i][0].item<float>(), static_cast<float>(batch.y[i].item<int64_t>()));
    }
  }
  QCOMPARE(seen.size(), size_t{10});
  it.startEpoch(gen);  // next epoch: a different permutation
  std::vector<int64_t> second;
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t i = 0; i < it.batch(b).size(); ++i)
      second.push_back(it.batch(b).y[i].item<int64_t>());
  QVERIFY(first_order != second);
}

void TstData::idxReaderReadsWhatWasWritten() {
  QTemporaryDir tmp;
  std::string f = tmp.path().toStdString() + "/tiny-images-idx3-ubyte.gz";
  std::vector<uint8_t> data(3 * 2 * 4);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 10);
  writeIdx(f, {3, 2, 4}, data);
  at::Tensor t = readIdxFile(f);
  QCOMPARE(t.sizes().vec(), (std::vector<int64_t>{3, 2, 4}));
  QCOMPARE(t.scalar_type(), at::kByte);
  QCOMPARE(t[1][0][2].item<int>(), (1 * 8 + 0 * 4 + 2) * 10);
  QCOMPARE(t[2][1][3].item<int>(), (2 * 8 + 1 * 4 + 3) * 10);
}

// A data file that cannot be read is named with the config key that names it: which of a
// source's files is wrong (data.idx.y_path, data.csv.val_path) is not left to guess.
void TstData::dataFileErrorsNameTheirKey() {
  QTemporaryDir tmp;
  const std::string dir = tmp.path().toStdString();
  writeIdx(dir + "/x.idx.gz", {10, 2, 2}, std::vector<uint8_t>(40, 3));
  QCOMPARE(::mkfifo((dir + "/labels").c_str(), 0600), 0);
  auto message = [](const DataConfig& c) -> std::string {
    try {
      loadData(c);
    } catch (const Error& e) {
      return e.what();
    }
    return "loaded";
  };
  DataConfig idx;
  idx.source = "idx";
  idx.idx.path = dir + "/x.idx.gz";
  idx.idx.y_path = dir + "/labels";
  const std::string fifo = message(idx);
  QVERIFY2(fifo.rfind("data.idx.y_path: IDX file " + dir + "/labels: it is a FIFO", 0) == 0,
           fifo.c_str());

  DataConfig csv;
  csv.source = "csv";
  csv.csv.path = dir + "/missing.csv";
  const std::string missing = message(csv);
  QVERIFY2(missing.rfind("data.csv.path: ", 0) == 0, missing.c_str());
  std::FILE* f = std::fopen((dir + "/t.csv").c_str(), "w");
  std::fputs("a,b\n1,0\n2,1\n3,0\n4,1\n", f);
  std::fclose(f);
  csv.csv.path = dir + "/t.csv";
  csv.csv.val_path = dir + "/";  // a folder
  const std::string folder = message(csv);
  QVERIFY2(folder.rfind("data.csv.val_path: ", 0) == 0, folder.c_str());
}

void TstData::idxReaderRejectsBadFiles_data() {
  QTest::addColumn<QString>("kind");
  QTest::addColumn<QString>("expected");
  QTest::newRow("truncated data") << "truncated"
                                  << "truncated";
  QTest::newRow("truncated header") << "header"
                                    << "truncated";
  QTest::newRow("bad magic") << "magic"
                             << "bad magic";
  QTest::newRow("missing") << "missing"
                           << "no such file";
  // The path's kind named, as every other reader of the user's files names it (file_read.h).
  QTest::newRow("folder") << "folder"
                          << "it is a directory, not a file";
  QTest::newRow("fifo") << "fifo"
                        << "it is a FIFO (named pipe), not a regular file";
  QTest::newRow("corrupt gzip") << "corrupt"
                                << "corrupt";
  QTest::newRow("trailing bytes") << "trailing"
                                  << "after the last element";
  // The type byte in hex as the IDX format documents it: 0x0D is 13, not "0x13".
  QTest::newRow("float elements") << "float"
                                  << "unsupported IDX element type 0x0D (32-bit floats)";
  QTest::newRow("type 0x1f") << "type31"
                             << "unsupported IDX element type 0x1F (only unsigned bytes, 0x08)";
}

void TstData::idxReaderRejectsBadFiles() {
  QFETCH(QString, kind);
  QFETCH(QString, expected);
  QTemporaryDir tmp;
  std::string f = tmp.path().toStdString() + "/bad-idx1-ubyte.gz";
  std::vector<uint8_t> data(100, 7);
  if (kind == "truncated") writeIdx(f, {100}, data, 8 + 60);
  if (kind == "folder") std::filesystem::create_directory(f);
  if (kind == "fifo") QCOMPARE(::mkfifo(f.c_str(), 0600), 0);  // never opened: no hang
  if (kind == "header") writeIdx(f, {100}, data, 6);
  if (kind == "magic") {
    gzFile g = gzopen(f.c_str(), "wb");
    gzwrite(g, "\x01\x02\x08\x01\x00\x00\x00\x01\x05", 9);
    gzclose(g);
  }
  if (kind == "corrupt") {
    writeIdx(f, {100}, data);
    // Flip the gzip trailer's CRC-32: the data decompresses but fails its check.
    std::FILE* raw = std::fopen(f.c_str(), "r+b");
    std::fseek(raw, -8, SEEK_END);
    int byte = std::fgetc(raw);
    std::fseek(raw, -8, SEEK_END);
    std::fputc(byte ^ 0xFF, raw);
    std::fclose(raw);
  }
  if (kind == "float") writeIdx(f, {25}, data, SIZE_MAX, 0x0D);
  if (kind == "type31") writeIdx(f, {100}, data, SIZE_MAX, 0x1F);
  if (kind == "trailing") {
    std::vector<uint8_t> more(data);
    more.push_back(1);
    writeIdx(f, {100}, more);
  }
  try {
    readIdxFile(f);
    QFAIL("bad IDX file accepted");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Data);
    QVERIFY2(QString(e.what()).contains(QString::fromStdString(f)), e.what());
    QVERIFY2(QString(e.what()).contains(expected), e.what());
  }
}

void TstData::fashionMnistRealData() {
  if (!std::filesystem::exists(std::string(kFashionMnistDir) + "/train-images-idx3-ubyte.gz"))
    QSKIP("dataset-fashion-mnist is not installed");
  DataConfig c;
  c.source = "fashion-mnist";
  c.limit = 2000;
  PreparedData d = loadData(c);
  QCOMPARE(d.train.size(), int64_t{1600});
  QCOMPARE(d.val.size(), int64_t{400});
  QCOMPARE(d.test.size(), int64_t{10000});
  QCOMPARE(d.summary.n_features, int64_t{784});
  QCOMPARE(d.summary.n_classes, int64_t{10});
  // one mean/std over all training pixels: standardised training pixels have mean 0, std 1
  // (pixels are stored as uint8 and converted per batch: check the converted inputs)
  QCOMPARE(d.train.x.scalar_type(), at::kByte);
  const at::Tensor x = d.train.inputs().to(torch::kDouble);
  QVERIFY(std::abs(x.mean().item<double>()) < 1e-4);
  QVERIFY(std::abs(x.std(false).item<double>() - 1) < 1e-4);
  // The conversion is ((pixel / 255) - mean) / std with mean and std of pixel / 255 over the
  // training split, computed here independently in float64 from the raw bytes.
  const at::Tensor raw = d.train.x.to(torch::kDouble) / 255;
  const double m = raw.mean().item<double>(), s = raw.std(false).item<double>();
  QVERIFY(torch::allclose(d.val.inputs(5, 3).to(torch::kDouble),
                          (d.val.x.narrow(0, 5, 3).to(torch::kDouble) / 255 - m) / s, 1e-5, 1e-5));
  // Without standardisation the inputs are pixel / 255.
  c.standardize = false;
  PreparedData plain = loadData(c);
  QVERIFY(torch::allclose(plain.test.inputs(0, 4),
                          plain.test.x.narrow(0, 0, 4).to(torch::kFloat) / 255));
}

// The recorded preprocessing reproduces the model inputs from the raw data, computed here
// independently: the raw split (standardize off, same seed and split) with torch's own mean and
// population std in double.
void TstData::tabularPreprocessingIsRecorded() {
  DataConfig c;
  c.source = "sine";
  c.n_samples = 300;
  c.target_scale = 2.0;
  c.standardize = false;
  const PreparedData raw = loadData(c);
  QCOMPARE(raw.summary.preprocessing.standardize, std::string("none"));
  QVERIFY(raw.summary.preprocessing.mean.empty());
  c.standardize = true;
  const PreparedData d = loadData(c);
  const DataSummary& s = d.summary;
  QCOMPARE(s.input_shape, std::vector<int64_t>{1});
  QVERIFY(s.image_shape.empty());
  QCOMPARE(s.x_dtype, std::string("float32"));
  QCOMPARE(s.outputs, int64_t{1});
  QCOMPARE(s.task, std::string("regression"));
  const Preprocessing& p = s.preprocessing;
  QCOMPARE(p.standardize, std::string("per_feature"));
  QCOMPARE(p.pixel_scale, 1.0);
  QCOMPARE(p.target_scale, 2.0);
  const at::Tensor x = raw.train.x.to(torch::kDouble);
  QCOMPARE(p.mean.size(), size_t{1});
  QVERIFY(std::abs(p.mean[0] - x.mean().item<double>()) < 1e-6);
  QVERIFY(std::abs(p.std[0] - x.std(/*unbiased=*/false).item<double>()) < 1e-6);
  const at::Tensor again = (raw.val.x.to(torch::kDouble) - p.mean[0]) / p.std[0];
  QVERIFY(torch::allclose(again, d.val.x.to(torch::kDouble), 1e-5, 1e-6));
  // The targets were scaled, the inputs not: raw and standardised runs agree on y.
  QVERIFY(torch::equal(raw.train.y, d.train.y));

  c.source = "moons";
  const PreparedData m = loadData(c);
  QCOMPARE(m.summary.input_shape, std::vector<int64_t>{2});
  QCOMPARE(m.summary.outputs, int64_t{2});
  QCOMPARE(m.summary.preprocessing.target_scale, 1.0);  // classification: not scaled
  QCOMPARE(m.summary.preprocessing.mean.size(), size_t{2});
}

void TstData::imagePreprocessingIsRecorded() {
  if (!std::filesystem::exists(std::string(kFashionMnistDir) + "/train-images-idx3-ubyte.gz"))
    QSKIP("dataset-fashion-mnist is not installed");
  DataConfig c;
  c.source = "fashion-mnist";
  c.limit = 500;
  const PreparedData d = loadData(c);
  const DataSummary& s = d.summary;
  QCOMPARE(s.input_shape, std::vector<int64_t>{784});
  QCOMPARE(s.image_shape, (std::vector<int64_t>{1, 28, 28}));
  QCOMPARE(s.x_dtype, std::string("uint8"));
  QCOMPARE(s.outputs, int64_t{10});
  const Preprocessing& p = s.preprocessing;
  QCOMPARE(p.pixel_scale, 255.0);
  QCOMPARE(p.standardize, std::string("per_channel"));
  const at::Tensor px = d.train.x.to(torch::kDouble) / 255.0;  // the raw training pixels
  QVERIFY(std::abs(p.mean[0] - px.mean().item<double>()) < 1e-9);
  QVERIFY(std::abs(p.std[0] - px.std(/*unbiased=*/false).item<double>()) < 1e-9);
  // (x / pixel_scale - mean) / std is what the model is fed, for any split.
  const at::Tensor outside =
      (d.test.x.narrow(0, 0, 200).to(torch::kDouble) / 255.0 - p.mean[0]) / p.std[0];
  QVERIFY(torch::allclose(outside, d.test.inputs(0, 200).to(torch::kDouble), 1e-5, 1e-5));
}

void TstData::testSplitWithOtherImageSizeIsRefusedAtLoad() {
  // Training images 3x3, test images 4x4: refused when the data loads (Error(Data), exit 2 in
  // the CLI) naming both sizes and both files, not by a matrix-size error after training.
  QTemporaryDir tmp;
  const std::string dir = tmp.path().toStdString();
  writeIdx(dir + "/train-images-idx3-ubyte.gz", {4, 3, 3}, std::vector<uint8_t>(4 * 9, 1));
  writeIdx(dir + "/train-labels-idx1-ubyte.gz", {4}, {0, 1, 2, 3});
  writeIdx(dir + "/t10k-images-idx3-ubyte.gz", {2, 4, 4}, std::vector<uint8_t>(2 * 16, 2));
  writeIdx(dir + "/t10k-labels-idx1-ubyte.gz", {2}, {4, 5});
  DataConfig c;
  c.source = "fashion-mnist";
  c.path = dir;
  try {
    loadData(c);
    QFAIL("a test split with another image size was accepted");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Data);
    const QString what = e.what();
    for (const QString& part : {QString("3x3"), QString("4x4"),
                                QString::fromStdString(dir + "/train-images-idx3-ubyte.gz"),
                                QString::fromStdString(dir + "/t10k-images-idx3-ubyte.gz")})
      QVERIFY2(what.contains(part), e.what());
  }
  // Same size: loads (4 training-pool images of 9 pixels, 2 test images).
  writeIdx(dir + "/t10k-images-idx3-ubyte.gz", {2, 3, 3}, std::vector<uint8_t>(2 * 9, 2));
  const PreparedData d = loadData(c);
  QCOMPARE(d.test.size(), int64_t{2});
  QCOMPARE(d.summary.n_features, int64_t{9});
}

// Each row's facts (the GUI and the engine act on them without loading) against what the
// source actually loads: labels int64 [N] for classification, float32 [N, 1] targets for
// regression; images as uint8 rows of 28x28; class names one per class; data.path accepted
// only by sources read from files.
void TstData::registryFactsMatchWhatEachSourceLoads() {
  QCOMPARE(dataSourceNames(),
           (std::vector<std::string>{"sine", "moons", "circles", "spirals", "sine-sequence",
                                     "fashion-mnist", "csv", "npy", "image-folder", "idx"}));
  for (const DataSourceKind& k : dataSources()) {
    const QByteArray name = QByteArray::fromStdString(k.name);
    // The user's own data (a section of its own): the files decide the task (tst_own_data);
    // data.path, fashion-mnist's folder, is refused beside them.
    const bool own_section = k.key_section != "data";
    QCOMPARE(own_section, k.key_section == "data." + [&] {
      std::string n = k.name;
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    }());
    if (own_section) {
      TrainConfig t;
      t.data.source = k.name;
      t.data.path = std::string("/nonexistent");
      try {
        validate(t);
        QFAIL(name);
      } catch (const Error& e) {
        QCOMPARE(e.subject(), std::string("data.path"));
      }
      continue;
    }
    DataConfig c;
    c.source = k.name;
    c.n_samples = 50;
    if (k.read_from_files) {
      if (!std::filesystem::exists(std::string(kFashionMnistDir) + "/train-images-idx3-ubyte.gz"))
        continue;
      c.limit = 50;
    }
    const PreparedData d = loadData(c);
    QVERIFY2(d.classification == k.classification, name);
    QCOMPARE(d.summary.task, std::string(k.classification ? "classification" : "regression"));
    if (k.classification) {
      QCOMPARE(d.train.y.scalar_type(), at::kLong);
      QCOMPARE(d.train.y.dim(), int64_t{1});
      QCOMPARE(int64_t(d.summary.class_names.size()), d.train.y.max().item<int64_t>() + 1);
    } else {
      QCOMPARE(d.train.y.scalar_type(), at::kFloat);
      QVERIFY2(d.summary.class_names.empty(), name);
    }
    QVERIFY2((d.train.x.scalar_type() == at::kByte) == k.image_data, name);
    QVERIFY2((d.train.x.dim() == 3) == k.sequence_data, name);  // [N, T, F]
    if (k.image_data) QCOMPARE(d.summary.n_features, int64_t{28 * 28});
    TrainConfig t;
    t.data.source = k.name;
    t.data.path = std::string("/nonexistent");
    bool refused = false;
    try {
      validate(t);
    } catch (const Error& e) {
      refused = e.subject() == "data.path";
    }
    QVERIFY2(refused != k.read_from_files, name);
    QVERIFY2(k.sine_truth == (k.name == "sine"), name);  // the model view's true function
  }
}

void TstData::unknownSourceNamesTheKnownOnes() {
  DataConfig c;
  c.source = "cifar";
  try {
    loadData(c);
    QFAIL("an unknown source loaded");
  } catch (const Error& e) {
    QCOMPARE(e.subject(), std::string("data.source"));
    QVERIFY2(QString(e.what()).contains("'cifar'") && QString(e.what()).contains("fashion-mnist"),
             e.what());
  }
  QVERIFY(findDataSource("cifar") == nullptr);
  QVERIFY(findDataSource("moons") != nullptr);
}

TRAINSCOPE_TEST_MAIN(TstData)
}  // namespace tst_data_suite
#include "tst_data.moc"
