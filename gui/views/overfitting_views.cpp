#include "gui/views/overfitting_views.h"

#include <cmath>

#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/epoch_plots.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"
#include "gui/views/distributions_view.h"
#include "gui/views/embedding_view.h"
#include "gui/views/evaluation_view.h"
#include "gui/views/lr_find_dialog.h"
#include "gui/views/model_view.h"

namespace trainscope {

OverfittingViews::OverfittingViews(RunCommands* controller, PlotArea* area,
                                   SettingsPanel* settings, QObject* parent)
    : QObject(parent), controller_(controller), area_(area), settings_(settings) {
  setObjectName(QStringLiteral("overfittingViews"));
  model_view_ = new ModelView;
  accuracy_view_ = new PlotView(new AccuracyPlot, QStringLiteral("accuracy"));
  lr_view_ = new PlotView(new LrPlot, QStringLiteral("lr"));
  area->addView(PlotArea::Slot::Side, model_view_, [] { return Tr::tr("Model"); },
                QStringLiteral("model"));
  area->addView(PlotArea::Slot::Side, accuracy_view_, [] { return Tr::tr("Accuracy"); },
                QStringLiteral("accuracy"));
  // The learning rate is a per-step curve: below the loss, beside the gradient norm.
  area->addView(PlotArea::Slot::Bottom, lr_view_, [] { return Tr::tr("Learning rate"); },
                QStringLiteral("lr"));
  evaluation_view_ = new EvaluationView;
  area->addView(PlotArea::Slot::Side, evaluation_view_, [] { return Tr::tr("Evaluation"); },
                QStringLiteral("evaluation"));
  connect(controller->store(), &RunStore::validationDetailUpdated, evaluation_view_,
          &EvaluationView::setDetail);
  connect(controller->store(), &RunStore::epochFinished, evaluation_view_,
          &EvaluationView::setEpoch);
  embedding_view_ = new EmbeddingView;
  // Beside the gradient plots: the side tabs are full at 1024x768.
  area->addView(PlotArea::Slot::Bottom, embedding_view_, [] { return Tr::tr("Embedding"); },
                QStringLiteral("embedding"));
  connect(controller->store(), &RunStore::validationDetailUpdated, embedding_view_,
          &EmbeddingView::setDetail);
  distributions_view_ = new DistributionsView;
  area->addView(PlotArea::Slot::Bottom, distributions_view_, [] { return Tr::tr("Distributions"); },
                QStringLiteral("distributions"));
  connect(controller->store(), &RunStore::distributionsRecorded, distributions_view_,
          &DistributionsView::addRecord);
  area->showView(model_view_);
  connect(area, &PlotArea::presentationChanged, model_view_, &ModelView::setPresentation);

  LossPlot* loss = area->lossPlot();
  connect(controller->store(), &RunStore::runStarted, this, [this, loss](const RunInfo& info) {
    loss->clearAnnotations();
    evaluation_view_->setRunInfo(info);
    embedding_view_->setRunInfo(info);
    distributions_view_->clear();
    distributions_view_->setOff(controller_->store()->config().training.distributions_every == 0);
    model_view_->clear(controller_->store()->isReadBack());
    model_view_->setData(info.data);
    steps_per_epoch_ = 0;
  });
  connect(controller->store(), &RunStore::modelViewUpdated, model_view_, &ModelView::setRecord);
  connect(controller->store(), &RunStore::epochFinished, this, [this, loss](const EpochRecord& e) {
    if (e.epoch > 0 && e.step > 0)
      steps_per_epoch_ = static_cast<double>(e.step) / static_cast<double>(e.epoch);
    loss->setEarlyStopPreview(e.early_stop_at, stepsPerEpoch());
  });
  connect(controller->store(), &RunStore::eventOccurred, this, [this, loss](const Event& e) {
    loss->addEvent(e, stepsPerEpoch());
  });

  // The learning rate is a live control (RunCommands::setLiveSetting, wired by the main
  // window): enabled while running or paused.
  connect(settings, &SettingsPanel::lrFindRequested, this, &OverfittingViews::openLrFind);
  connect(controller, &RunCommands::stateChanged, this, &OverfittingViews::updateEnabled);
  updateEnabled();
}

LrFindDialog* OverfittingViews::lrFindDialog() const { return dialog_.data(); }

double OverfittingViews::stepsPerEpoch() const {
  if (steps_per_epoch_ > 0) return steps_per_epoch_;
  const qint64 epochs = controller_->store()->totalEpochs();
  return epochs > 0 && controller_->store()->totalSteps() > 0
             ? static_cast<double>(controller_->store()->totalSteps()) / static_cast<double>(epochs)
             : 1.0;
}

void OverfittingViews::updateEnabled() {
  using State = RunState;
  const State s = controller_->state();
  settings_->setLearningRateEnabled(s != State::Stopping);
  // The range test trains a throwaway model with the settings: not while a run trains.
  settings_->setLrFindEnabled(s != State::Running && s != State::Stopping && !dialog_);
}

void OverfittingViews::openLrFind() {
  if (dialog_) {
    dialog_->raise();
    return;
  }
  auto* parent = settings_->window();
  dialog_ = new LrFindDialog(settings_->config(), parent);
  dialog_->setAttribute(Qt::WA_DeleteOnClose);
  // Applies live through liveSettingEdited when a run is active.
  connect(dialog_, &LrFindDialog::learningRateChosen, settings_, &SettingsPanel::setLearningRate);
  connect(dialog_, &QObject::destroyed, this, &OverfittingViews::updateEnabled,
          Qt::QueuedConnection);
  dialog_->show();
  updateEnabled();
}

}  // namespace trainscope
