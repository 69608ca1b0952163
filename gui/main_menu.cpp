#include "gui/main_menu.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <cmath>

#include "gui/app/translations.h"
#include "gui/tr.h"

namespace trainscope {

MainMenu::MainMenu(QMenuBar* bar, QObject* parent) : QObject(parent) {
  QStyle* style = QApplication::style();
  auto action = [this](QMenu* menu, const char* name, auto signal) {
    QAction* a = menu->addAction(QString());
    a->setObjectName(QLatin1String(name));
    connect(a, &QAction::triggered, this, signal);
    return a;
  };
  file_ = bar->addMenu(QString());
  open_config_ = action(file_, "actionOpenConfig", &MainMenu::openConfig);
  open_config_->setIcon(style->standardIcon(QStyle::SP_DialogOpenButton));
  open_config_->setShortcut(QKeySequence::Open);
  save_config_ = action(file_, "actionSaveConfig", &MainMenu::saveConfig);
  save_config_->setIcon(style->standardIcon(QStyle::SP_DialogSaveButton));
  save_config_->setShortcut(QKeySequence::Save);
  import_weights_ = action(file_, "actionImportWeights", &MainMenu::importWeights);
  import_torchscript_ = action(file_, "actionImportTorchScript", &MainMenu::importTorchScript);
  check_shapes_ = action(file_, "actionCheckShapes", &MainMenu::checkShapes);
  file_->addSeparator();
  // Lessons: the built-in ones (setBuiltInLessons), a lesson file, saving one.
  lessons_ = file_->addMenu(QString());
  lessons_->setObjectName(QStringLiteral("menuLessons"));
  open_lesson_ = action(lessons_, "actionOpenLesson", &MainMenu::openLessonFile);
  save_lesson_ = action(lessons_, "actionSaveLesson", &MainMenu::saveLesson);
  lessons_->addSeparator();
  show_python_ = action(file_, "actionShowPythonCode", &MainMenu::showPythonCode);
  export_report_ = action(file_, "actionExportReport", &MainMenu::exportReport);
  export_model_ = action(file_, "actionExportModel", &MainMenu::exportModel);
  file_->addSeparator();
  show_runs_ = action(file_, "actionShowRuns", &MainMenu::showRuns);
  show_runs_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  show_sweeps_ = action(file_, "actionShowSweeps", &MainMenu::showSweeps);
  new_sweep_ = action(file_, "actionNewSweep", &MainMenu::newSweep);
  open_run_ = action(file_, "actionOpenRun", &MainMenu::openRun);
  open_run_folder_ = action(file_, "actionOpenRunFolder", &MainMenu::openRunFolder);
  open_run_folder_->setIcon(style->standardIcon(QStyle::SP_DirOpenIcon));
  runs_root_ = action(file_, "actionChooseRunsRoot", &MainMenu::chooseRunsRoot);
  file_->addSeparator();
  quit_ = action(file_, "actionQuit", &MainMenu::quit);
  quit_->setShortcut(QKeySequence::Quit);

  // View: presentation mode and its scale.
  view_ = bar->addMenu(QString());
  presentation_ = view_->addAction(QString());
  presentation_->setObjectName(QStringLiteral("actionPresentation"));
  presentation_->setCheckable(true);
  presentation_->setShortcut(QKeySequence(Qt::Key_F5));
  connect(presentation_, &QAction::triggered, this, &MainMenu::presentationToggled);
  presentation_bottom_ = view_->addAction(QString());
  presentation_bottom_->setObjectName(QStringLiteral("actionPresentationGradients"));
  presentation_bottom_->setCheckable(true);
  connect(presentation_bottom_, &QAction::toggled, this, &MainMenu::presentationBottomToggled);
  scale_menu_ = view_->addMenu(QString());
  auto* scales = new QActionGroup(this);
  for (double s : {1.5, 1.75, 2.0}) {
    QAction* a = scale_menu_->addAction(QStringLiteral("%1 %").arg(s * 100));
    a->setObjectName(QStringLiteral("actionPresentationScale%1").arg(std::lround(s * 100)));
    a->setCheckable(true);
    a->setData(s);
    scales->addAction(a);
    connect(a, &QAction::triggered, this, [this, s] { emit presentationScaleChosen(s); });
    scale_actions_ << a;
  }

  // Each language is named in its own language, so it can be found whatever is shown now.
  language_ = bar->addMenu(QString());
  auto* group = new QActionGroup(this);
  english_ = language_->addAction(QStringLiteral("English"));
  english_->setObjectName(QStringLiteral("actionLanguageEnglish"));
  chinese_ = language_->addAction(QStringLiteral("中文"));
  chinese_->setObjectName(QStringLiteral("actionLanguageChinese"));
  for (QAction* a : {english_, chinese_}) {
    a->setCheckable(true);
    group->addAction(a);
  }
  connect(english_, &QAction::triggered, this, [] { switchLanguage(QStringLiteral("en")); });
  connect(chinese_, &QAction::triggered, this, [] { switchLanguage(QStringLiteral("zh_CN")); });

  help_ = bar->addMenu(QString());
  about_ = help_->addAction(QString());
  about_->setObjectName(QStringLiteral("actionAbout"));
  connect(about_, &QAction::triggered, this, [this, bar] {
    QMessageBox::about(
        bar->window(), Tr::tr("About TrainScope"),
        Tr::tr("<b>TrainScope %1</b><p>Train neural networks with libtorch %2 and watch losses "
               "and gradients live.</p>")
            .arg(trainscope_version_, torch_version_));
  });
  retranslate();
}

void MainMenu::retranslate() {
  file_->setTitle(Tr::tr("&File"));
  language_->setTitle(Tr::tr("&Language"));
  help_->setTitle(Tr::tr("&Help"));
  view_->setTitle(Tr::tr("&View"));
  lessons_->setTitle(Tr::tr("&Lessons"));
  scale_menu_->setTitle(Tr::tr("Presentation &scale"));
  const struct {
    QAction* action;
    QString text, tip;
  } texts[] = {
      {open_config_, Tr::tr("&Open config..."), Tr::tr("Load settings from a JSON config file.")},
      {save_config_, Tr::tr("&Save config..."),
       Tr::tr("Save the current settings as a JSON config file.")},
      {import_weights_, Tr::tr("&Import weights..."),
       Tr::tr("Start the next runs from weights saved by Python's torch.save (a state_dict) or "
              "from a checkpoint.")},
      {import_torchscript_, Tr::tr("Use a &TorchScript model..."),
       Tr::tr("Train your own PyTorch module: a file saved in Python with "
              "torch.jit.script(model).save(...). Shows what it holds and runs one batch of the "
              "data through it first.")},
      {check_shapes_, Tr::tr("Check s&hapes..."),
       Tr::tr("Shape first: run one batch of the data through the model before training and "
              "show every layer's output shape and parameters; a model that does not fit the "
              "data is named with both shapes.")},
      {show_runs_, Tr::tr("R&uns..."),
       Tr::tr("Every run in the runs folder in one table: status, settings, best and final "
              "metrics, anomalies, notes. Sort, filter, compare settings, show a run.")},
      {show_sweeps_, Tr::tr("S&weeps..."),
       Tr::tr("The sweeps in the runs folder: each trial's state live, parallel coordinates of "
              "the values tried and the objective, the objective against each setting, which "
              "settings matter, the best trial.")},
      {new_sweep_, Tr::tr("&New sweep..."),
       Tr::tr("Train the current settings many times, varying the settings you choose (a grid, "
              "random draws or Optuna's TPE), and rank the runs by an objective.")},
      {open_run_, Tr::tr("Show a &past run..."),
       Tr::tr("Draw a finished run from its folder: its curves, events and diagnosis. Nothing "
              "is trained and no folder is created.")},
      {open_run_folder_, Tr::tr("Open &run folder"),
       Tr::tr("Open the current run's folder in the file manager.")},
      {runs_root_, Tr::tr("Choose runs &location..."),
       Tr::tr("Choose the folder under which every run gets its own folder.")},
      {quit_, Tr::tr("&Quit"), Tr::tr("Close TrainScope.")},
      {about_, Tr::tr("&About TrainScope"), QString()},
      {open_lesson_, Tr::tr("&Open lesson file..."),
       Tr::tr("Open a lesson (.tslesson, or a .json with a \"lesson\" section): its settings "
              "and its steps, shown one by one above the plots.")},
      {save_lesson_, Tr::tr("&Save as lesson..."),
       Tr::tr("Save the current settings (and the open lesson's steps) as a lesson file to "
              "hand to students.")},
      {show_python_, Tr::tr("Show the P&yTorch code..."),
       Tr::tr("The current settings as a plain PyTorch script: the data, the model, the "
              "optimizer and the training loop, to read or copy into your own code. On the CPU "
              "it gives the same losses as TrainScope, step for step.")},
      {export_report_, Tr::tr("Export run re&port..."),
       Tr::tr("Save the shown run as one file to hand in: its result, diagnosis, plots, "
              "settings, device, data, model and events (HTML or PDF).")},
      {export_model_, Tr::tr("Export &model..."),
       Tr::tr("Save the shown run's trained model as ONNX or TorchScript, to run outside "
              "TrainScope (OpenCV, onnxruntime, PyTorch), with a model card describing it.")},
      {presentation_, Tr::tr("&Presentation mode"),
       Tr::tr("For a projector: large texts and thick lines in colours that survive a "
              "washed-out screen, the settings and events hidden, the loss plot in focus. Space "
              "starts or pauses, Right trains one batch, Shift+Right one epoch, Esc leaves.")},
      {presentation_bottom_, Tr::tr("Show the &gradient plots in presentation mode"),
       Tr::tr("Keep the gradient norm, layer, learning-rate and loss-scale plots under the loss "
              "plot in presentation mode.")},
  };
  for (const auto& t : texts) {
    t.action->setText(t.text);
    t.action->setToolTip(t.tip);
    t.action->setStatusTip(t.tip);
  }
  const bool chinese = languageCode(QLocale()) == QLatin1String("zh_CN");
  chinese_->setChecked(chinese);
  english_->setChecked(!chinese);
}

void MainMenu::setBuiltInLessons(const QList<QPair<QString, QString>>& lessons) {
  for (QAction* a : builtin_lessons_) {
    lessons_->removeAction(a);
    a->deleteLater();
  }
  builtin_lessons_.clear();
  for (const auto& [name, title] : lessons) {
    QAction* a = lessons_->addAction(title);
    a->setObjectName(QStringLiteral("actionLesson_") + name);
    connect(a, &QAction::triggered, this, [this, name = name] { emit openLesson(name); });
    builtin_lessons_ << a;
  }
}

void MainMenu::setPresentation(bool on, double scale) {
  presentation_->setChecked(on);
  for (QAction* a : scale_actions_) a->setChecked(a->data().toDouble() == scale);
}

void MainMenu::setRunState(bool idle, bool hasRunDir) {
  open_config_->setEnabled(idle);
  import_weights_->setEnabled(idle);
  import_torchscript_->setEnabled(idle);
  open_run_->setEnabled(idle);
  lessons_->setEnabled(idle);
  runs_root_->setEnabled(idle);
  open_run_folder_->setEnabled(hasRunDir);
  export_report_->setEnabled(hasRunDir);
  export_model_->setEnabled(hasRunDir);
}

}  // namespace trainscope
