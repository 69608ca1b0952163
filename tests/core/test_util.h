#pragma once
// Helpers shared by the core suites; the run-directory readers are tests/common/run_files.h.
#include <QString>

#include <string>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
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

/// A full-batch linear regression (Linear(1,1) on standardised sine inputs, 40 training
/// samples, one step per epoch) trained by SGD at lr 50, 40 epochs: both modes of the Hessian
/// 2*I give a factor |1 - 2*lr| = 99 per step, so the loss grows ~1e4x per step until it
/// overflows. The suites that watch a run explode start from it.
inline trainscope::TrainConfig explodingLinear() {
  trainscope::TrainConfig c = trainscope::resolveConfig("overfit-sine", {}, {});
  c.name = "linear";
  c.data.n_samples = 50;
  c.data.val_fraction = 0.2;
  c.model.hidden = {};
  c.optimizer.name = "sgd";
  c.optimizer.lr = 50;
  c.training.batch_size = 64;
  c.training.epochs = 40;
  c.training.seed = 5;
  c.training.num_threads = 1;
  return c;
}
