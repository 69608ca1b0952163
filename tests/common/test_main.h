#pragma once
/// TRAINSCOPE_TEST_MAIN(Class): a Qt Test suite's entry point. In an executable of its own it is
/// QTEST_GUILESS_MAIN(Class). In a grouped executable (TRAINSCOPE_TEST_GROUP defined: the core
/// suites that use torch are one executable compiled in unity batches, issue 45: one link
/// instead of 24, the torch headers parsed once per batch) it registers the suite under its
/// file's name (tst_model), and tests/common/test_group_main.cpp runs the suite its first
/// argument names, with the rest as Qt Test's options: `core_tests tst_model -v2`. The
/// dashboard's suites are gui_tests alike (TRAINSCOPE_GUI_TEST_MAIN: a QApplication).
#include <QtTest/QtTest>
#include <map>
#include <string>

namespace trainscope::test {

/// Runs one suite: Qt Test's qExec with `argc`/`argv` (the suite's name removed).
using SuiteRun = int (*)(int argc, char** argv);

/// The suites of a grouped executable by name (defined in test_group_main.cpp).
std::map<std::string, SuiteRun>& suites();

/// Registers `run` under the base name of `file` without its extension; returns true.
inline bool registerSuite(const char* file, SuiteRun run) {
  std::string name = file;
  name = name.substr(name.find_last_of('/') + 1);
  name = name.substr(0, name.rfind('.'));
  suites()[name] = run;
  return true;
}

}  // namespace trainscope::test

#ifdef TRAINSCOPE_TEST_GROUP
#define TRAINSCOPE_TEST_MAIN(TestObject)                                                       \
  namespace {                                                                                  \
  const bool trainscope_suite_##TestObject = ::trainscope::test::registerSuite(                \
      __FILE__, [](int argc, char** argv) {                                                    \
        TestObject tc;                                                                         \
        QTest::setMainSourcePath(__FILE__);                                                    \
        return QTest::qExec(&tc, argc, argv);                                                  \
      });                                                                                      \
  }
/// The dashboard's suites: the group's main makes a QApplication (TRAINSCOPE_TEST_GROUP_GUI).
#define TRAINSCOPE_GUI_TEST_MAIN(TestObject) TRAINSCOPE_TEST_MAIN(TestObject)
#else
#define TRAINSCOPE_TEST_MAIN(TestObject) QTEST_GUILESS_MAIN(TestObject)
#define TRAINSCOPE_GUI_TEST_MAIN(TestObject) QTEST_MAIN(TestObject)
#endif
