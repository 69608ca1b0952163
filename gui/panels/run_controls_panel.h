#pragma once
/// The run controls: Start, Pause/Resume, Stop, Step batch, Step epoch.
#include <QGroupBox>

#include "gui/engine/run_state.h"

class QGridLayout;
class QLabel;
class QPushButton;
class QSlider;

namespace trainscope {

/// Shows the controller's run state as enabled buttons and turns clicks into signals; it keeps
/// no run state of its own. objectNames: startButton, pauseButton, stepButton, stepEpochButton,
/// stopButton, speedSlider. The speed slider paces a run from 1 to 1,000 steps per second on a
/// log scale, its last notch is full speed; the pace is a GUI setting (remembered in QSettings
/// as "pace"), never a config key, and changes no number of the run.
class RunControlsPanel : public QGroupBox {
  Q_OBJECT
 public:
  explicit RunControlsPanel(QWidget* parent = nullptr);
  /// Enables the buttons that make sense in `state` and names the pause button.
  void setState(RunState state);
  void retranslate();
  /// Steps per second the slider asks for; 0 = full speed.
  double pace() const;
  /// Moves the slider to `stepsPerSecond` (0 = full speed); remembered unless `remember` is false.
  void setPace(double stepsPerSecond, bool remember = true);
  /// The pace a built-in preset suggests so that its whole demo takes about 25 s (steps/s), or
  /// 0 when it has none.
  static double suggestedPace(const QString& preset);

  /// Compact: the buttons in one column, the slider under them (presentation mode's narrow
  /// column); else three columns.
  void setCompact(bool compact);

  /// What a keyboard shortcut asks for (presentation mode: Space, Right, Shift+Right).
  enum class Control { StartOrPause, Step, StepEpoch };
  /// Clicks the button `control` stands for when it is enabled in the current state (Start when
  /// idle, else Pause/Resume for StartOrPause); false when none is, nothing happens then.
  bool press(Control control);

 signals:
  void startClicked();
  void pauseClicked();  ///< pause or resume, as the button says
  void stepClicked();
  void stepEpochClicked();
  void stopClicked();
  /// The slider moved: steps per second, 0 = full speed.
  void paceChanged(double stepsPerSecond);

 private:
  RunState state_ = RunState::Idle;
  QGridLayout* grid_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* step_ = nullptr;
  QPushButton* step_epoch_ = nullptr;
  QPushButton* stop_ = nullptr;
  QSlider* speed_ = nullptr;
  QLabel* speed_caption_ = nullptr;
  QLabel* speed_value_ = nullptr;
  bool remember_pace_ = true;
};

}  // namespace trainscope
