#pragma once
/// The main window's menu bar: File, View, Language and Help.
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

class QAction;
class QActionGroup;
class QMenu;
class QMenuBar;

namespace trainscope {

/// Builds the menus on a menu bar, owns their actions (stable objectNames: actionOpenConfig,
/// actionSaveConfig, actionOpenRun, actionShowRuns, actionShowSweeps, actionNewSweep, actionOpenRunFolder, actionChooseRunsRoot, actionQuit,
/// actionImportWeights, actionCheckShapes, actionImportTorchScript, actionLanguageEnglish, actionLanguageChinese, actionAbout, actionPresentation (F5),
/// actionPresentationGradients, actionPresentationScale150/175/200, actionOpenLesson,
/// actionSaveLesson, actionLesson_<name>) and turns them
/// into signals. The Language menu switches the interface at once and remembers the choice.
class MainMenu : public QObject {
  Q_OBJECT
 public:
  MainMenu(QMenuBar* bar, QObject* parent);
  void retranslate();
  /// Enables what makes sense with no run active (`idle`) and with a run folder (`hasRunDir`).
  void setRunState(bool idle, bool hasRunDir);
  /// The built-in lessons' entries of File > Lessons: (name, title in the interface language).
  void setBuiltInLessons(const QList<QPair<QString, QString>>& lessons);
  /// Checks the presentation mode action and the scale in use (the mode is also left by Esc).
  void setPresentation(bool on, double scale);
  /// Versions the About box names.
  void setVersions(const QString& trainscope, const QString& torch) {
    trainscope_version_ = trainscope;
    torch_version_ = torch;
  }

 signals:
  void openConfig();
  void saveConfig();
  void importWeights();
  void checkShapes();
  void importTorchScript();
  void openRun();
  void showRuns();
  void showSweeps();
  void newSweep();
  void openRunFolder();
  void chooseRunsRoot();
  void quit();
  void presentationToggled(bool on);
  void openLessonFile();
  void saveLesson();
  void showPythonCode();
  void exportReport();
  void exportModel();
  void openLesson(const QString& name);  ///< a built-in lesson
  void presentationBottomToggled(bool shown);
  void presentationScaleChosen(double scale);

 private:
  QMenu* file_ = nullptr;
  QMenu* language_ = nullptr;
  QMenu* help_ = nullptr;
  QMenu* view_ = nullptr;
  QMenu* lessons_ = nullptr;
  QAction* open_lesson_ = nullptr;
  QAction* save_lesson_ = nullptr;
  QAction* show_python_ = nullptr;
  QAction* export_report_ = nullptr;
  QAction* export_model_ = nullptr;
  QList<QAction*> builtin_lessons_;
  QMenu* scale_menu_ = nullptr;
  QAction* presentation_ = nullptr;
  QAction* presentation_bottom_ = nullptr;
  QList<QAction*> scale_actions_;
  QAction* open_config_ = nullptr;
  QAction* save_config_ = nullptr;
  QAction* import_weights_ = nullptr;
  QAction* check_shapes_ = nullptr;
  QAction* import_torchscript_ = nullptr;
  QAction* open_run_ = nullptr;
  QAction* show_runs_ = nullptr;
  QAction* show_sweeps_ = nullptr;
  QAction* new_sweep_ = nullptr;
  QAction* open_run_folder_ = nullptr;
  QAction* runs_root_ = nullptr;
  QAction* quit_ = nullptr;
  QAction* english_ = nullptr;
  QAction* chinese_ = nullptr;
  QAction* about_ = nullptr;
  QString trainscope_version_, torch_version_;
};

}  // namespace trainscope
