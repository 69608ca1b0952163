#pragma once
/// The panel that appears when the engine pauses on a non-finite step or a divergence:
/// the evidence and the ways on.
#include <QFrame>
#include <optional>

#include "core/run/records.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"

class QLabel;
class QPushButton;

namespace trainscope {

/// Hidden until the run pauses on a "non_finite" or "diverged" event (training.non_finite
/// "pause", the GUI's default); then shows the event's evidence (Event::evidence: step, loss,
/// total gradient norm, learning rate, the first layer(s) whose gradient went non-finite or the
/// largest, whether clipping was on, the likely causes) and the actions, one per row: roll back
/// to the newest snapshot before the step and continue with a 10x lower learning rate
/// (`nonFiniteLowerLrButton`, RunCommands::rollBack(step, 0.1, false)) or with clipping
/// on (`nonFiniteClipButton`, rollBack(step, 1, true), max_norm as set), continue anyway
/// (`nonFiniteContinueButton`: it pauses again at the next non-finite step), keep going and
/// skip the bad steps (`nonFiniteSkipButton`, non-finite events only: training.non_finite
/// "skip" from the next step, RunCommands::setNonFinitePolicy, then resume) and stop
/// (`nonFiniteStopButton`). Hides again when the run goes on or ends. objectName
/// `nonFinitePanel`.
class NonFinitePanel : public QFrame {
  Q_OBJECT
 public:
  explicit NonFinitePanel(RunCommands* controller, QWidget* parent = nullptr);
  /// The event the panel shows (empty while hidden).
  const std::optional<Event>& shownEvent() const { return shown_; }

 signals:
  /// The panel appeared for the event at `step` (the window marks that step on the plots).
  void shownForStep(qint64 step);

 protected:
  void changeEvent(QEvent* event) override;
  /// The warning background and border, painted: a style sheet for them kept the panel's
  /// texts at the size they had when it was polished (presentation mode's 1.5x never reached
  /// them: 12 px beside 18 px).
  void paintEvent(QPaintEvent* event) override;

 private:
  void onEvent(const Event& event);
  void onState(RunState state);
  void act(double lrFactor, bool clipping);
  void retranslate();

  RunCommands* controller_;
  std::optional<Event> pending_;  ///< the newest non_finite / diverged event of the run
  std::optional<Event> shown_;
  QLabel* title_;
  QLabel* evidence_;
  QLabel* causes_;
  QPushButton* lower_lr_;
  QPushButton* clip_;
  QPushButton* continue_;
  QPushButton* skip_;
  QPushButton* stop_;
};

}  // namespace trainscope
