// The CSV reader (core/data/csv_table.h): cells as Python's csv module reads them
// (quotes, delimiters and line breaks inside quoted cells, doubled quotes, CRLF, a UTF-8 BOM),
// the delimiter and header detected or as told, numeric and text columns, missing cells, and a
// clear error naming the file and line for each bad file.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>

#include "core/data/csv_table.h"
#include "core/errors.h"
#include "python_runner.h"

using namespace trainscope;

class TstCsvTable : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase();
  void cellsAsPythonsCsvModuleReadsThem();
  void delimiterAndHeaderDetected_data();
  void delimiterAndHeaderDetected();
  void headerAndDelimiterAsTold();
  void numericTextIntegralAndMissing();
  void aColumnThatTurnsToTextKeepsItsCellsAsWritten();
  void badFilesNameFileAndLine_data();
  void badFilesNameFileAndLine();
  void badOptionsNameTheKey();

 private:
  QString write(const QString& name, const QByteArray& bytes);
  QTemporaryDir dir_;
};

void TstCsvTable::initTestCase() { QVERIFY(dir_.isValid()); }

QString TstCsvTable::write(const QString& name, const QByteArray& bytes) {
  QFile f(dir_.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(bytes);
  return f.fileName();
}

void TstCsvTable::cellsAsPythonsCsvModuleReadsThem() {
  // Python's csv module writes a table with every quoting hazard, and reads it back: the
  // reference cells. (QUOTE_MINIMAL quotes exactly the cells that need it.)
  const QString file = dir_.filePath(QStringLiteral("hazards.csv"));
  const char* script = R"PY(
import csv, json, sys
rows = [["name", "note", "x"],
        ["plain", "a, b", "1.5"],
        ["quote", 'she said "hi"', "-2"],
        ["newline", "line one\nline two", "3e-3"],
        ["empty", "", "4"],
        ["spaces", "  padded  ", "+5"],
        ["unicode", "训练 ñ", "6"]]
with open(sys.argv[1], "w", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows(rows)
with open(sys.argv[1], newline="") as f:
    print(json.dumps(list(csv.reader(f))))
)PY";
  const testpython::Result py = testpython::script(script, {file}, 60000);
  QVERIFY2(py.finished, qPrintable(py.why));
  QCOMPARE(py.exit_code, 0);
  const QJsonArray expected = QJsonDocument::fromJson(py.out).array();
  QCOMPARE(expected.size(), 7);

  const CsvTable t = readCsv(file.toStdString());
  QCOMPARE(t.delimiter, ',');
  QVERIFY(t.header);
  QCOMPARE(t.rows, int64_t{6});
  QCOMPARE(t.columns.size(), size_t{3});
  for (int c = 0; c < 3; ++c)
    QCOMPARE(QString::fromStdString(t.columns[c].name), expected[0].toArray()[c].toString());
  QVERIFY(!t.columns[0].numeric && !t.columns[1].numeric);
  QVERIFY2(t.columns[2].numeric, t.columns[2].first_text.c_str());
  for (int r = 0; r < 6; ++r) {
    const QJsonArray row = expected[r + 1].toArray();
    QCOMPARE(QString::fromStdString(t.columns[0].text[r]), row[0].toString());
    // libcsv trims spaces around unquoted cells only; Python wrote "  padded  " unquoted, so
    // the reader keeps what a spreadsheet shows after trimming.
    QCOMPARE(QString::fromStdString(t.columns[1].text[r]), row[1].toString().trimmed());
    QCOMPARE(double(t.number(r, 2)), double(float(row[2].toString().toDouble())));
  }
  QVERIFY(!t.columns[2].integral);  // 1.5 and 3e-3
  QCOMPARE(t.columns[1].missing_rows, std::vector<int64_t>{3});  // the empty note
}

void TstCsvTable::delimiterAndHeaderDetected_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<char>("delimiter");
  QTest::addColumn<bool>("header");
  QTest::newRow("comma, header") << QByteArray("a,b,c\n1,2,3\n4,5,6\n") << ',' << true;
  QTest::newRow("semicolon (decimal commas in text)")
      << QByteArray("a;b;label\n1;2;\"x,y\"\n4;5;z\n") << ';' << true;
  QTest::newRow("tab, spaces inside cells") << QByteArray("first name\tage\nAnn Lee\t31\n")
                                             << '\t' << true;
  QTest::newRow("no header: numbers on line 1") << QByteArray("1,2\n3,4\n") << ',' << false;
  // Words and numbers on line 1: a header when a word stands over a number of line 2.
  QTest::newRow("header of years and a word") << QByteArray("2019,2020,sales\n1.5,2.5,3.5\n4,5,6\n")
                                              << ',' << true;
  // Text cells of one length vote too, as Python's csv.Sniffer.has_header counts them (Python
  // says True / False for these two).
  QTest::newRow("header: text columns of one length")
      << QByteArray("2019,grade,result\n1.5,A,P\n2.5,B,F\n") << ',' << true;
  QTest::newRow("no header: line 1's text as long as its column's")
      << QByteArray("1.5,A,P\n2.5,B,F\n") << ',' << false;
  // A missing cell on line 2 says nothing; line 3 has the number below "sales" (Sniffer reads
  // the empty cell as text of length 0 and the column as mixed, so it says False).
  QTest::newRow("header: a missing cell on line 2")
      << QByteArray("2019,sales\n1,\n2,3\n") << ',' << true;
  QTest::newRow("no header: a text label column")
      << QByteArray("5.1,3.5,setosa\n4.9,3.0,setosa\n") << ',' << false;
  QTest::newRow("CRLF and a BOM")
      << QByteArray("\xEF\xBB\xBF" "a,b\r\n1,2\r\n3,4\r\n") << ',' << true;
  QTest::newRow("one column") << QByteArray("y\n1\n2\n") << ',' << true;
  QTest::newRow("blank lines skipped") << QByteArray("a,b\n\n1,2\n\n3,4\n") << ',' << true;
}

void TstCsvTable::delimiterAndHeaderDetected() {
  QFETCH(QByteArray, bytes);
  QFETCH(char, delimiter);
  QFETCH(bool, header);
  const QString file = write(QStringLiteral("detect.csv"), bytes);
  const CsvTable t = readCsv(file.toStdString());
  QCOMPARE(t.delimiter, delimiter);
  QCOMPARE(t.header, header);
  QCOMPARE(t.rows, int64_t{header ? bytes.count('\n') - 1 - bytes.count("\n\n") : 2});
  if (header) {
    QVERIFY(!t.columns.front().name.empty());
    QCOMPARE(t.columns.front().name.substr(0, 3) == "\xEF\xBB\xBF", false);  // BOM not in the name
  } else {
    QCOMPARE(t.columns.front().name, std::string("column 1"));
  }
  if (delimiter == '\t') QCOMPARE(t.columns[0].text[0], std::string("Ann Lee"));
  if (delimiter == ';') QCOMPARE(t.columns[2].text[0], std::string("x,y"));
}

void TstCsvTable::headerAndDelimiterAsTold() {
  // Words on both lines: "auto" takes line 1 as a header; "no" keeps it as data.
  const QString file = write(QStringLiteral("words.csv"), "red,small\nblue,large\n");
  QCOMPARE(readCsv(file.toStdString()).rows, int64_t{1});
  CsvReadOptions o;
  o.header = "no";
  const CsvTable t = readCsv(file.toStdString(), o);
  QCOMPARE(t.rows, int64_t{2});
  QCOMPARE(t.columns[0].text[0], std::string("red"));
  QCOMPARE(t.columns[1].name, std::string("column 2"));
  QCOMPARE(t.lineOf(1), int64_t{2});
  // One line of words and numbers, nothing to compare it with: data.
  const CsvTable single = readCsv(write(QStringLiteral("single.csv"), "1,cat\n").toStdString());
  QVERIFY(!single.header);
  QCOMPARE(single.rows, int64_t{1});
  QCOMPARE(single.columns[1].text[0], std::string("cat"));
  // Line 1 of words and numbers over more lines than the decision holds back (21): every
  // line read once, in order, with its own line number; the label column turns to text.
  QByteArray long_table("0.5,cat\n");
  for (int i = 1; i <= 30; ++i) long_table += QByteArray::number(i) + (i == 25 ? ",bad row,1\n" : ",dog\n");
  try {
    readCsv(write(QStringLiteral("long_bad.csv"), long_table).toStdString());
    QFAIL("a row of 3 cells was read");
  } catch (const Error& e) {
    QVERIFY2(std::string(e.what()).find("line 26 has 3 cell(s)") != std::string::npos, e.what());
  }
  long_table.replace(",bad row,1", ",bird");
  const CsvTable l = readCsv(write(QStringLiteral("long.csv"), long_table).toStdString());
  QVERIFY(!l.header);
  QCOMPARE(l.rows, int64_t{31});
  for (int r = 0; r < 31; ++r) {
    QCOMPARE(double(l.number(r, 0)), r == 0 ? 0.5 : double(r));
    QCOMPARE(l.columns[1].text[static_cast<size_t>(r)], std::string(r == 0 ? "cat" : r == 25 ? "bird" : "dog"));
    QCOMPARE(l.lineOf(r), int64_t{r + 1});
  }
  // Numbers on line 1 taken as names when told so.
  const QString numbers = write(QStringLiteral("numbers.csv"), "2020,2021\n1,2\n");
  o.header = "yes";
  const CsvTable n = readCsv(numbers.toStdString(), o);
  QCOMPARE(n.columns[1].name, std::string("2021"));
  QCOMPARE(n.find("2021"), int64_t{1});
  QCOMPARE(n.find("2022"), int64_t{-1});
  QCOMPARE(n.lineOf(0), int64_t{2});
  // A delimiter as told: ';' reads a comma table as one column per line.
  o.header = "auto";
  o.delimiter = ";";
  const CsvTable one = readCsv(write(QStringLiteral("c.csv"), "a,b\nx,y\n").toStdString(), o);
  QCOMPARE(one.columns.size(), size_t{1});
  QCOMPARE(one.columns[0].name, std::string("a,b"));
}

void TstCsvTable::numericTextIntegralAndMissing() {
  const QString file = write(QStringLiteral("mixed.csv"),
                             "id,x,label,score\n"
                             "1,0.5,cat,NA\n"
                             "2,,dog,7\n"
                             "3,-1e2,cat,?\n"
                             "4,inf,bird,9\n");
  CsvReadOptions o;
  o.missing = {"NA", "?"};
  const CsvTable t = readCsv(file.toStdString(), o);
  QCOMPARE(t.rows, int64_t{4});
  const CsvColumn& id = t.columns[0];
  QVERIFY(id.numeric && id.integral);
  QCOMPARE(t.numbers(0), (std::vector<float>{1, 2, 3, 4}));
  const CsvColumn& x = t.columns[1];
  QVERIFY(x.numeric && !x.integral);
  QCOMPARE(t.number(0, 1), 0.5f);
  QVERIFY(std::isnan(t.number(1, 1)));
  QCOMPARE(t.number(2, 1), -100.0f);
  QVERIFY(std::isinf(t.number(3, 1)));
  QCOMPARE(x.missing_rows, std::vector<int64_t>{1});
  const CsvColumn& label = t.columns[2];
  QVERIFY(!label.numeric);
  QCOMPARE(label.first_text_row, int64_t{0});
  QCOMPARE(label.text, (std::vector<std::string>{"cat", "dog", "cat", "bird"}));
  QVERIFY(t.numbers(2).empty());
  const CsvColumn& score = t.columns[3];
  QVERIFY(score.numeric && score.integral);  // the missing cells are not text
  QCOMPARE(score.missing_rows, (std::vector<int64_t>{0, 2}));
  QCOMPARE(t.number(1, 3), 7.0f);
  // Without the tokens, "NA" and "?" are words: a text column.
  const CsvTable plain = readCsv(file.toStdString());
  QVERIFY(!plain.columns[3].numeric);
  QCOMPARE(plain.columns[3].first_text, std::string("NA"));
  // 2^24 and beyond are not exact in float32: not class labels.
  const CsvTable big =
      readCsv(write(QStringLiteral("big.csv"), "a\n16777215\n16777216\n").toStdString());
  QVERIFY(big.columns[0].numeric && !big.columns[0].integral);
}

void TstCsvTable::aColumnThatTurnsToTextKeepsItsCellsAsWritten() {
  // Numbers first, a word on the last line: the column is text, and its earlier cells are
  // what the file says ("1.50", "007"), not numbers printed again.
  const QString file =
      write(QStringLiteral("late.csv"), "code,x\n1.50,1\n007,2\nn/a-x,3\n\"4\",4\n");
  const CsvTable t = readCsv(file.toStdString());
  const CsvColumn& code = t.columns[0];
  QVERIFY(!code.numeric);
  QCOMPARE(code.first_text_row, int64_t{2});
  QCOMPARE(code.first_text, std::string("n/a-x"));
  QCOMPARE(code.text, (std::vector<std::string>{"1.50", "007", "n/a-x", "4"}));
  QVERIFY(t.numbers(0).empty());
  QCOMPARE(t.numbers(1), (std::vector<float>{1, 2, 3, 4}));
}

void TstCsvTable::badFilesNameFileAndLine_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QString>("says");
  QTest::newRow("empty") << QByteArray("") << "is empty";
  QTest::newRow("only blank lines") << QByteArray("\n\n") << "is empty";
  QTest::newRow("header only") << QByteArray("a,b\n") << "no data rows";
  QTest::newRow("ragged row") << QByteArray("a,b\n1,2\n3,4,5\n6,7\n")
                              << "line 3 has 3 cell(s), but line 1 has 2";
  QTest::newRow("short row") << QByteArray("a,b,c\n1,2,3\n4,5\n") << "line 3 has 2 cell(s)";
  QTest::newRow("same name twice") << QByteArray("x,y,x\n1,2,3\n")
                                   << "columns 1 and 3 of the header (line 1) are both named 'x'";
  QTest::newRow("unnamed column") << QByteArray("x,,z\n1,2,3\n") << "column 2 of the header";
  QTest::newRow("quote never closed") << QByteArray("a,b\n1,\"open\n2,3\n")
                                      << "quoted cell is never closed";
  QTest::newRow("stray quote") << QByteArray("a,b\n1,2\n3,4\"5\n") << "line 3: a quote";
  // issue 44 item 14: a NUL byte in a label made a class of its own and cut the data report
  QTest::newRow("NUL in a cell") << QByteArray("a,label\n1,cat\n2,ca\0t\n", 21)
                                 << "line 3, column 'label': the cell holds a NUL byte";
  QTest::newRow("NUL in a number") << QByteArray("a,label\n1\0,cat\n", 15)
                                   << "line 2, column 'a': the cell holds a NUL byte";
}

void TstCsvTable::badFilesNameFileAndLine() {
  QFETCH(QByteArray, bytes);
  QFETCH(QString, says);
  const QString file = write(QStringLiteral("bad.csv"), bytes);
  try {
    readCsv(file.toStdString());
    QFAIL("no error");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Data);
    QCOMPARE(QString::fromStdString(e.subject()), file);
    const QString what = QString::fromUtf8(e.what());
    QVERIFY2(what.contains(file) && what.contains(says), qPrintable(what));
  }
  // Not a file: a missing one, and a folder.
  for (const QString& path : {dir_.filePath(QStringLiteral("missing.csv")), dir_.path()}) {
    try {
      readCsv(path.toStdString());
      QFAIL("no error");
    } catch (const Error& e) {
      QCOMPARE(e.code(), ErrorCode::Data);
      QVERIFY2(QString::fromUtf8(e.what()).contains(path), e.what());
    }
  }
}

void TstCsvTable::badOptionsNameTheKey() {
  const QString file = write(QStringLiteral("ok.csv"), "a\n1\n");
  for (const auto& [key, header, delimiter] :
       {std::tuple{"data.csv.header", "maybe", "auto"}, std::tuple{"data.csv.delimiter", "auto", "|"}}) {
    CsvReadOptions o;
    o.header = header;
    o.delimiter = delimiter;
    try {
      readCsv(file.toStdString(), o);
      QFAIL("no error");
    } catch (const Error& e) {
      QCOMPARE(e.code(), ErrorCode::Config);
      QCOMPARE(e.subject(), std::string(key));
    }
  }
}

QTEST_GUILESS_MAIN(TstCsvTable)
#include "tst_csv_table.moc"
