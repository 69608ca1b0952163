#pragma once
/// The learning-rate range test dialog: runs core's findLearningRate off the GUI thread and
/// shows loss against learning rate with the suggestion.
#include <QDialog>
#include <optional>
#include <thread>

#include "core/config/config_fwd.h"
#include "core/train/probes/lr_finder.h"

class QLabel;
class QPushButton;

namespace trainscope {

class LrFindPlot;

/// Runs the LR range test (Smith 2015, fastai's lr_find: core findLearningRate with its default
/// LrFinderOptions, 1e-7 to 10 over 100 steps) for `config` from a fresh model on a thread of its
/// own, and draws the loss and its smoothed curve against the learning rate (log axis) with the
/// suggested learning rate marked, through the plots layer (LrFindPlot) (objectName
/// `lrFindDialog`). "Use this learning rate"
/// (`lrFindUseButton`, enabled once there is a suggestion) emits learningRateChosen. The window
/// never blocks while it runs; closing it waits for the sweep's last step (it cannot be cut
/// short, but 100 small steps take seconds).
class LrFindDialog : public QDialog {
  Q_OBJECT
 public:
  explicit LrFindDialog(const TrainConfig& config, QWidget* parent = nullptr);
  /// Waits for the sweep's thread.
  ~LrFindDialog() override;

  /// The finished sweep; nullopt while it runs or when it failed.
  const std::optional<LrFinderResult>& result() const { return result_; }
  bool running() const { return running_; }
  /// The error text (English, from core) when the sweep failed.
  const QString& error() const { return error_; }
  /// The vertical suggestion marker's position (for tests); 0 before the result.
  double markedLr() const { return marked_lr_; }
  LrFindPlot* plot() const { return plot_; }

 signals:
  /// The user chose the suggestion.
  void learningRateChosen(double lr);
  /// The sweep ended (result() or error() is set).
  void finished();

 private:
  void onResult(const LrFinderResult& result);
  void onError(const QString& error);
  void retranslate();

  std::thread worker_;
  bool running_ = true;
  std::optional<LrFinderResult> result_;
  QString error_;
  double marked_lr_ = 0;
  QLabel* status_;
  LrFindPlot* plot_;  ///< the plots layer's LrFindPlot (`lrFindPlot`)
  QPushButton* use_;
  QPushButton* close_;
};

}  // namespace trainscope
