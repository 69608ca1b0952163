#pragma once
/// The views that make overfitting visible, wired to the training controller: the
/// live model view, accuracy and learning-rate plots, the loss plot's event markers, the live
/// learning rate and the learning-rate range test.
#include <QObject>
#include <QPointer>
#include <QString>

namespace trainscope {

class DistributionsView;
class EmbeddingView;
class EvaluationView;
class LrFindDialog;
class ModelView;
class PlotArea;
class PlotView;
class SettingsPanel;
class RunCommands;

/// Created once by the main window. Adds `modelView` (front), `accuracyPlot` and
/// `evaluationView` (the validation's confusion matrix, worst samples) as side tabs of `area`,
/// `lrPlot` as a bottom tab beside the gradient norm; forwards the store's model views, epochs
/// (early-stopping preview) and events (overfitting onset, early stop, learning-rate changes)
/// to them and to the loss plot; keeps `learningRateSpinBox` enabled during a run (its edits go
/// live through SettingsPanel::liveSettingEdited); `lrFindButton` opens an LrFindDialog for the
/// settings' config, whose choice sets the spin box.
class OverfittingViews : public QObject {
  Q_OBJECT
 public:
  OverfittingViews(RunCommands* controller, PlotArea* area, SettingsPanel* settings,
                   QObject* parent = nullptr);

  ModelView* modelView() const { return model_view_; }
  PlotView* accuracyView() const { return accuracy_view_; }
  PlotView* lrView() const { return lr_view_; }
  EvaluationView* evaluationView() const { return evaluation_view_; }
  /// The open range-test dialog, if any.
  LrFindDialog* lrFindDialog() const;
  /// Opens the range-test dialog for the settings' current config (lrFindButton).
  void openLrFind();

 private:
  double stepsPerEpoch() const;
  void updateEnabled();

  RunCommands* controller_;
  PlotArea* area_;
  SettingsPanel* settings_;
  ModelView* model_view_;
  PlotView* accuracy_view_;
  PlotView* lr_view_;
  EvaluationView* evaluation_view_;
  EmbeddingView* embedding_view_;
  DistributionsView* distributions_view_;
  QPointer<LrFindDialog> dialog_;
  double steps_per_epoch_ = 0;
};

}  // namespace trainscope
