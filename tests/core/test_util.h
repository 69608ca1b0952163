#pragma once
// Helpers shared by the core suites; the run-directory readers are tests/common/run_files.h.
#include <QString>

#include "run_files.h"

/// QCOMPARE for StopReason, shown by name (Qt Test's toString lookup would find core's
/// trainscope::toString, which returns std::string).
#define COMPARE_REASON(a, b)                                \
  QCOMPARE(QString::fromStdString(trainscope::toString(a)), \
           QString::fromStdString(trainscope::toString(b)))
