#pragma once
/// The report of the reproducibility check (verifyReproButton).
#include <QDialog>
#include <vector>

#include "core/train/probes/repro.h"

class QCustomPlot;
class QLabel;

namespace trainscope {

/// A small plot of two per-step loss curves (the reproducibility check's runs, the AMP A/B's
/// float32 and AMP runs): step 1..n on x, loss on y, with a legend naming `nameA` / `nameB`.
QCustomPlot* makeLossComparePlot(const std::vector<double>& a, const std::vector<double>& b,
                                 const QString& nameA, const QString& nameB, QWidget* parent);

/// Shows a ReproReport: the verdict (`reproVerdictLabel`: "Bitwise identical" or "Differs by
/// X"), max |Δloss| over the compared steps, max |Δweight| over the final parameters, seeds,
/// threads, device, the likely causes when the runs differ (`reproCausesLabel`, from the
/// report's cause codes) and both loss curves. Non-modal; deletes itself when closed.
class ReproReportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ReproReportDialog(const ReproReport& report, QWidget* parent = nullptr);
  const ReproReport& report() const { return report_; }
  /// The verdict line as shown.
  QString verdictText() const;

  /// Translated explanation of one of verifyRepro's cause codes ("unseeded",
  /// "nondeterministic_kernels", "amp", "threads"); the code itself for others.
  static QString causeText(const std::string& code, const ReproReport& report);

 private:
  ReproReport report_;
  QLabel* verdict_ = nullptr;
};

}  // namespace trainscope
