#include <QtTest/QtTest>
class Tsttst_run_files : public QObject { Q_OBJECT private Q_SLOTS: void placeholder() {} };
QTEST_GUILESS_MAIN(Tsttst_run_files)
#include "tst_run_files.moc"
