#pragma once
/// The time limit of an import check (inspect-model, train --dry-run): the model's own code
/// (a TorchScript __setstate__ or forward, core/system/foreign_code.h) that has not returned
/// after it ends the process with a message naming what ran, exit 2 (such a
/// model hung every front end). The limit is 60 s, or TRAINSCOPE_MODEL_CHECK_SECONDS.
#include <atomic>
#include <thread>

namespace trainscope::cli {

class ModelTimeLimit {
 public:
  ModelTimeLimit();
  ~ModelTimeLimit();
  ModelTimeLimit(const ModelTimeLimit&) = delete;
  ModelTimeLimit& operator=(const ModelTimeLimit&) = delete;

  /// The limit in seconds (60, or TRAINSCOPE_MODEL_CHECK_SECONDS when it is a positive number).
  static double seconds();

 private:
  std::atomic<bool> quit_{false};
  std::thread thread_;
};

}  // namespace trainscope::cli
