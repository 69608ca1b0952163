// MainWindow's menus, language switch, texts and remembered layout, split from
// main_window.cpp by concern.
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>

#include "gui/engine/run_session.h"
#include "gui/main_menu.h"
#include "gui/main_window.h"
#include "gui/panels/checkpoint_panel.h"
#include "gui/panels/device_panel.h"
#include "gui/panels/events_panel.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/panels/run_info_panel.h"
#include "gui/panels/run_status.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/plot_area.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/teaching/presentation.h"
#include "gui/tr.h"

namespace trainscope {

void MainWindow::buildMenus() {
  menu_ = new MainMenu(menuBar(), this);
  connect(menu_, &MainMenu::openConfig, settings_, &SettingsPanel::openConfigDialog);
  connect(menu_, &MainMenu::saveConfig, settings_, &SettingsPanel::saveConfigDialog);
  connect(menu_, &MainMenu::importWeights, checkpoint_, &CheckpointPanel::importWeightsDialog);
  connect(menu_, &MainMenu::checkShapes, settings_, &SettingsPanel::openShapesDialog);
  connect(menu_, &MainMenu::importTorchScript, settings_, &SettingsPanel::openTorchScriptDialog);
  connect(menu_, &MainMenu::openRunFolder, progress_, &RunProgressPanel::openRunFolder);
  connect(menu_, &MainMenu::openRun, this, &MainWindow::onOpenRun);
  connect(menu_, &MainMenu::showRuns, this, &MainWindow::showRunsWindow);
  connect(menu_, &MainMenu::showSweeps, this, [this] { showSweepsWindow(); });
  connect(menu_, &MainMenu::newSweep, this, &MainWindow::newSweep);
  connect(menu_, &MainMenu::chooseRunsRoot, this, &MainWindow::onChooseRunsRoot);
  connect(menu_, &MainMenu::quit, this, &QWidget::close);
  menu_->setVersions(QString::fromStdString(device_info_.trainscope_version),
                     QString::fromStdString(device_info_.torch_version));
  // View: presentation mode (F5 full screen; Esc leaves, the menu follows).
  connect(menu_, &MainMenu::presentationToggled, this,
          [this](bool on) { presentation_->setActive(on, /*fullScreen=*/true); });
  connect(menu_, &MainMenu::presentationScaleChosen, presentation_, &Presentation::setScale);
  connect(menu_, &MainMenu::presentationBottomToggled, presentation_,
          &Presentation::setShowBottom);
  connect(presentation_, &Presentation::activeChanged, this, [this](bool on) {
    menu_->setPresentation(on, presentation_->scale());
    lesson_panel_->refresh();  // what the step looks at, shown and framed in the new layout
  });
  menu_->setPresentation(false, presentation_->scale());
  // File > Lessons (main_window_lessons.cpp).
  connect(menu_, &MainMenu::openLessonFile, this, &MainWindow::onOpenLessonFile);
  connect(menu_, &MainMenu::saveLesson, this, &MainWindow::onSaveLesson);
  connect(menu_, &MainMenu::showPythonCode, this, &MainWindow::onShowPythonCode);
  connect(menu_, &MainMenu::exportReport, this, &MainWindow::onExportReport);
  connect(menu_, &MainMenu::exportModel, this, &MainWindow::onExportModel);
  connect(menu_, &MainMenu::openLesson, this, [this](const QString& name) {
    QString error;
    if (!openLesson(name, &error)) QMessageBox::warning(this, Tr::tr("Cannot open the lesson"), error);
  });
  listBuiltInLessons();
}

void MainWindow::changeEvent(QEvent* event) {
  // installTranslations() makes Qt send LanguageChange: every text follows at once.
  if (event->type() == QEvent::LanguageChange) retranslate();
  QMainWindow::changeEvent(event);
}

void MainWindow::retranslate() {
  menu_->retranslate();
  settings_->retranslate();
  controls_->retranslate();
  checkpoint_->retranslate();
  device_panel_->retranslate();
  info_panel_->retranslate();
  progress_->retranslate();
  plot_area_->retranslate();
  events_->retranslate();
  status_->retranslate();
  updateTitle();
  listBuiltInLessons();
}

void MainWindow::saveLayout() {
  QSettings settings;
  // Presentation mode's own arrangement (full screen, a narrow column) is not remembered: the
  // layout from before it stays (the plots keep theirs from before the mode themselves).
  if (!presentation_->active()) {
    settings.setValue(QStringLiteral("layout/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("layout/columns"), columns_->saveState());
    settings.setValue(QStringLiteral("layout/rows"), rows_->saveState());
  }
  settings.setValue(QStringLiteral("layout/plots"), plot_area_->saveState());
}

void MainWindow::restoreLayout() {
  const QSettings settings;
  // Each part only when it was saved; a state from another version is ignored by Qt.
  if (const auto g = settings.value(QStringLiteral("layout/geometry")).toByteArray(); !g.isEmpty())
    restoreGeometry(g);
  if (const auto c = settings.value(QStringLiteral("layout/columns")).toByteArray(); !c.isEmpty())
    columns_->restoreState(c);
  if (const auto r = settings.value(QStringLiteral("layout/rows")).toByteArray(); !r.isEmpty())
    rows_->restoreState(r);
  if (const auto p = settings.value(QStringLiteral("layout/plots")).toByteArray(); !p.isEmpty())
    plot_area_->restoreState(p);
}

}  // namespace trainscope
