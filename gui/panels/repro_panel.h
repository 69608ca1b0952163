#pragma once
/// The "reproducibility and precision" group: the reproducibility check and the AMP A/B.
#include <QGroupBox>
#include <QPointer>
#include <functional>
#include <memory>

#include "core/config/config_fwd.h"
#include "core/system/device_info.h"
#include "gui/panels/repro_job.h"

class QDialog;
class QLabel;
class QProgressDialog;
class QPushButton;
class QSpinBox;

namespace trainscope {

class RunCommands;

/// Two checks on the current settings, each training them twice for K steps in this process
/// on a CompareJob thread (reproStepsSpinBox, default 100): `verifyReproButton` runs
/// verifyRepro (same config and seed twice) and opens a ReproReportDialog; `ampCompareButton`
/// runs compareAmp (float32, then AMP, same seed) and opens an AmpReportDialog. While a check
/// runs, a window-modal progress dialog (`compareProgressDialog`, with Cancel) keeps the
/// window responsive but idle; both buttons are disabled while a training run is active (the
/// check would share its cores and its libtorch thread pool).
class ReproPanel : public QGroupBox {
  Q_OBJECT
 public:
  /// `config` returns the settings a run would use now; `controller` (not owned) tells when a
  /// run is active.
  ReproPanel(const RunCommands* controller, std::function<TrainConfig()> config,
             const DeviceInfo& device, QWidget* parent = nullptr);
  ~ReproPanel() override;

  /// Starts the reproducibility check / the AMP A/B on the current settings; false (nothing
  /// started) while a check or a run is active.
  bool verifyRepro();
  bool compareAmp();
  /// The check in progress, or nullptr.
  CompareJob* job() const { return job_.get(); }
  /// The report dialog shown last (nullptr once closed).
  QDialog* lastReport() const { return last_report_; }
  void retranslate();

 signals:
  /// A report dialog was opened (also after a failure: a message box is not a report).
  void reportShown(QDialog* dialog);
  /// A check ended with an error; `message` is core's English detail.
  void checkFailed(const QString& message);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  bool start(CompareJob::Kind kind);
  void onProgress(int run, qint64 step);
  void endJob();
  void updateEnabled();
  void showReport(QDialog* dialog);

  const RunCommands* controller_;
  std::function<TrainConfig()> config_;
  DeviceInfo device_;
  std::unique_ptr<CompareJob> job_;
  QPointer<QProgressDialog> progress_;
  QPointer<QDialog> last_report_;
  QLabel* steps_caption_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QPushButton* verify_ = nullptr;
  QPushButton* compare_ = nullptr;
};

}  // namespace trainscope
