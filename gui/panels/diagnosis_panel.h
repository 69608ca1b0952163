#pragma once
/// The loss doctor's reading of the current run.
#include <QWidget>

#include "core/run/watch_records.h"

class QLabel;

namespace trainscope {

class RunStore;

/// Shows RunStore::lastDiagnosis(): the kind (translated: diverging, flat, plateau,
/// overfitting, healthy, too early), the doctor's one-sentence summary, its evidence (numbers
/// from the run) and the checks to make, most likely first; updates on diagnosisChanged and
/// starts again with each run. The summary, evidence and checks are core's English sentences.
/// objectName `diagnosisPanel` (the kind: `diagnosisKindLabel`).
class DiagnosisPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DiagnosisPanel(const RunStore* store, QWidget* parent = nullptr);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();

  const RunStore* store_;
  QLabel* kind_;
  QLabel* body_;
};

}  // namespace trainscope
