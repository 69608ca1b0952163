// Own data: the csv source's task, classes, columns and errors; the .npy/.npz reader
// against arrays numpy wrote; the data.<source>.* keys; the split recorded per sample.
#include <ATen/ATen.h>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <set>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/csv_source.h"
#include "core/data/data_report.h"
#include "core/data/dataset.h"
#include "core/data/npy_reader.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_own_data_suite {

using namespace trainscope;

class TstOwnData : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }
  void taskAndClassesFollowTheTarget_data();
  void taskAndClassesFollowTheTarget();
  void targetByNameIndexOrLast();
  void featuresExcludeAndOneHot();
  void missingValuesNameRowAndColumnOrDropTheRow();
  void aClassNamedLikeAMissingTokenIsNamedNotSilentlyDropped();
  void numbersMoveIntoTheFeatureTensorInPlace();
  void duplicatesAndLeakageAreCountedExactly();
  void badTablesNameFileLineAndColumn_data();
  void badTablesNameFileLineAndColumn();
  void validationAndTestTables();
  void splitIsSeededAndRecordedPerRow();
  void reportWarnsAsGoodToolsDo();
  void npyReadsWhatNumpyWrote();
  void npyBadFilesAreErrors();
  void sourceKeysAreChecked();

 private:
  QString write(const QString& name, const QByteArray& bytes);
  DataConfig csvConfig(const QString& file) const;
  QTemporaryDir dir_;
};

QString TstOwnData::write(const QString& name, const QByteArray& bytes) {
  QFile f(dir_.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(bytes);
  return f.fileName();
}

DataConfig TstOwnData::csvConfig(const QString& file) const {
  DataConfig c;
  c.source = "csv";
  c.csv.path = file.toStdString();
  c.val_fraction = 0.25;
  return c;
}

void TstOwnData::taskAndClassesFollowTheTarget_data() {
  QTest::addColumn<QByteArray>("table");
  QTest::addColumn<QString>("task_key");
  QTest::addColumn<QString>("task");
  QTest::addColumn<QStringList>("classes");
  QByteArray words = "x,label\n", ints = "x,label\n", reals = "x,y\n", many = "x,y\n";
  const char* names[] = {"zebra", "Ant", "mouse"};
  for (int i = 0; i < 12; ++i) {
    words += QByteArray::number(i) + "," + names[i % 3] + "\n";
    ints += QByteArray::number(i) + "," + QByteArray::number(10 - 3 * (i % 3)) + "\n";
    reals += QByteArray::number(i) + "," + QByteArray::number(i * 0.5 + 0.25) + "\n";
  }
  for (int i = 0; i < 30; ++i)  // 25 distinct whole numbers: more than kMaxAutoClasses
    many += QByteArray::number(i) + "," + QByteArray::number(i % 25) + "\n";
  // Sorted as Python's sorted(): code points, so "Ant" < "mouse" < "zebra"; numbers numerically.
  QTest::newRow("text labels") << words << "auto" << "classification"
                               << QStringList{"Ant", "mouse", "zebra"};
  QTest::newRow("few whole numbers") << ints << "auto" << "classification"
                                     << QStringList{"4", "7", "10"};
  QTest::newRow("reals") << reals << "auto" << "regression" << QStringList{};
  QTest::newRow("many whole numbers") << many << "auto" << "regression" << QStringList{};
  QTest::newRow("told classification") << many << "classification" << "classification"
                                       << QStringList{};
  QTest::newRow("told regression") << ints << "regression" << "regression" << QStringList{};
}

void TstOwnData::taskAndClassesFollowTheTarget() {
  QFETCH(QByteArray, table);
  QFETCH(QString, task_key);
  QFETCH(QString, task);
  QFETCH(QStringList, classes);
  DataConfig c = csvConfig(write("task.csv", table));
  c.csv.task = task_key.toStdString();
  SourceData s;
  loadCsvSource(c, s);
  QCOMPARE(s.classification.value(), task == "classification");
  if (!classes.isEmpty()) {
    QStringList got;
    for (const auto& n : s.class_names) got << QString::fromStdString(n);
    QCOMPARE(got, classes);
    // Row 0 holds names[0] "zebra" / 10: the last class; row 1 "Ant" / 7.
    QCOMPARE(s.pool.y[0].item<int64_t>(), 2);
    QCOMPARE(s.pool.y[1].item<int64_t>(), task_key == "auto" && table.contains("Ant") ? 0 : 1);
  }
  if (task == "regression") {
    QCOMPARE(s.pool.y.sizes(), (at::IntArrayRef{s.pool.size(), 1}));
    QCOMPARE(s.pool.y.scalar_type(), at::kFloat);
  }
  if (task_key == "classification" && classes.isEmpty()) QCOMPARE(s.class_names.size(), size_t(25));
}

void TstOwnData::targetByNameIndexOrLast() {
  const QString f = write("cols.csv", "a,b,c\n1,10,0\n2,20,1\n3,30,0\n4,40,1\n");
  DataConfig c = csvConfig(f);
  SourceData last;
  loadCsvSource(c, last);  // default: the last column, c
  QCOMPARE(last.feature_names, (std::vector<std::string>{"a", "b"}));
  c.csv.target.index = 0;
  SourceData first;
  loadCsvSource(c, first);
  QCOMPARE(first.feature_names, (std::vector<std::string>{"b", "c"}));
  c.csv.target.index = -2;  // from the end, as Python: b
  SourceData neg;
  loadCsvSource(c, neg);
  QCOMPARE(neg.feature_names, (std::vector<std::string>{"a", "c"}));
  c.csv.target = {};
  c.csv.target.name = "b";
  SourceData named;
  loadCsvSource(c, named);
  QCOMPARE(named.feature_names, (std::vector<std::string>{"a", "c"}));
  QCOMPARE(named.pool.x[2][0].item<float>(), 3.0f);
  c.csv.target.name = "price";
  const std::string e = errorOf([&] {
    SourceData s;
    loadCsvSource(c, s);
  });
  QVERIFY2(e.find("data.csv.target names column 'price'") != std::string::npos, e.c_str());
  QVERIFY2(e.find("'a', 'b', 'c'") != std::string::npos, e.c_str());
  c.csv.target = {};
  c.csv.target.index = 3;
  const std::string e2 = errorOf([&] {
    SourceData s;
    loadCsvSource(c, s);
  });
  QVERIFY2(e2.find("has 3 columns") != std::string::npos, e2.c_str());
}

void TstOwnData::featuresExcludeAndOneHot() {
  const QString f =
      write("mixed.csv", "id,colour,size,kind\n1,red,1.5,a\n2,blue,2.5,b\n3,red,3.5,a\n4,green,0.5,b\n");
  DataConfig c = csvConfig(f);
  c.csv.exclude = {"id"};
  const std::string e = errorOf([&] {
    SourceData s;
    loadCsvSource(c, s);
  });
  QVERIFY2(e.find("column 'colour' holds text (line 2, column 'colour': \"red\")") !=
               std::string::npos,
           e.c_str());
  QVERIFY2(e.find("data.csv.categorical=one_hot") != std::string::npos, e.c_str());
  c.csv.categorical = "one_hot";
  SourceData s;
  loadCsvSource(c, s);
  QCOMPARE(s.feature_names,
           (std::vector<std::string>{"colour=blue", "colour=green", "colour=red", "size"}));
  // Row 3: green, 0.5.
  const at::Tensor row = s.pool.x[3];
  QCOMPARE(row[0].item<float>(), 0.0f);
  QCOMPARE(row[1].item<float>(), 1.0f);
  QCOMPARE(row[2].item<float>(), 0.0f);
  QCOMPARE(row[3].item<float>(), 0.5f);
  c.csv.features = {"size"};
  SourceData only;
  loadCsvSource(c, only);
  QCOMPARE(only.feature_names, (std::vector<std::string>{"size"}));
  c.csv.features = {"kind"};
  QVERIFY(errorOf([&] {
            SourceData t;
            loadCsvSource(c, t);
          }).find("the target column") != std::string::npos);
}

void TstOwnData::aClassNamedLikeAMissingTokenIsNamedNotSilentlyDropped() {
  // Issue 43: a text target with a class literally named "NA" (one of data.csv.missing's
  // default tokens): the error named only drop_row, which deletes the class. Now it names
  // data.csv.missing, the target's "NA" cells and their count; drop_row says what it dropped;
  // data.csv.missing without "NA" keeps the class.
  const QString f = write("na-class.csv",
                          "a,b,y\n1,2,cat\n3,4,NA\n5,6,dog\n7,8,NA\n9,10,cat\n11,12,NA\n");
  DataConfig c = csvConfig(f);
  QVERIFY(!c.csv.missing.empty());  // the defaults hold NA
  const std::string e = errorOf([&] {
    SourceData s;
    loadCsvSource(c, s);
  });
  QVERIFY2(e.find("line 3, column 'y': missing value") != std::string::npos, e.c_str());
  QVERIFY2(e.find("the target column \"y\" holds \"NA\" (3 rows)") != std::string::npos, e.c_str());
  QVERIFY2(e.find("set data.csv.missing without it") != std::string::npos, e.c_str());
  c.csv.on_missing = "drop_row";
  SourceData dropped;
  loadCsvSource(c, dropped);
  QCOMPARE(dropped.pool.size(), 3);
  QCOMPARE(dropped.notes.size(), size_t(3));  // the header decision, the rows, the target's
  QVERIFY2(dropped.notes[2].find("held \"NA\" (3 rows)") != std::string::npos, dropped.notes[2].c_str());
  c.csv.on_missing = "error";
  c.csv.missing = {"?"};
  SourceData kept;
  loadCsvSource(c, kept);
  QCOMPARE(kept.pool.size(), 6);
  QCOMPARE(kept.class_names, (std::vector<std::string>{"NA", "cat", "dog"}));
  QCOMPARE(kept.notes.size(), size_t(1));  // the header decision only
}

void TstOwnData::missingValuesNameRowAndColumnOrDropTheRow() {
  const QString f = write("gaps.csv", "a,b,y\n1,2,0\n3,,1\n5,6,0\nNA,8,1\n9,10,0\n11,12,1\n");
  DataConfig c = csvConfig(f);
  const std::string e = errorOf([&] {
    SourceData s;
    loadCsvSource(c, s);
  });
  // The first missing cell: data row 1 (line 3), column b.
  QVERIFY2(e.find("line 3, column 'b': missing value") != std::string::npos, e.c_str());
  QVERIFY2(e.find("data.csv.on_missing=drop_row") != std::string::npos, e.c_str());
  c.csv.on_missing = "drop_row";
  SourceData s;
  loadCsvSource(c, s);
  QCOMPARE(s.pool.size(), 4);
  const at::Tensor rows = s.pool_rows;
  QCOMPARE(std::vector<int64_t>(rows.data_ptr<int64_t>(), rows.data_ptr<int64_t>() + 4),
           (std::vector<int64_t>{0, 2, 4, 5}));
  QCOMPARE(s.notes.size(), size_t(2));  // the header decision, the dropped rows
  // Issue 43: the header decision is said, with the key that overrides it.
  QVERIFY2(s.notes[0] == f.toStdString() + ": line 1 read as the header (columns a, b, y), "
                                           "data.csv.header auto; set data.csv.header=no if it "
                                           "is a data row",
           s.notes[0].c_str());
  {
    // Numeric column names over a text label column: read as data (as csv.Sniffer judges it
    // too), and said so, with data.csv.header=yes named.
    DataConfig n = csvConfig(write("numeric-names.csv",
                                   "0,1,label\n5.1,3.5,setosa\n4.9,3.0,versicolor\n6.2,2.9,setosa\n"
                                   "5.0,3.4,versicolor\n"));
    SourceData d;
    loadCsvSource(n, d);
    QVERIFY2(d.notes[0].find(": no header, line 1 read as data (columns column 1, column 2, "
                             "column 3), data.csv.header auto; set data.csv.header=yes if line 1 "
                             "names the columns") != std::string::npos,
             d.notes[0].c_str());
    n.csv.header = "yes";
    SourceData h;
    loadCsvSource(n, h);
    QCOMPARE(h.class_names, (std::vector<std::string>{"setosa", "versicolor"}));
  }
  // The recorded split counts the file's rows: every index is a kept data row.
  const PreparedData d = loadData(c);
  const at::Tensor all = std::get<0>(at::cat({d.split.train, d.split.val}).sort());
  QVERIFY(at::equal(all, rows));
}

void TstOwnData::badTablesNameFileLineAndColumn_data() {
  QTest::addColumn<QByteArray>("table");
  QTest::addColumn<QString>("expected");
  QTest::newRow("constant class") << QByteArray("x,y\n1,a\n2,a\n3,a\n") << "is constant";
  QTest::newRow("constant value") << QByteArray("x,y\n1,0.5\n2,0.5\n3,0.5\n") << "is constant";
  QTest::newRow("ragged") << QByteArray("x,y\n1,a\n2,b,3\n") << "line 3";
  QTest::newRow("text in regression target")
      << QByteArray("x,y\n1,0.5\n2,oops\n3,1.5\n4,2.5\n") << "line 3, column 'y'";
  QTest::newRow("inf feature") << QByteArray("x,y\n1,a\ninf,b\n3,a\n") << "line 3, column 'x'";
  QTest::newRow("only a target") << QByteArray("y\na\nb\n") << "no feature column";
  // Latin-1 "Zürich": not UTF-8, which run.json and --json output need.
  QTest::newRow("latin-1 cell") << QByteArray("x,city\n1,Z\xfcrich\n2,Bern\n")
                                << "line 2, column 'city': the cell is not UTF-8";
  QTest::newRow("number beyond double") << QByteArray("x,y\n1,a\n1e999,b\n3,a\n")
                                        << "line 3, column 'x': not a finite number";
}

void TstOwnData::badTablesNameFileLineAndColumn() {
  QFETCH(QByteArray, table);
  QFETCH(QString, expected);
  DataConfig c = csvConfig(write("bad.csv", table));
  if (QString(QTest::currentDataTag()) == "text in regression target") c.csv.task = "regression";
  try {
    SourceData s;
    loadCsvSource(c, s);
    QFAIL("no error");
  } catch (const Error& e) {
    QCOMPARE(int(e.code()), int(ErrorCode::Data));
    QVERIFY2(QString(e.what()).contains(dir_.filePath("bad.csv")), e.what());
    QVERIFY2(QString(e.what()).contains(expected), e.what());
  }
}

void TstOwnData::validationAndTestTables() {
  const QString train = write("tr.csv", "x,y\n1,cat\n2,dog\n3,cat\n4,dog\n");
  const QString val = write("va.csv", "x,y\n5,dog\n6,cat\n");
  const QString other = write("other.csv", "x,y\n5,dog\n6,bird\n");
  const QString cols = write("cols2.csv", "z,y\n5,dog\n");
  DataConfig c = csvConfig(train);
  c.csv.val_path = val.toStdString();
  c.csv.test_path = val.toStdString();
  const PreparedData d = loadData(c);
  QCOMPARE(d.summary.n_train, 4);  // the whole table trains: validation is a file of its own
  QCOMPARE(d.summary.n_val, 2);
  QCOMPARE(d.summary.n_test, 2);
  QCOMPARE(d.val.y[0].item<int64_t>(), 1);  // dog
  QVERIFY(!d.split.val.defined());
  QCOMPARE(d.split.val_file, val.toStdString());
  c.csv.val_path = other.toStdString();
  std::string e = errorOf([&] { loadData(c); });
  QVERIFY2(e.find("line 3, column 'y': the class \"bird\" does not occur in the training table") !=
               std::string::npos,
           e.c_str());
  c.csv.val_path = cols.toStdString();
  e = errorOf([&] { loadData(c); });
  QVERIFY2(e.find("differ from those of the training table") != std::string::npos, e.c_str());
}

void TstOwnData::splitIsSeededAndRecordedPerRow() {
  QByteArray t = "a,b,y\n";
  for (int i = 0; i < 40; ++i)
    t += QByteArray::number(i) + "," + QByteArray::number(i * i) + "," + (i % 2 ? "odd" : "even") + "\n";
  DataConfig c = csvConfig(write("rows.csv", t));
  c.standardize = false;
  const PreparedData a = loadData(c), b = loadData(c);
  QVERIFY(at::equal(a.split.val, b.split.val));
  QCOMPARE(a.split.train.numel() + a.split.val.numel(), 40);
  // Every validation sample is the file's row its index names: a = row, b = row^2.
  for (int64_t i = 0; i < a.val.size(); ++i) {
    const int64_t row = a.split.val[i].item<int64_t>();
    QCOMPARE(a.val.x[i][0].item<float>(), float(row));
    QCOMPARE(a.val.x[i][1].item<float>(), float(row * row));
    QCOMPARE(a.val.y[i].item<int64_t>(), row % 2 ? 1 : 0);  // "even" < "odd"
  }
  c.seed = 5;
  QVERIFY(!at::equal(loadData(c).split.val, a.split.val));
}

void TstOwnData::numbersMoveIntoTheFeatureTensorInPlace() {
  // The target in the middle, features listed out of file order, a dropped row: x is the
  // table's block of numbers compacted in place, so every cell must land where the file says.
  const QString f = write("middle.csv",
                          "a,b,y,c,d\n"
                          "1,2,0,3,4\n"
                          "5,,1,7,8\n"
                          "9,10,1,11,12\n"
                          "13,14,0,15,16\n");
  DataConfig c = csvConfig(f);
  c.csv.target = ColumnRef{std::string("y"), std::nullopt};
  c.csv.features = {"d", "a", "b"};
  c.csv.on_missing = "drop_row";
  SourceData s;
  loadCsvSource(c, s);
  const at::Tensor expected = at::tensor({4.f, 1.f, 2.f, 12.f, 9.f, 10.f, 16.f, 13.f, 14.f}).view({3, 3});
  QVERIFY2(at::equal(s.pool.x, expected), at::toString(s.pool.x.scalar_type()));
  QCOMPARE(s.pool.y.scalar_type(), at::kLong);
  QVERIFY(at::equal(s.pool.y, at::tensor(std::vector<int64_t>{0, 1, 0})));
  // All columns but the target, every row kept: the same cells as the reader's.
  DataConfig all = csvConfig(write("full.csv", "a,b,y,c\n1,2,0,3\n4,5,1,6\n7,8,1,9\n"));
  all.csv.target = ColumnRef{std::string("y"), std::nullopt};
  SourceData t;
  loadCsvSource(all, t);
  QVERIFY(!t.pool_rows.defined());  // no index per row when none is dropped
  QVERIFY(at::equal(t.pool.x, at::tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f}).view({3, 3})));
}

void TstOwnData::duplicatesAndLeakageAreCountedExactly() {
  // 30 distinct rows, rows 0..9 written twice more: the counts of the report equal what a set
  // of the split's rows gives.
  QByteArray t = "u,v,label\n";
  for (int rep = 0; rep < 3; ++rep)
    for (int i = 0; i < (rep == 0 ? 30 : 10); ++i)
      t += QByteArray::number(i) + "," + QByteArray::number(i * i % 17) + "," + (i % 2 ? "p" : "q") + "\n";
  DataConfig c = csvConfig(write("dups.csv", t));
  c.standardize = false;
  const DataReport r = dataReport(c);
  const PreparedData d = loadData(c);
  auto rowOf = [](const TensorPair& p, int64_t i) {
    return std::vector<float>{p.x[i][0].item<float>(), p.x[i][1].item<float>(),
                              float(p.y[i].item<int64_t>())};
  };
  std::set<std::vector<float>> train;
  int64_t repeats = 0, leaked = 0;
  for (int64_t i = 0; i < d.train.size(); ++i) repeats += !train.insert(rowOf(d.train, i)).second;
  for (int64_t i = 0; i < d.val.size(); ++i) leaked += train.count(rowOf(d.val, i));
  QVERIFY(repeats > 0 && leaked > 0);  // this seed puts copies on both sides
  int64_t reported_repeats = 0, reported_leaked = 0;
  for (const ReportWarning& w : r.warning_facts) {
    if (w.kind == "duplicates") reported_repeats = w.count;
    if (w.kind == "leakage") reported_leaked = w.count;
  }
  QCOMPARE(reported_repeats, repeats);
  QCOMPARE(reported_leaked, leaked);
}

void TstOwnData::reportWarnsAsGoodToolsDo() {
  // 40 "big", 3 "tiny" (above 10:1, and fewer than 10), a constant column, repeated rows.
  QByteArray t = "k,v,label\n";
  for (int i = 0; i < 40; ++i) t += "1," + QByteArray::number(i) + ",big\n";
  t += "1,100,tiny\n1,100,tiny\n1,100,tiny\n";
  DataConfig c = csvConfig(write("warn.csv", t));
  c.val_fraction = 0.1;
  const DataReport r = dataReport(c);
  std::string all;
  for (const auto& w : r.warnings) all += w + "\n";
  QVERIFY2(all.find("\"k\"") != std::string::npos && all.find("constant") != std::string::npos,
           all.c_str());
  QVERIFY2(all.find("class \"tiny\" has only") != std::string::npos, all.c_str());
  QVERIFY(r.classes[1].train > 0);  // the seeded split keeps a tiny sample in training
  QVERIFY2(all.find("imbalanced") != std::string::npos, all.c_str());
  QCOMPARE(r.classes[0].train + r.classes[0].val, 40);
  QCOMPARE(r.classes[1].train + r.classes[1].val, 3);
  QVERIFY2(all.find("repeat") != std::string::npos || all.find("also occur") != std::string::npos,
           all.c_str());
  // A healthy table: no warning.
  QByteArray h = "a,b,y\n";
  for (int i = 0; i < 60; ++i)
    h += QByteArray::number(i) + "," + QByteArray::number((i * 7) % 13) + "," + (i % 2 ? "p" : "q") + "\n";
  const DataReport ok = dataReport(csvConfig(write("healthy.csv", h)));
  QVERIFY2(ok.warnings.empty(), ok.warnings.empty() ? "" : ok.warnings[0].c_str());
  QCOMPARE(ok.first_rows.size(), size_t(5));
}

void TstOwnData::npyReadsWhatNumpyWrote() {
  // numpy writes each array and, beside it, its values as float64 little-endian C-order bytes.
  const char* script = R"PY(
import numpy as np, sys, os
d = sys.argv[1]
rng = np.random.default_rng(0)
cases = {
  "f4": rng.normal(size=(3, 4)).astype("<f4"),
  "f8be": rng.normal(size=(2, 3)).astype(">f8"),
  "fortran": np.asfortranarray(rng.normal(size=(3, 2, 4))),
  "f2": rng.normal(size=(5,)).astype(np.float16),
  "u1": rng.integers(0, 256, (2, 2, 3), dtype=np.uint8),
  "i2be": rng.integers(-300, 300, (4,)).astype(">i2"),
  "u2": np.array([0, 1, 65535], dtype=np.uint16),
  "u4": np.array([4294967295, 7], dtype=np.uint32),
  "b1": np.array([[True, False], [False, True]]),
  "i8": np.arange(6, dtype=np.int64).reshape(2, 3),
  "scalarish": np.zeros((0, 3), dtype=np.float32),
}
for name, a in cases.items():
  np.save(os.path.join(d, name + ".npy"), a)
  np.ascontiguousarray(a.astype("<f8")).tofile(os.path.join(d, name + ".f64"))
np.savez_compressed(os.path.join(d, "z.npz"), a=cases["f4"], b=cases["u1"])
np.savez(os.path.join(d, "s.npz"), a=cases["f4"])
)PY";
  const testpython::Result py = testpython::script(script, {dir_.path()}, 60000);
  QVERIFY2(py.ok, qPrintable(py.why));
  for (const char* name :
       {"f4", "f8be", "fortran", "f2", "u1", "i2be", "u2", "u4", "b1", "i8", "scalarish"}) {
    const std::string base = dir_.filePath(name).toStdString();
    const at::Tensor t = readNpy(base + ".npy");
    QFile f(QString::fromStdString(base + ".f64"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray raw = f.readAll();
    const at::Tensor ref =
        at::from_blob(const_cast<char*>(raw.constData()), {raw.size() / 8}, at::kDouble).clone();
    QVERIFY2(at::equal(t.to(at::kDouble).reshape({-1}), ref), name);
  }
  QCOMPARE(readNpy(dir_.filePath("fortran.npy").toStdString()).sizes(), (at::IntArrayRef{3, 2, 4}));
  QCOMPARE(readNpy(dir_.filePath("u1.npy").toStdString()).scalar_type(), at::kByte);
  for (const char* npz : {"z.npz", "s.npz"}) {
    const std::string z = dir_.filePath(npz).toStdString();
    QVERIFY(at::equal(readNpzArray(z, "a"), readNpy(dir_.filePath("f4.npy").toStdString())));
  }
  QCOMPARE(npzArrayNames(dir_.filePath("z.npz").toStdString()),
           (std::vector<std::string>{"a", "b"}));
}

void TstOwnData::npyBadFilesAreErrors() {
  const std::string good = dir_.filePath("f4.npy").toStdString();
  QFile g(QString::fromStdString(good));
  QVERIFY(g.open(QIODevice::ReadOnly));
  const QByteArray bytes = g.readAll();
  const std::vector<std::pair<QByteArray, std::string>> cases = {
      {QByteArray("hello"), "no \\x93NUMPY magic"},
      {bytes.left(bytes.size() - 4), "bytes of data"},
      {bytes + "xx", "bytes of data"},
      {QByteArray(bytes).replace("<f4", "<c8"), "is not one TrainScope reads"},
      {QByteArray(bytes).replace("(3, 4)", "(9999999999999, 99999999)"), "too large"},
      {QByteArray(bytes).replace("(3, 4)", "(3, 5)"), "bytes of data"},
  };
  for (const auto& [content, expected] : cases) {
    const QString f = write("bad.npy", content);
    const std::string e = errorOf([&] { readNpy(f.toStdString()); });
    QVERIFY2(e.find(expected) != std::string::npos && e.find(f.toStdString()) != std::string::npos,
             e.c_str());
  }
  QVERIFY(errorOf([&] { readNpy(dir_.path().toStdString()); }).find("directory") !=
          std::string::npos);
  QVERIFY(errorOf([&] { readNpzArray(dir_.filePath("z.npz").toStdString(), "x"); })
              .find("its arrays: a, b") != std::string::npos);
  QVERIFY(errorOf([&] { readNpzArray(good, "x"); }).find("not a readable .npz") !=
          std::string::npos);
}

void TstOwnData::sourceKeysAreChecked() {
  std::string e = errorOf([] { resolveConfig("", "", {"data.csv.path=t.csv"}); });
  QVERIFY2(e.find("data.csv.path is set") != std::string::npos &&
               e.find("data.source is \"sine\"") != std::string::npos,
           e.c_str());
  e = errorOf([] { resolveConfig("", "", {"data.source=csv"}); });
  QVERIFY2(e.find("set data.csv.path") != std::string::npos, e.c_str());
  e = errorOf([] { resolveConfig("", "", {"data.source=npy", "data.path=/tmp"}); });
  QVERIFY2(e.find("data.path is set") != std::string::npos, e.c_str());
  TrainConfig c = resolveConfig("", "", {"data.source=csv", "data.csv.path=t.csv",
                                         "data.csv.target=2", "data.csv.missing=[\"?\"]"});
  QCOMPARE(c.data.csv.target.index.value(), 2);
  QCOMPARE(c.data.csv.missing, (std::vector<std::string>{"?"}));
  c = resolveConfig("", "", {"data.source=csv", "data.csv.path=t.csv", "data.csv.target=\"2\""});
  QCOMPARE(c.data.csv.target.name.value(), std::string("2"));
  QCOMPARE(configToJson(c)["data"]["csv"]["target"], nlohmann::json("2"));
  e = errorOf([] {
    resolveConfig("", "", {"data.source=csv", "data.csv.path=t.csv", "data.csv.target=1.5"});
  });
  QVERIFY2(e.find("data.csv.target must be a column name") != std::string::npos, e.c_str());
  e = errorOf([] {
    resolveConfig("", "", {"data.source=image-folder", "data.image_folder.path=/x",
                           "data.image_folder.size=[28]"});
  });
  QVERIFY2(e.find("[height, width]") != std::string::npos, e.c_str());
}

TRAINSCOPE_TEST_MAIN(TstOwnData)
}  // namespace tst_own_data_suite
#include "tst_own_data.moc"
