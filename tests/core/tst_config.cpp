#include <QtTest/QtTest>
class Tsttst_config : public QObject { Q_OBJECT private Q_SLOTS: void placeholder() {} };
QTEST_GUILESS_MAIN(Tsttst_config)
#include "tst_config.moc"
