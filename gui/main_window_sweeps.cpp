// MainWindow and sweeps: the Sweeps window (File > Sweeps...) follows the sweeps of the runs
// folder; File > New sweep... starts one from the current settings (a trainscope-cli sweep
// process, the one writer of its folder).
#include <QDateTime>
#include <QScreen>
#include <algorithm>
#include <QMessageBox>
#include <QTimer>
#include <functional>
#include <memory>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "gui/main_window.h"
#include "gui/sweeps/new_sweep_dialog.h"
#include "gui/sweeps/sweep_launcher.h"
#include "gui/sweeps/sweeps_window.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/tr.h"

namespace trainscope {

void MainWindow::showSweepsWindow(const QString& dir) { showSweepsWindowThen(dir, {}); }

void MainWindow::showSweepsWindowThen(const QString& dir, std::function<void(SweepsWindow*)> then) {
  if (!sweeps_window_) {
    sweeps_window_ = new SweepsWindow(runs_root_, this);
    connect(sweeps_window_, &SweepsWindow::openRequested, this,
            [this](const QString& run) { showRunFrom(sweeps_window_, run); });
    connect(sweeps_window_, &SweepsWindow::ghostRequested, this,
            [this](const QString& run) { ghostRunFrom(sweeps_window_, run); });
  } else {
    sweeps_window_->rescan();
  }
  if (!dir.isEmpty() && !sweeps_window_->openSweep(dir)) {
    // A sweep just started writes its sweep.json within moments: look again until it does
    // (10 s at most).
    auto* poll = new QTimer(this);
    auto tries = std::make_shared<int>(0);
    connect(poll, &QTimer::timeout, this, [this, poll, tries, dir, then] {
      const bool read = sweeps_window_->openSweep(dir);
      if (read && then) then(sweeps_window_);
      if (read || ++*tries > 100) {
        poll->stop();
        poll->deleteLater();
      }
    });
    poll->start(100);
  } else if (!dir.isEmpty() && then) {
    then(sweeps_window_);
  }
  sweeps_window_->show();
  sweeps_window_->raise();
  sweeps_window_->activateWindow();
}

bool MainWindow::startSweep(const SweepLaunch& launch, QString* error) {
  const QString dir = startSweepProcess(launch, runs_root_, error);
  if (dir.isEmpty()) return false;
  showSweepsWindow(dir);
  return true;
}

bool MainWindow::startLessonSweep(const nlohmann::json& sweep, QString* error) {
  SweepLaunch launch{sweep, configToJson(currentConfig())};
  if (!launch.sweep.contains("name"))
    launch.sweep["name"] = "lesson-" + QDateTime::currentDateTime()
                                          .toString(QStringLiteral("yyyyMMdd-HHmmss"))
                                          .toStdString();
  const QString dir = startSweepProcess(launch, runs_root_, error);
  if (dir.isEmpty()) return false;
  const QString first = QString::fromStdString(sweep["parameters"].begin().key());
  showSweepsWindowThen(dir, [this, first](SweepsWindow* w) {
    w->showTab(1);
    w->setScatterParameter(first);
    // below the lesson panel, so that the step's text and Next stay in view
    const QRect panel(lessonPanel()->mapToGlobal(QPoint(0, 0)), lessonPanel()->size());
    const QRect area = this->screen() ? this->screen()->availableGeometry() : geometry();
    const int top = std::min(panel.bottom() + 8, area.bottom() - 300);
    w->setGeometry(area.left() + 8, top, std::min(1000, area.width() - 16),
                   std::max(300, area.bottom() - top - 8));
  });
  return true;
}

void MainWindow::newSweep() {
  auto* dialog = new NewSweepDialog(configToJson(currentConfig()), runs_root_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &NewSweepDialog::started, this, [this](const QString& dir) { showSweepsWindow(dir); });
  dialog->show();
}

}  // namespace trainscope
