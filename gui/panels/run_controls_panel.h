#pragma once
/// The run controls: Start, Pause/Resume, Stop, Step batch, Step epoch.
#include <QGroupBox>

#include "gui/engine/training_controller.h"

class QPushButton;

namespace trainscope {

/// Shows the controller's run state as enabled buttons and turns clicks into signals; it keeps
/// no run state of its own. objectNames: startButton, pauseButton, stepButton, stepEpochButton,
/// stopButton.
class RunControlsPanel : public QGroupBox {
  Q_OBJECT
 public:
  explicit RunControlsPanel(QWidget* parent = nullptr);
  /// Enables the buttons that make sense in `state` and names the pause button.
  void setState(TrainingController::State state);
  void retranslate();

 signals:
  void startClicked();
  void pauseClicked();  ///< pause or resume, as the button says
  void stepClicked();
  void stepEpochClicked();
  void stopClicked();

 private:
  TrainingController::State state_ = TrainingController::State::Idle;
  QPushButton* start_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* step_ = nullptr;
  QPushButton* step_epoch_ = nullptr;
  QPushButton* stop_ = nullptr;
};

}  // namespace trainscope
