#pragma once
/// The lesson panel: shows a lesson's step and plays it in the dashboard.
#include <QFrame>
#include <QPointer>
#include <QStringList>
#include <functional>
#include <optional>

#include "core/train/teaching/lesson.h"

class QLabel;
class QMainWindow;
class QPushButton;
class QShortcut;

namespace trainscope {

class PlotArea;
class RunControlsPanel;
class SettingsPanel;
class RunCommands;

/// What the panel drives (not owned), and the window's own run commands.
struct LessonHost {
  QMainWindow* window = nullptr;
  RunCommands* controller = nullptr;
  SettingsPanel* settings = nullptr;
  PlotArea* plots = nullptr;
  QWidget* settings_column = nullptr;  ///< "settings": the scrolling settings column
  QWidget* events = nullptr;           ///< "events"
  RunControlsPanel* controls = nullptr;  ///< "run_controls"
  QWidget* status = nullptr;           ///< "status": the status bar
  /// Starts a run with the settings (MainWindow::startRun; resumes a paused one); with true, a
  /// new run that pauses after its first batch. False when it could not start.
  std::function<bool(bool pausedAfterFirstStep)> start;
  /// Starts a sweep of the settings (a lesson's "sweep" action: a sweep file's fields without
  /// "base") and shows it in the Sweeps window; false with `error` naming the key and the
  /// problem (MainWindow::startSweep).
  std::function<bool(const nlohmann::json& sweep, QString* error)> sweep;
};

/// Shows the current step of a lesson (objectName lessonPanel): its title, "Step k of n", the
/// step's text and question in the interface language, Back / Next / Close (lessonBackButton,
/// lessonNextButton, lessonCloseButton; PageUp / PageDown, as presentation clickers send, while a
/// lesson is open). Opening a step (the first, or Next) hides and locks the parts it names,
/// runs its actions in order and highlights what it looks at (an orange frame, its tab in
/// front); Back shows the earlier step's text, parts and frame without running its actions again.
/// Hidden while no lesson is open.
class LessonPanel : public QFrame {
  Q_OBJECT
 public:
  LessonPanel(const LessonHost& host, QWidget* parent = nullptr);
  ~LessonPanel() override;

  /// Opens `lesson` at its first step: the settings become its config (the window title names
  /// it). False with `error` while a run is active (nothing changes then).
  bool open(const Lesson& lesson, QString* error);
  /// Closes the lesson: hidden and locked parts come back, the frame goes.
  void close();
  bool isOpen() const { return lesson_.has_value(); }
  const std::optional<Lesson>& lesson() const { return lesson_; }
  /// 0-based index of the step shown.
  int stepIndex() const { return step_; }
  /// Shows the current step again without running its actions (the window's layout changed:
  /// presentation mode on or off).
  void refresh();
  /// The widget the step's look_at names (nullptr when none).
  QWidget* highlighted() const { return target_; }

 public slots:
  void next();
  void back();

 signals:
  /// A lesson was opened or closed (the window names it in its title).
  void lessonChanged();
  /// A step's action could not be carried out (English and translated reason).
  void actionFailed(const QString& message);

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showStep(bool runActions);
  void runAction(const LessonAction& action);
  /// Stops a run still going and waits (events processed) until it has ended, at most 10 s.
  void stopAndWait();
  void applyParts(const LessonStep* step);
  QWidget* viewFor(const std::string& name) const;
  QWidget* partFor(const std::string& name) const;
  void placeFrame();
  void retranslate();

  LessonHost host_;
  std::optional<Lesson> lesson_;
  int step_ = 0;
  QLabel* title_;
  QLabel* counter_;
  QLabel* text_;
  QLabel* question_;
  QPushButton* back_;
  QPushButton* next_;
  QPushButton* close_;
  QList<QShortcut*> keys_;
  QPointer<QWidget> target_;
  QWidget* frame_ = nullptr;  ///< the highlight, a child of the window
  QList<QPointer<QWidget>> locked_;
  QPointer<QWidget> revealed_;  ///< a part shown for the step's look_at despite its hiders
  QStringList revealed_reasons_;
};

}  // namespace trainscope
