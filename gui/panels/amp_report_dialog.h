#pragma once
/// The report of the AMP A/B comparison (ampCompareButton).
#include <QDialog>

#include "core/system/device_info.h"
#include "core/train/probes/repro.h"

namespace trainscope {

/// Shows an AmpCompareReport: both loss curves (`ampComparePlot`), max and mean |Δloss|,
/// samples/s with float32 and with AMP, the speed-up (`ampSpeedupLabel`), and why the speed-up
/// is what it is here (`ampExplanationLabel`: bf16 GEMMs on this CPU, native or emulated, vs
/// float32 on the BLAS; fp16 on CUDA). Non-modal; deletes itself when closed.
class AmpReportDialog : public QDialog {
  Q_OBJECT
 public:
  AmpReportDialog(const AmpCompareReport& report, const DeviceInfo& device,
                  QWidget* parent = nullptr);
  const AmpCompareReport& report() const { return report_; }

  /// The translated why-text for `report` measured on `device`.
  static QString explanation(const AmpCompareReport& report, const DeviceInfo& device);

 private:
  AmpCompareReport report_;
};

}  // namespace trainscope
