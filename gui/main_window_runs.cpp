// MainWindow and run folders: the Runs window (File > Runs...) shows runs and the main window
// opens, continues or reruns the one chosen; a past run shown from its folder; the runs root.
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

#include "gui/main_window.h"
#include "gui/engine/run_session.h"
#include "gui/panels/events_panel.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"
#include "gui/views/folder_dialogs.h"
#include "gui/runs/runs_window.h"

namespace trainscope {

void MainWindow::showRunFrom(QWidget* from, const QString& dir) {
  QString error;
  if (controller_->isActive()) {
    QMessageBox::information(from, Tr::tr("Runs"), Tr::tr("Stop the current run before showing another."));
  } else if (!openRun(dir, &error)) {
    tellPastRunRefused(from, error);
  } else {
    raise();
    activateWindow();
  }
}

void MainWindow::ghostRunFrom(QWidget* from, const QString& dir) {
  QString error;
  if (!controller_->setGhostRun(dir, &error)) {
    QMessageBox::warning(from, Tr::tr("Beside the live run"), error);
    return;
  }
  loss_plot_->setGhostChanges(controller_->store()->ghostChanges(), controller_->store()->ghostName(), true);
  loss_plot_->sync();
  raise();
}

void MainWindow::showRunsWindow() {
  if (!runs_window_) {
    runs_window_ = new RunsWindow(runs_root_, this);
    connect(runs_window_, &RunsWindow::openRequested, this,
            [this](const QString& dir) { showRunFrom(runs_window_, dir); });
    connect(runs_window_, &RunsWindow::continueRequested, this, [this](const QString& file) {
      QString error;
      if (!loadCheckpoint(file, &error))
        QMessageBox::warning(runs_window_, Tr::tr("Continue"), error);
      else
        raise();
    });
    connect(runs_window_, &RunsWindow::rerunRequested, this, [this](const QString& file) {
      QString error;
      if (controller_->isActive())
        QMessageBox::information(runs_window_, Tr::tr("Runs"),
                                 Tr::tr("Stop the current run before loading other settings."));
      else if (!openConfigFile(file, &error))
        QMessageBox::warning(runs_window_, Tr::tr("Run again"), error);
      else
        raise();
    });
    connect(runs_window_, &RunsWindow::replayRequested, this, [this](const QString& dir) {
      QString error;
      if (controller_->isActive())
        QMessageBox::information(runs_window_, Tr::tr("Runs"),
                                 Tr::tr("Stop the current run before replaying another."));
      else if (!controller_->replayRun(dir, runs_root_, &error))
        QMessageBox::warning(runs_window_, Tr::tr("Replay"), error);
      else {  // the settings show what the replay started with
        settings_->setConfig(controller_->store()->config(), QFileInfo(dir).fileName() +
                                                        QStringLiteral("/config.json"));
        raise();
      }
    });
    connect(runs_window_, &RunsWindow::ghostRequested, this,
            [this](const QString& dir) { ghostRunFrom(runs_window_, dir); });
  } else {
    runs_window_->reload();
  }
  runs_window_->show();
  runs_window_->raise();
  runs_window_->activateWindow();
}

void MainWindow::showRunMarks(const RunInfo& info) {
  loss_plot_->setGhostChanges(controller_->store()->ghostChanges(), controller_->store()->ghostName(),
                              controller_->store()->ghostChosen());
  loss_plot_->setMistakes(info.mistakes);  // the status bar shows them from the run info
}

void MainWindow::onFollowStatus(FollowState state, double idleSeconds) {
  const QString run = QFileInfo(controller_->store()->runDirectory()).fileName();
  QString text;
  switch (state) {
    case FollowState::Waiting:  // openRun follows only a run with run.json: as running
    case FollowState::Running:
      text = Tr::tr("Following %1: another process is training it; new steps appear as they are written.").arg(run);
      break;
    case FollowState::Stalled:
      text = Tr::tr("Following %1: stalled, nothing written for %2 s (the run is paused, in a long "
                    "epoch or validation, or hung).").arg(run).arg(qRound(idleSeconds));
      break;
    case FollowState::Crashed:
      text = Tr::tr("%1 stopped without finishing: its process ended (killed or crashed).").arg(run);
      break;
    case FollowState::Finished:
      text = Tr::tr("%1 has finished.").arg(run);
      break;
  }
  statusBar()->showMessage(text);
}

bool MainWindow::openRun(const QString& dir, QString* error) {
  events_->setPastRun(true);  // its events arrive now, but did not happen now
  const bool opened = controller_->openRun(dir, error);
  events_->setPastRun(false);
  if (!opened) return false;
  const QString folder = QFileInfo(controller_->store()->runDirectory()).fileName();
  settings_->setConfig(controller_->store()->config(), folder + QStringLiteral("/config.json"));
  setWindowTitle(Tr::tr("TrainScope – %1").arg(folder));
  return true;
}

void MainWindow::onOpenRun() {
  QString error;
  const QString dir = askPastRunFolder(this, runs_root_);
  if (!dir.isEmpty() && !openRun(dir, &error)) tellPastRunRefused(this, error);
}

void MainWindow::onChooseRunsRoot() {
  const QString dir = chooseRunsRoot(this, runs_root_);
  if (dir.isEmpty()) return;
  runs_root_ = dir;
  statusBar()->showMessage(Tr::tr("New runs are saved under %1").arg(dir), 5000);
}

}  // namespace trainscope
