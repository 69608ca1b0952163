#include <QtTest/QtTest>
class Tsttst_data : public QObject { Q_OBJECT private Q_SLOTS: void placeholder() {} };
QTEST_GUILESS_MAIN(Tsttst_data)
#include "tst_data.moc"
