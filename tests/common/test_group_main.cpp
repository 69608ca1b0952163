// The entry point of a grouped test executable (tests/common/test_main.h): `GROUP SUITE
// [Qt Test options]` runs SUITE; without a known suite it lists them and exits 2.
#ifdef TRAINSCOPE_TEST_GROUP_GUI
#include <QApplication>
#else
#include <QCoreApplication>
#endif
#include <cstdio>
#include <vector>

#include "test_main.h"

namespace trainscope::test {

std::map<std::string, SuiteRun>& suites() {
  static std::map<std::string, SuiteRun> all;
  return all;
}

}  // namespace trainscope::test

int main(int argc, char** argv) {
  const auto& all = trainscope::test::suites();
  const auto it = argc >= 2 ? all.find(argv[1]) : all.end();
  if (it == all.end()) {
    std::fprintf(stderr, "usage: %s SUITE [Qt Test options]; suites:\n", argv[0]);
    for (const auto& [name, run] : all) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  // As QTEST_GUILESS_MAIN: the application object first, the suite's name out of the options.
  std::vector<char*> args{argv[0]};
  args.insert(args.end(), argv + 2, argv + argc);
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);  // argv[argc]
#ifdef TRAINSCOPE_TEST_GROUP_GUI
  QApplication app(n, args.data());  // as QTEST_MAIN with Qt Widgets
#else
  QCoreApplication app(n, args.data());  // as QTEST_GUILESS_MAIN
#endif
  app.setAttribute(Qt::AA_Use96Dpi, true);
  return it->second(n, args.data());
}
