#include "gui/app/automation.h"

#include <QCoreApplication>
#include <QImage>
#include <QTimer>
#include <utility>

#include "gui/event_text.h"
#include "gui/main_window.h"

namespace trainscope {

Automation::Automation(MainWindow* window, const AppOptions& options, QObject* parent)
    : QObject(parent), window_(window), options_(options) {
  if (!options_.runs_dir.isEmpty()) window_->setRunsRoot(options_.runs_dir);
  const bool scripted = options_.quitWhenRunEnds();
  window_->setConfirmClose(!scripted);
  if (scripted) window_->setFullSpeed();
  RunCommands* c = window_->commands();
  // Connected after the window's own handlers: the window shows a record before it is grabbed.
  connect(c->store(), &RunStore::epochFinished, this, &Automation::onEpoch);
  connect(c->store(), &RunStore::eventOccurred, this, &Automation::onEvent);
  connect(c->store(), &RunStore::runFinished, this, &Automation::onRunEnded);
  connect(c->store(), &RunStore::runFailed, this, &Automation::onRunFailed);
}

void Automation::begin() {
  if (!options_.open_run.isEmpty()) {  // a finished run on show: the picture, then quit
    if (!options_.screenshot.isEmpty())
      QTimer::singleShot(0, this, [this] { quit(saveScreenshot() ? 0 : 1); });
    return;
  }
  if (options_.autostart || options_.quitWhenRunEnds())
    QTimer::singleShot(0, this, &Automation::startRun);
}

void Automation::startRun() {
  if (!window_->startRun()) return;  // runFailed already reported it
  // The engine itself pauses at the end of epoch N: reacting to the epoch record would be
  // several epochs late when epochs take microseconds.
  if (options_.quit_after_epochs > 0)
    window_->commands()->pauseAfterEpoch(options_.quit_after_epochs);
}

void Automation::onEpoch(const EpochRecord& epoch) {
  const int n = options_.quit_after_epochs;
  if (n <= 0 || epoch.epoch < n || quitting_) return;
  // Epoch N reached: the screenshot shows the run ended (state, buttons, the model view of
  // epoch N that follows this record), so it is taken once the end is shown, in onRunEnded.
  quitting_ = true;
  // At the planned last epoch the run completes by itself; earlier the engine pauses at the
  // end of epoch N (pauseAfterEpoch) and sends that epoch's model view with its pause: the run
  // is stopped once the pause arrives (onEvent), so the view is the one of epoch N.
  stop_at_pause_ = n < window_->commands()->store()->totalEpochs();
}

void Automation::onEvent(const Event& event) {
  RunCommands* c = window_->commands();
  if (event.kind == EventKind::Paused && std::exchange(stop_at_pause_, false)) {
    if (c->isActive() && c->state() != RunState::Stopping) c->stop();
    return;
  }
  // A scripted run has nobody to press Resume: a pause it did not ask for (a non-finite value
  // under the "pause" policy) ends it, with the screenshot of that state.
  if (event.kind == EventKind::Paused && options_.quitWhenRunEnds()) finishScripted();
}

void Automation::finishScripted() {
  RunCommands* c = window_->commands();
  if (quitting_ || !c->isActive() || c->state() == RunState::Stopping) return;
  // Grab the window before stopping (plots, the run's state), then stop: quit() follows the
  // run's end.
  if (!options_.screenshot.isEmpty() && !saveScreenshot()) exit_code_ = 1;
  quitting_ = true;
  c->stop();
}

void Automation::onRunEnded() {
  if (!options_.quitWhenRunEnds() && !quitting_) return;
  // After the window's own handlers (connected first) have shown the end; the texts they set
  // in this turn are laid out by grabWindowImage().
  quit(exit_code_);
}

void Automation::onRunFailed(const RunFailure& failure) {
  if (!options_.quitWhenRunEnds() && !quitting_) return;
  // Say why on stderr too, then quit with the "bad input" code.
  qWarning("%s", qPrintable(EventText::forFailure(failure)));
  quit(2);
}

bool Automation::saveScreenshot() {
  screenshot_saved_ = true;
  const QImage image = window_->grabWindowImage();
  emit screenshotTaken(window_->commands()->state());
  if (image.save(options_.screenshot)) return true;
  qWarning("could not save the screenshot to %s", qPrintable(options_.screenshot));
  return false;
}

void Automation::quit(int exitCode) {
  if (!options_.screenshot.isEmpty() && !screenshot_saved_ && !saveScreenshot() && exitCode == 0)
    exitCode = 1;
  // Leave the event loop after the current slot returns.
  QTimer::singleShot(0, qApp, [exitCode] { QCoreApplication::exit(exitCode); });
}

}  // namespace trainscope
