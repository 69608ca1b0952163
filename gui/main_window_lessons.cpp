// MainWindow's teaching actions: lessons (opening one by name or file, saving the
// settings as one, the window title), the PyTorch code of the settings and the run report,
// split from main_window.cpp by concern.
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QStatusBar>

#include "core/config/config_json.h"
#include "core/io/atomic_file.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_menu.h"
#include "gui/main_window.h"
#include "gui/panels/export_model_dialog.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/plot_area.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/teaching/lessons.h"
#include "gui/teaching/python_code_dialog.h"
#include "gui/teaching/run_report.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

/// The model files a lesson's base config or step settings name (model.torchscript.path).
QStringList lessonModelFiles(const Lesson& lesson) {
  QStringList files;
  auto add = [&](const nlohmann::json& path) {
    if (path.is_string() && !files.contains(QString::fromStdString(path.get<std::string>())))
      files << QString::fromStdString(path.get<std::string>());
  };
  const nlohmann::json& c = lesson.config;
  if (c.contains("model") && c["model"].is_object() && c["model"].value("kind", "") == "torchscript" &&
      c["model"].contains("torchscript") && c["model"]["torchscript"].is_object())
    add(c["model"]["torchscript"].value("path", nlohmann::json()));
  for (const LessonStep& step : lesson.steps)
    for (const LessonAction& a : step.actions)
      if (a.kind == LessonAction::Kind::Set && a.settings.contains("model.torchscript.path"))
        add(a.settings["model.torchscript.path"]);
  return files;
}

}  // namespace

bool MainWindow::showView(const QString& key) {
  QWidget* view = plot_area_->view(key);
  if (view) plot_area_->showView(view);
  return view != nullptr;
}

bool MainWindow::openLesson(const QString& nameOrFile, QString* error) {
  Lesson lesson;
  if (!findLesson(nameOrFile, &lesson, error)) return false;
  // A lesson never loads a model file without asking: a TorchScript file is
  // a program, and a lesson could start it as it opens.
  const QStringList models = lessonModelFiles(lesson);
  if (!models.isEmpty()) {
    const QString list = models.join(QStringLiteral(", "));
    const auto answer = QMessageBox::question(
        this, Tr::tr("The lesson loads a model file"),
        Tr::tr("This lesson trains the model file %1. A TorchScript file is a program, like a "
               "pickle: it can read and write your files. Open the lesson only if you trust "
               "where the file came from.")
            .arg(QDir::toNativeSeparators(list)),
        QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Open) {
      if (error) *error = Tr::tr("Not opened: you chose not to load the model file %1.").arg(list);
      return false;
    }
  }
  if (!lesson_panel_->open(lesson, error)) return false;
  // A lesson runs at the classroom pace of the preset it starts from (overfit-sine, moons:
  // about 25 s per run), any other at full speed; not remembered.
  applyPaceFor(QString::fromStdString(lesson.config.value("name", std::string())));
  return true;
}

bool MainWindow::saveLesson(const QString& file, const QString& title, QString* error) {
  Lesson lesson;
  if (lesson_panel_->lesson()) {
    lesson = *lesson_panel_->lesson();  // its steps, with the settings as they are now
  } else {
    LessonStep step;
    step.text.by_language = {{"en", "Click Start and watch the curves."},
                             {"zh_CN", "点击“开始”，观察曲线。"}};
    lesson.steps.push_back(step);
  }
  lesson.title.by_language.clear();
  for (const char* lang : {"en", "zh_CN"}) lesson.title.by_language[lang] = title.toStdString();
  lesson.config = configToJson(currentConfig());
  try {
    writeFileAtomic(file.toStdString(), lessonToJson(lesson).dump(2) + "\n");
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}

void MainWindow::onOpenLessonFile() {
  const QString file = QFileDialog::getOpenFileName(
      this, Tr::tr("Open lesson"), QString(),
      Tr::tr("Lessons (*.tslesson *.json);;All files (*)"));
  QString error;
  if (!file.isEmpty() && !openLesson(file, &error))
    QMessageBox::warning(this, Tr::tr("Cannot open the lesson"), error);
}

void MainWindow::onSaveLesson() {
  const std::string lang = languageCode(QLocale()).toStdString();
  const QString suggested = lesson_panel_->lesson()
                                ? QString::fromStdString(lesson_panel_->lesson()->title.in(lang))
                                : settings_->presetName();
  bool ok = false;
  const QString title = QInputDialog::getText(this, Tr::tr("Save as lesson"),
                                              Tr::tr("Title of the lesson:"), QLineEdit::Normal,
                                              suggested, &ok);
  if (!ok || title.trimmed().isEmpty()) return;
  const QString file = QFileDialog::getSaveFileName(
      this, Tr::tr("Save as lesson"), title.trimmed() + QStringLiteral(".tslesson"),
      Tr::tr("Lessons (*.tslesson)"));
  if (file.isEmpty()) return;
  QString error;
  if (!saveLesson(file, title.trimmed(), &error))
    QMessageBox::warning(this, Tr::tr("Cannot save the lesson"), error);
  else
    statusBar()->showMessage(Tr::tr("Saved %1").arg(file), 5000);
}

void MainWindow::listBuiltInLessons() {
  const std::string lang = languageCode(QLocale()).toStdString();
  QList<QPair<QString, QString>> entries;
  for (const QString& name : builtInLessonNames()) {
    Lesson lesson;
    if (findLesson(name, &lesson, nullptr))
      entries.append({name, QString::fromStdString(lesson.title.in(lang))});
  }
  menu_->setBuiltInLessons(entries);
}

void MainWindow::updateTitle() {
  if (const auto& lesson = lesson_panel_->lesson()) {
    const std::string lang = languageCode(QLocale()).toStdString();
    setWindowTitle(Tr::tr("TrainScope – Lesson: %1").arg(QString::fromStdString(lesson->title.in(lang))));
    return;
  }
  const QString preset = settings_->presetName();
  setWindowTitle(preset.isEmpty() ? Tr::tr("TrainScope") : Tr::tr("TrainScope – %1").arg(preset));
}

bool MainWindow::startLessonRun(bool paused) {
  if (!paused) return startRun();
  stepBatch();  // from idle: a new run, paused after its first batch
  return controller_->isActive();
}

void MainWindow::onShowPythonCode() {
  auto* dialog = new PythonCodeDialog(currentConfig(), "the dashboard's settings", this, live_changes_,
                                      live_change_step_, controller_->store()->runDirectory());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void MainWindow::onExportReport() {
  const QString dir = controller_->store()->runDirectory();
  if (dir.isEmpty()) return;  // the action is enabled only with a run folder
  const QString file = QFileDialog::getSaveFileName(
      this, Tr::tr("Export run report"), dir + QStringLiteral("/report.html"),
      Tr::tr("Web page, plots inside (*.html);;PDF (*.pdf)"));
  if (file.isEmpty()) return;
  QString error;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const bool written = writeRunReport(dir, file, QString(), &error);
  QApplication::restoreOverrideCursor();
  if (written)
    statusBar()->showMessage(Tr::tr("Report written to %1").arg(file), 8000);
  else
    QMessageBox::warning(this, Tr::tr("Export run report"), error);
}

void MainWindow::onExportModel() {
  const QString dir = controller_->store()->runDirectory();
  if (dir.isEmpty()) return;  // the action is enabled only with a run folder
  ExportModelDialog dialog(dir, this);
  dialog.exec();
}

void MainWindow::fitLessonPace(const RunInfo& info) {
  // A lesson's run at the classroom pace takes about 25 s: a step that makes the run longer
  // (the overfitting lesson's 400 samples: 3 minutes) raises the pace to fit;
  // never lowered, not remembered.
  if (lesson_panel_->lesson() && controller_->isActive() && controls_->pace() > 0) {
    const double steps = static_cast<double>(info.epochs * info.batches_per_epoch) /
                         std::max<int64_t>(1, controller_->store()->config().training.grad_accum_steps);
    if (steps / controls_->pace() > 30) controls_->setPace(steps / 25.0, /*remember=*/false);
  }
}

}  // namespace trainscope
