// The learning-rate spin box reads and writes values like 3e-4 without rounding them away.
#include <QtTest>

#include "gui/widgets/scientific_spin_box.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_scientific_spin_box_suite {

using trainscope::ScientificSpinBox;

class TstScientificSpinBox : public QObject {
  Q_OBJECT
 private slots:
  void format_data();
  void format();
  void parsesTyping();
  void validates();
  void steps125();
};

void TstScientificSpinBox::format_data() {
  QTest::addColumn<double>("value");
  QTest::addColumn<QString>("text");
  QTest::newRow("3e-4") << 3e-4 << QStringLiteral("3e-4");
  QTest::newRow("1e-6") << 1e-6 << QStringLiteral("1e-6");
  QTest::newRow("2.5e-5") << 2.5e-5 << QStringLiteral("2.5e-5");
  QTest::newRow("0.001 plain") << 0.001 << QStringLiteral("0.001");
  QTest::newRow("0.01 plain") << 0.01 << QStringLiteral("0.01");
  QTest::newRow("1 plain") << 1.0 << QStringLiteral("1");
  QTest::newRow("9.9999999e-5 rounds up to 1e-4") << 9.9999999e-5 << QStringLiteral("1e-4");
}

void TstScientificSpinBox::format() {
  QFETCH(double, value);
  QFETCH(QString, text);
  QCOMPARE(ScientificSpinBox::formatValue(value), text);
}

void TstScientificSpinBox::parsesTyping() {
  ScientificSpinBox box;
  box.setValue(3e-4);
  QCOMPARE(box.value(), 3e-4);  // not rounded to a fixed number of decimals
  QCOMPARE(box.text(), QStringLiteral("3e-4"));
  QCOMPARE(box.valueFromText(QStringLiteral("5E-3")), 5e-3);
  QCOMPARE(box.valueFromText(QStringLiteral("0.0007")), 7e-4);
  // A decimal comma (German keyboards) is read as the decimal point.
  QCOMPARE(box.valueFromText(QStringLiteral("0,0007")), 7e-4);
  QCOMPARE(box.valueFromText(QStringLiteral("2,5e-3")), 2.5e-3);
  box.clear();
  QTest::keyClicks(&box, QStringLiteral("7e-5"));
  QTest::keyClick(&box, Qt::Key_Enter);
  QCOMPARE(box.value(), 7e-5);
}

void TstScientificSpinBox::validates() {
  ScientificSpinBox box;
  int pos = 0;
  QString t = QStringLiteral("3e-4");
  QCOMPARE(box.validate(t, pos), QValidator::Acceptable);
  t = QStringLiteral("3e-");
  QCOMPARE(box.validate(t, pos), QValidator::Intermediate);
  t = QStringLiteral("abc");
  QCOMPARE(box.validate(t, pos), QValidator::Invalid);
  t = QStringLiteral("0,5");
  QCOMPARE(box.validate(t, pos), QValidator::Acceptable);
  t = QStringLiteral("100");  // above the maximum of 10
  QCOMPARE(box.validate(t, pos), QValidator::Intermediate);
}

void TstScientificSpinBox::steps125() {
  ScientificSpinBox box;
  box.setValue(1e-3);
  box.stepBy(1);
  QCOMPARE(box.value(), 2e-3);
  box.stepBy(1);
  QCOMPARE(box.value(), 5e-3);
  box.stepBy(1);
  QCOMPARE(box.value(), 1e-2);
  box.stepBy(-3);
  QCOMPARE(box.value(), 1e-3);
  box.stepBy(-1);
  QCOMPARE(box.value(), 5e-4);
}

TRAINSCOPE_GUI_TEST_MAIN(TstScientificSpinBox)
}  // namespace tst_scientific_spin_box_suite
#include "tst_scientific_spin_box.moc"
