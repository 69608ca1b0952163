#pragma once
/// The "data and model" group: what the current run trains on and with.
#include <QGroupBox>
#include <optional>
#include <vector>

#include "core/run/records.h"

class QLabel;

namespace trainscope {

/// Dataset, split sizes, classes, the effective batch size (`effectiveBatchLabel`: batch size x
/// gradient accumulation steps), parameter count and model description from RunInfo.
class RunInfoPanel : public QGroupBox {
  Q_OBJECT
 public:
  explicit RunInfoPanel(QWidget* parent = nullptr);
  /// Fills the panel from the run's RunInfo (sent before the first step).
  void setRunInfo(const RunInfo& info);
  /// Shows "no run yet" placeholders.
  void clear();
  /// Sets every text in the current language.
  void retranslate();

 private:
  std::optional<RunInfo> info_;
  std::vector<QLabel*> captions_;
  QLabel* dataset_ = nullptr;
  QLabel* sizes_ = nullptr;
  QLabel* classes_ = nullptr;
  QLabel* batch_ = nullptr;  ///< effective batch: batch_size x grad_accum_steps
  QLabel* parameters_ = nullptr;
  QLabel* model_ = nullptr;
};

}  // namespace trainscope
