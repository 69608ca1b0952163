#pragma once
// Helpers shared by the core suites; the run-directory readers are tests/common/run_files.h.
#include <QString>

#include <string>

#include "core/errors.h"
#include "run_files.h"

/// The message of the trainscope::Error `fn` throws, or "" when it throws none.
template <class Fn>
std::string errorOf(Fn&& fn) {
  try {
    fn();
  } catch (const trainscope::Error& e) {
    return e.what();
  }
  return {};
}

/// QCOMPARE for StopReason, shown by name (Qt Test's toString lookup would find core's
/// trainscope::toString, which returns std::string).
#define COMPARE_REASON(a, b)                                \
  QCOMPARE(QString::fromStdString(trainscope::toString(a)), \
           QString::fromStdString(trainscope::toString(b)))
