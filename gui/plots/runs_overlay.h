#pragma once
/// Curves of several runs on one plot, opened from the Runs window.
#include <QDialog>
#include <QStringList>
#include <filesystem>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;

namespace trainscope {

class RunStore;

/// 2-10 runs read from their folders (readRun) and held in a RunStore (holdRun: the series
/// every plot draws, run_feed.h), one metric at a time (overlayMetricComboBox:
/// per epoch val_loss, train_loss, val_accuracy, train_accuracy, lr, samples_per_second; per
/// step loss, grad_norm, grad_norm_clipped, lr) against step, epoch, samples seen or training
/// time (overlayXAxisComboBox; time: the runs' epoch_seconds summed, so pauses between epochs
/// are left out; within an epoch steps are spread evenly). Each run has its own colour and a
/// legend name: its folder plus the settings in which it differs from the others. The same
/// smoothing as the live view (TensorBoard's debiased EMA, overlaySmoothingSpinBox) is applied
/// per run; a curve of more than 4,096 points is folded by BoundedSeries (gui/model/run_history.h)
/// before it is drawn, as the live plots fold theirs. One run is the baseline (overlayBaselineComboBox); overlayReadoutLabel gives each
/// run's last and best value and their difference in % from the baseline's. A run still
/// training (the live run of the dashboard or a CLI run) is read again every second, so the
/// live run and any chosen runs share one plot.
class RunsOverlayDialog : public QDialog {
  Q_OBJECT
 public:
  /// Reads the runs into `store` (nullptr: a store of the dialog's own) under the keys
  /// runs::overlay(i); a folder that cannot be read is left out and named in the read-out.
  explicit RunsOverlayDialog(const QStringList& dirs, QWidget* parent = nullptr,
                             RunStore* store = nullptr);
  ~RunsOverlayDialog() override;

  /// Picks a metric / x axis by key ("val_loss", "step"); false for an unknown key.
  bool setMetric(const QString& key);
  bool setXAxis(const QString& key);
  void setBaseline(int run);
  void setSmoothing(double weight);
  /// The legend names and the read-out text (for tests).
  QStringList legendNames() const;
  QString readout() const;
  /// The points drawn for run `i` (after smoothing), for tests.
  std::vector<std::pair<double, double>> points(int i) const;
  QCustomPlot* plot() const { return plot_; }
  /// Reads the runs still being written again (the dialog does it every second) and redraws;
  /// returns how many are still being written.
  int refreshLive();

 private:
  void redraw();
  /// A run of the overlay: its store key runs::overlay(i) and what its x axes need.
  struct Held {
    std::string key;
    std::filesystem::path dir;
    double n_train = 1;  ///< training samples (the samples-seen axis)
    bool live = false;   ///< still being written
  };
  RunStore* store_ = nullptr;
  std::vector<Held> runs_;
  QStringList names_;
  QStringList unreadable_;
  QComboBox *metric_ = nullptr, *x_axis_ = nullptr, *baseline_ = nullptr;
  QDoubleSpinBox* smoothing_ = nullptr;
  QCheckBox* log_ = nullptr;
  QLabel* readout_ = nullptr;
  QCustomPlot* plot_ = nullptr;
};

}  // namespace trainscope
